import type { CatalogModel, Endpoint, FallbackTrigger } from '../../shared/types.js'
import { joinsSlot, releaseHold } from './billing/holds.js'
import { readJson } from './client/body.js'
import type { RequestContext } from './context.js'
import { GatewayError, gatewayError } from './errors.js'
import { resolveModel, upstreamsFor } from './access/model-access.js'
import type { UpstreamAccount } from './contract/accounts.js'
import type { Services } from './services.js'
import { takeSlot } from './limits.js'
import type { RelayCapability } from './contract/upstream.js'
import { isContextLengthError } from './upstreams/context-length.js'

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
  /** the request as sent, naming another model instead (a fallback's); without it the endpoint has no fallbacks */
  withModel?(input: In, model: string): In
  /** the family's rules (400): the request as the upstreams will get it */
  rules(input: In, model: CatalogModel, ctx: RequestContext): Req | Promise<Req>
  /** what the vendor refuses before anything is held (video: a shape its API cannot express) */
  accounts?(request: Req, candidates: UpstreamAccount[], model: CatalogModel): void
  /**
   * funds (402): what is held for the request's worst case against the account's budget, the key's quota and the
   * budgets of `candidates` (billing/holds.ts), or a video's reservation
   */
  funds(ctx: RequestContext, services: Services, request: Req, model: CatalogModel, candidates: readonly UpstreamAccount[]): Funds | Promise<Funds>
}

export interface Admitted<In, Req, Funds> {
  input: In
  request: Req
  model: CatalogModel
  candidates: UpstreamAccount[]
  funds: Funds
  /** the request names the model the client named, so its bytes may go on as sent; false for a fallback model */
  asSent: boolean
}

/**
 * The client's own bytes, to go upstream instead of `body` encoded again, when `body` is the input as admitted (the
 * rules changed nothing, nothing was added) for the model the client named; else undefined.
 */
export function clientBytes(ctx: RequestContext, admitted: Pick<Admitted<unknown, unknown, unknown>, 'input' | 'asSent'>, body: unknown): Buffer | undefined {
  return admitted.asSent && body === admitted.input ? ctx.body : undefined
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
  try {
    return await admitModel(ctx, services, spec, input, spec.modelOf(input), input)
  } catch (err) {
    // A prompt the model's rules refuse as too long (its maxInputTokens, before any call) goes to the model's
    // `context_length` fallback, as the vendor's own 400 would after the call.
    const model = ctx.model
    if (model === undefined || !(err instanceof GatewayError) || fallbackTrigger(err) !== 'context_length') throw err
    const fallback = await admitFallback(ctx, services, spec, input, model, { next: 0 }, 'context_length')
    if (fallback === undefined) {
      ctx.model = model
      throw err
    }
    return fallback
  }
}

/** The longest model name a ledger row keeps of a model it did not find (catalog ids are far shorter). */
const MAX_NAMED_MODEL_CHARS = 200

/** The steps after the schema, for the model named: the model in the group, its rules, its accounts, funds. */
async function admitModel<In, Req, Funds>(ctx: RequestContext, services: Services, spec: AdmissionSpec<In, Req, Funds>, input: In, named: unknown, asSent?: In): Promise<Admitted<In, Req, Funds>> {
  // The first model named is the one requested (a fallback's admission keeps it); ledger rows keep a bounded name.
  if (typeof named === 'string' && ctx.requestedModel === undefined) ctx.requestedModel = named.slice(0, MAX_NAMED_MODEL_CHARS)
  const model = resolveModel(services.registry, ctx.group!, named, spec.endpoint)
  ctx.model = model
  const ruled = spec.rules(input, model, ctx)
  const request = ruled instanceof Promise ? await ruled : ruled
  const candidates = pinned(ctx, upstreamsFor(services.registry, ctx.group!, model, spec.capability), model)
  spec.accounts?.(request, candidates, model)
  // Team mode: the concurrency slot (server.ts deferred it), before anything is held; or with the request's hold, in
  // one round trip, by a funds step that holds (billing/holds.ts); or after one that held nothing.
  if (ctx.slot !== undefined && !joinsSlot(spec.funds)) await takeSlot(ctx)
  const held = spec.funds(ctx, services, request, model, candidates)
  const funds = held instanceof Promise ? await held : held
  if (ctx.slot !== undefined) await takeSlot(ctx)
  return { input, request, model, candidates, funds, asSent: input === asSent }
}

/** A replay pinned to one account (access/replay-tickets.ts) tries that account only; 400 when it does not serve the model. */
function pinned(ctx: RequestContext, candidates: UpstreamAccount[], model: CatalogModel): UpstreamAccount[] {
  const account = ctx.replay?.upstream
  if (account === undefined) return candidates
  const only = candidates.filter((u) => u.id === account)
  if (only.length === 0) throw gatewayError('invalid_request', 'replay_account_not_serving', { account, model: model.id, group: ctx.group!.id })
  return only
}

