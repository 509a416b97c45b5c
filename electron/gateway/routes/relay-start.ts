import type { CatalogModel, Endpoint } from '../../../shared/types.js'
import { ensureFunds } from '../billing.js'
import { readJson } from '../body.js'
import type { RequestContext } from '../context.js'
import type { GatewayError } from '../errors.js'
import { resolveModel, upstreamsFor } from '../model-access.js'
import type { UpstreamAccount } from '../registry.js'
import type { Services } from '../services.js'
import type { RelayCapability } from '../upstreams/types.js'

type Body = Record<string, unknown>

export interface RelayStart {
  /** the body after `prepare` */
  body: Body
  /** the client's bytes, valid while `body` is the very object parsed from them */
  raw: Buffer
  parsed: Body
  model: CatalogModel
  candidates: UpstreamAccount[]
}

/**
 * The common start of every relayed endpoint, in the order clients see errors: the body and its schema (400),
 * the model in the key's group and on this endpoint (400/404), the family's own rules (400), an account that
 * serves it (404), then funds (402) — all before any upstream call.
 */
export async function startRelay(
  ctx: RequestContext,
  services: Services,
  spec: {
    validate: (body: unknown) => GatewayError | undefined
    endpoint: Endpoint
    capability: RelayCapability
    /** the family's rules; `signal` fires when the client leaves */
    prepare?: (body: Body, model: CatalogModel, signal: AbortSignal) => Body | Promise<Body>
    billable?: boolean
  },
): Promise<RelayStart> {
  const { value: parsed, raw } = readJson(ctx)
  const problem = spec.validate(parsed)
  if (problem) throw problem
  const model = resolveModel(services.registry, ctx.group!, parsed.model, spec.endpoint)
  ctx.model = model
  const body = spec.prepare ? await spec.prepare(parsed, model, ctx.abort.signal) : parsed
  const candidates = upstreamsFor(services.registry, ctx.group!, model, spec.capability)
  if (spec.billable !== false) ensureFunds(services.registry, ctx.key!)
  return { body, raw, parsed, model, candidates }
}
