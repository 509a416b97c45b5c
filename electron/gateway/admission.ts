import type { CatalogModel, Endpoint } from '../../shared/types.js'
import { ensureFunds } from './billing/billing.js'
import { readJson } from './client/body.js'
import type { RequestContext } from './context.js'
import type { GatewayError } from './errors.js'
import { resolveModel, upstreamsFor } from './access/model-access.js'
import type { UpstreamAccount } from './contract/accounts.js'
import type { Services } from './services.js'
import type { RelayCapability } from './contract/upstream.js'

type Body = Record<string, unknown>

/** One endpoint's part in the admission steps; every step throws its own GatewayError. */
export interface AdmissionSpec<In, Req, Funds> {
  endpoint: Endpoint
  capability: RelayCapability | 'images' | 'video'
  /** the request as sent, from the body the server read (`ctx.body`) */
  read(ctx: RequestContext): In | Promise<In>
  /** the endpoint's schema (400) */
  validate(input: In): GatewayError | undefined
  /** the model the client named */
  modelOf(input: In): unknown
  /** the family's rules (400): the request as the upstreams will get it */
  rules(input: In, model: CatalogModel, ctx: RequestContext): Req | Promise<Req>
  /** what the vendor refuses before anything is held (video: a shape its API cannot express) */
  accounts?(request: Req, candidates: UpstreamAccount[], model: CatalogModel): void
  /** funds (402): the balance and the key's quota, or what is held for the request (a video's reservation) */
  funds(ctx: RequestContext, services: Services, request: Req, model: CatalogModel): Funds | Promise<Funds>
}

export interface Admitted<In, Req, Funds> {
  input: In
  request: Req
  model: CatalogModel
  candidates: UpstreamAccount[]
  funds: Funds
}

/**
 * The one admission path of every model endpoint, in the order clients see errors: the body and its schema (400),
 * the model in the key's group and on this endpoint (400/404), the family's rules (400), an account that serves
 * it (404) and what its vendor refuses (400), then funds (402) — all before any upstream call.
 */
export async function admit<In, Req, Funds>(ctx: RequestContext, services: Services, spec: AdmissionSpec<In, Req, Funds>): Promise<Admitted<In, Req, Funds>> {
  // Only steps that may wait are awaited: the chat path gains no turn of the event loop.
  const read = spec.read(ctx)
  const input = read instanceof Promise ? await read : read
  const problem = spec.validate(input)
  if (problem) throw problem
  const model = resolveModel(services.registry, ctx.group!, spec.modelOf(input), spec.endpoint)
  ctx.model = model
  const ruled = spec.rules(input, model, ctx)
  const request = ruled instanceof Promise ? await ruled : ruled
  const candidates = upstreamsFor(services.registry, ctx.group!, model, spec.capability)
  spec.accounts?.(request, candidates, model)
  const held = spec.funds(ctx, services, request, model)
  const funds = held instanceof Promise ? await held : held
  return { input, request, model, candidates, funds }
}

/** Funds for a call billed after it ran: a positive balance and a key within its quota. */
export const balanceAndQuota = (ctx: RequestContext, services: Services): void => ensureFunds(services.registry, ctx.key!)

/** Funds for a call that costs nothing (count_tokens). */
export const free = (): void => {}

const modelField = (body: Body): unknown => body.model
const unchanged = (body: Body): Body => body

/** An endpoint whose body is a JSON object naming its `model`; without rules it goes on as sent, billed after the call. */
export function jsonAdmission<Req = Body, Funds = void>(
  spec: Pick<AdmissionSpec<Body, Req, Funds>, 'endpoint' | 'capability' | 'validate' | 'accounts'> & Partial<Pick<AdmissionSpec<Body, Req, Funds>, 'rules' | 'funds'>>,
): AdmissionSpec<Body, Req, Funds> {
  return {
    read: readJson,
    modelOf: modelField,
    rules: unchanged as unknown as AdmissionSpec<Body, Req, Funds>['rules'],
    funds: balanceAndQuota as unknown as AdmissionSpec<Body, Req, Funds>['funds'],
    ...spec,
  }
}