/**
 * Why a model's try failed, as its fallbacks name it: `context_length` (the upstream's 400 that the prompt is too
 * long), `rate_limited` (its accounts exhausted on 429s), `unavailable` (exhausted on 5xx, timeouts, breakers open,
 * broken connections). Anything else (the client's own error, a content filter, the client leaving) has no fallback.
 */
export function fallbackTrigger(err: unknown): FallbackTrigger | undefined {
  if (!(err instanceof GatewayError)) return undefined
  if (err.status === 400 || err.status === 413) return isContextLengthError(err) ? 'context_length' : undefined
  const last = err.cause as { kind?: string; status?: number } | undefined
  if (err.status === 429 || (last?.kind === 'status' && last.status === 429)) return 'rate_limited'
  switch (err.kind) {
    case 'upstream_unavailable':
    case 'upstream_timeout':
    case 'upstream_error':
      return 'unavailable'
    default:
      return undefined
  }
}

/**
 * The next of `primary`'s fallbacks (from `cursor.next` on, each tried once) that lists `trigger`, is in the key's
 * group, is not `current` and can be admitted — the request admitted again as if the client had named it, holding
 * its own worst case at its own price; one that cannot be admitted is passed over. Undefined when none is left.
 */
async function admitFallback<In, Req, Funds>(
  ctx: RequestContext,
  services: Services,
  spec: AdmissionSpec<In, Req, Funds>,
  input: In,
  current: CatalogModel,
  cursor: { next: number },
  trigger: FallbackTrigger,
  primary: CatalogModel = current,
): Promise<Admitted<In, Req, Funds> | undefined> {
  const fallbacks = primary.fallbacks ?? []
  if (spec.withModel === undefined) return undefined
  while (cursor.next < fallbacks.length) {
    const { model, on } = fallbacks[cursor.next++]
    // A fallback outside the key's group is never used.
    if (!on.includes(trigger) || model === current.id || !ctx.group!.modelSet.has(model)) continue
    try {
      await releaseHold(ctx, services)
      return await admitModel(ctx, services, spec, spec.withModel(input, model), model)
    } catch (refused) {
      if (!(refused instanceof GatewayError)) throw refused
    }
  }
  return undefined
}

/**
 * Serves an admitted request, falling back to the model's fallbacks (catalog `fallbacks`, README "Model mapping and
 * fallbacks"): when `serve` fails before anything reached the client with an error class a fallback lists, the
 * request is admitted again for that model (it must be in the key's group; its rules, accounts and funds apply at its
 * price) and served through its accounts. Fallbacks are tried in the primary's order, each at most once; one that
 * cannot be admitted is passed over. When none serves, the last model's error stands.
 */
export async function serveWithFallbacks<In, Req, Funds, T>(
  ctx: RequestContext,
  services: Services,
  spec: AdmissionSpec<In, Req, Funds>,
  admitted: Admitted<In, Req, Funds>,
  serve: (admitted: Admitted<In, Req, Funds>) => Promise<T>,
): Promise<T> {
  const fallbacks = admitted.model.fallbacks
  // The common case pays one property read.
  if (fallbacks === undefined || fallbacks.length === 0 || spec.withModel === undefined) return serve(admitted)
  let current = admitted
  const cursor = { next: 0 }
  for (;;) {
    try {
      return await serve(current)
    } catch (err) {
      const trigger = ctx.res.headersSent || ctx.abort.aborted ? undefined : fallbackTrigger(err)
      if (trigger === undefined) throw err
      const fallback = await admitFallback(ctx, services, spec, admitted.input, current.model, cursor, trigger, admitted.model)
      if (fallback === undefined) {
        ctx.model = current.model
        throw err
      }
      current = fallback
    }
  }
}

/** Funds for a call that costs nothing (count_tokens). */
export const free = (): void => {}

const modelField = (body: Body): unknown => body.model
const renamed = (body: Body, model: string): Body => ({ ...body, model })
const unchanged = (body: Body): Body => body

/**
 * An endpoint whose body is a JSON object naming its `model`; without rules it goes on as sent. Its funds step is its
 * own (the worst case it holds, billing/holds.ts, or `free`).
 */
export function jsonAdmission<Req = Body, Funds = void>(
  spec: Pick<AdmissionSpec<Body, Req, Funds>, 'endpoint' | 'capability' | 'validate' | 'accounts' | 'funds'> & Partial<Pick<AdmissionSpec<Body, Req, Funds>, 'rules'>>,
): AdmissionSpec<Body, Req, Funds> {
  return {
    read: readJson,
    modelOf: modelField,
    withModel: renamed,
    rules: unchanged as unknown as AdmissionSpec<Body, Req, Funds>['rules'],
    ...spec,
  }
}
