import type { CatalogModel } from '../../../shared/types.js'
import type { UpstreamAccount } from '../contract/accounts.js'
import type { RequestContext, RequestHold } from '../context.js'
import { gatewayError, type GatewayError } from '../errors.js'
import { nanoToUsd } from '../money/money.js'
import type { Services } from '../services.js'
import { holdSlot, takeSlot } from '../limits.js'
import type { HoldAsked, HoldTaken } from '../store/holds.js'
import { costNano } from './billing.js'
import type { PriceOptions, QuotePrice } from './quote-price.js'

/** What an endpoint's worst case is: its quote's `max` (billing/quote-price.ts), the figure POST /v1/quote shows. */
export type WorstCase<Req> = (request: Req, model: CatalogModel, ctx: RequestContext, options?: PriceOptions) => Promise<QuotePrice>

/** An amount as the 402 messages show it: USD with nano-dollar digits, trailing zeros dropped. */
export const usdText = (nano: number): string => nanoToUsd(Math.max(0, nano)).toFixed(9).replace(/\.?0+$/, '')

/**
 * The largest output cap whose worst case fits `availableNano`, for a token-priced request whose quote counted
 * `input_tokens` and capped the output at `max_output_tokens` (the quote's `max` may be several copies of that, `n`).
 * Undefined when the model is not token-priced or the quote says nothing of tokens.
 */
export function largestFittingCap(model: CatalogModel, price: QuotePrice, availableNano: number): number | undefined {
  const inputTokens = price.basis.input_tokens
  const cap = price.basis.max_output_tokens
  if (model.pricing.unit !== 'token' || typeof inputTokens !== 'number' || typeof cap !== 'number') return undefined
  // The prompt is billed once, the cap once per answer asked for (chat `n`).
  const copies = typeof price.basis.n === 'number' ? price.basis.n : 1
  const fits = (tokens: number) => costNano(model, { inputTokens, outputTokens: tokens * copies }) <= availableNano
  if (!fits(0)) return 0
  // Bounded: at most log2(cap) steps.
  let low = 0
  let high = cap
  while (low < high) {
    const mid = Math.ceil((low + high) / 2)
    if (fits(mid)) low = mid
    else high = mid - 1
  }
  return low
}

/** The sentence after a 402: the largest cap that fits, or that even one token of output does not. */
function fitText(model: CatalogModel, price: QuotePrice, availableNano: number, capField: string | undefined): { en: string; zh: string } {
  const fit = capField === undefined ? undefined : largestFittingCap(model, price, availableNano)
  if (fit === undefined) return { en: '', zh: '' }
  // The field the request set, else the endpoint's usual one.
  const named = price.basis.output_cap
  const field = typeof named === 'string' && named !== 'model_limit' ? named : capField
  if (fit < 1) return { en: ' Even a one-token answer does not fit.', zh: '即使只输出 1 个词元也不够。' }
  return { en: ` A lower ${field} fits: at most ${fit}.`, zh: `降低 ${field} 即可：最多 ${fit}。` }
}

/** The 402 of a worst case that does not fit a limit (spec §7: `insufficient_quota`). */
function refusal(limit: 'balance' | 'key', model: CatalogModel, price: QuotePrice, availableNano: number, capField: string | undefined): GatewayError {
  return gatewayError('insufficient_quota', limit === 'balance' ? 'request_reservation_insufficient' : 'request_reservation_key_quota', {
    amount: usdText(price.maxNano), available: usdText(availableNano), fit: fitText(model, price, availableNano, capField),
  })
}

function upstreamRefusal(model: CatalogModel, price: QuotePrice, accounts: readonly UpstreamAccount[], availableNano: number, capField: string | undefined): GatewayError {
  return upstreamBudgetRefusal(model, price.maxNano, accounts, availableNano, fitText(model, price, availableNano, capField))
}

/** The 402 of an amount no upstream account of `accounts` has room for (`fit`: the advice after it, if any). */
export function upstreamBudgetRefusal(model: CatalogModel, amountNano: number, accounts: readonly UpstreamAccount[], availableNano: number, fit = { en: '', zh: '' }): GatewayError {
  return gatewayError('insufficient_quota', 'request_reservation_upstream', {
    amount: usdText(amountNano), available: usdText(availableNano), model: model.id, accounts: accounts.map((u) => u.id).join(', '), fit,
  })
}

/** What is left of an upstream account's budget as this process last read it (null: no budget). */
const upstreamLeft = (u: UpstreamAccount): number | null => (u.budgetNano === null || u.budgetNano === undefined ? null : u.budgetNano - (u.spentNano ?? 0))

/**
 * The funds step of every endpoint billed after its call (README "Budgets and reservations"): when the account has a
 * budget, the key a quota or an account that may serve it a budget, the request's worst case (`worst`, the quote's
 * `max`) is held in the store before any upstream call, and refused with a 402 when it does not fit; the hold moves
 * with the request from upstream account to upstream account (`RequestHold.onUpstream`) and is settled by the
 * request's ledger row (billing.ts recordRequest). With no limit anywhere, nothing is held or counted.
 * `capField` names the request's output cap in the 402's advice (token-priced endpoints only).
 */
export function holdWorstCase<Req>(worst: WorstCase<Req>, capField?: string) {
  const funds = async (ctx: RequestContext, services: Services, request: Req, model: CatalogModel, candidates: readonly UpstreamAccount[]): Promise<void> => {
    const { store } = services
    const key = ctx.key!
    const upstreamIds = candidates.map((u) => u.id)
    if (!(await limitsApply(services, ctx, candidates))) return
    // A long prompt's input is bounded by its size, not counted (quote-price.ts COUNTED_HOLD_CHARS); only when that
    // bound does not fit is it counted, so nothing the count would admit is refused.
    let price = await worst(request, model, ctx, { inputBound: true })
    // A charge past its hold (a vendor's overrun) still queued is counted first: the store's figures must include it.
    if (store.ledger.chargesPastHolds()) await store.ledger.flush()
    let taken = await takeHold(ctx, services, { id: ctx.id, keyId: key.id, amountNano: price.maxNano, upstreamIds })
    if (taken.kind === 'insufficient' && price.basis.input_tokens_bound === true) {
      price = await worst(request, model, ctx)
      taken = await takeHold(ctx, services, { id: ctx.id, keyId: key.id, amountNano: price.maxNano, upstreamIds })
    }
    const amountNano = price.maxNano
    if (taken.kind === 'insufficient') {
      throw taken.limit === 'upstream'
        ? upstreamRefusal(model, price, candidates, taken.availableNano, capField)
        : refusal(taken.limit, model, price, taken.availableNano, capField)
    }
    ctx.hold = placedHold(ctx.id, amountNano, store.holds.moveTo, (upstream, left) => upstreamRefusal(model, price, [upstream], left, capField), unlimitedHere(services, taken.unbudgeted))
  }
  JOINING_SLOT.add(funds)
  return funds
}

/** The funds steps that take a deferred concurrency slot with their hold (team mode: one round trip for both). */
const JOINING_SLOT = new WeakSet<object>()
export const joinsSlot = (funds: object): boolean => JOINING_SLOT.has(funds)

/**
 * Takes a request's hold; in team mode with its concurrency slot when that is not taken yet (one round trip,
 * team/lease-limiter.ts): a hold refused leaves the slot untaken, a full cap is the 429 before any hold.
 */
async function takeHold(ctx: RequestContext, services: Services, hold: HoldAsked): Promise<HoldTaken> {
  const slot = ctx.slot
  if (slot === undefined) return services.store.holds.take(hold)
  const { taken, release } = await slot.takeWithHold(hold)
  if (release !== undefined) {
    ctx.slot = undefined
    holdSlot(ctx, release)
  }
  return taken
}

/**
 * The accounts whose budget a hold need not be checked against nor counted in: one process's accounts without a
 * budget (its memory is the store's). In team mode the database decides, as another replica may have set one: the
 * accounts it had no budget for in the round trip that took the hold (`unbudgeted`); a budget set on one after that
 * finds the request under way, as a limit first set does (README "Budgets and reservations").
 */
const unlimitedHere = (services: Services, unbudgeted: readonly string[] = []) => (upstream: UpstreamAccount): boolean =>
  services.store.sql.dialect === 'sqlite' ? upstreamLeft(upstream) === null : unbudgeted.includes(upstream.id)

/**
 * Whether any limit applies to a request of `key` served by one of `candidates`. This process's figures answer at
 * once when they name a limit. In team mode, when they name none, the database decides, since a limit set through
 * another replica reaches this one's memory only at its next reload: the request's concurrency lease is taken (if
 * it was not yet) in a round trip that also says whether any limit is set at all (`limitsSeen`), so with none
 * anywhere nothing more is read; else one read says whether one applies to this request. One process's memory is the
 * store's: nothing is read.
 */
async function limitsApply(services: Services, ctx: RequestContext, candidates: readonly UpstreamAccount[]): Promise<boolean> {
  const { registry, store, limiter } = services
  const key = ctx.key!
  if (registry.account.budgetNano !== null || key.quotaNano !== null || candidates.some((u) => upstreamLeft(u) !== null)) return true
  if (store.sql.dialect !== 'postgres') return false
  // The slot's round trip says whether the database has any limit at all.
  await takeSlot(ctx)
  if (limiter.limitsSeen?.(ctx.id) === false) return false
  return store.holds.limitsApply(key.id, candidates.map((u) => u.id))
}

/**
 * A hold in the store (row `id`: a request's hold, or a video task's reservation), moved by `move` onto each upstream
 * account the request or task is sent to: the store checks that account's budget, as the database has it, less what
 * was spent through it and what others hold on it, and answers what is left when it cannot take the amount;
 * `refused` is then the 402, and failover skips the account (`skipped: budget`).
 */
export function placedHold(
  id: string, amountNano: number,
  move: (id: string, upstreamId: string, amountNano: number) => Promise<number | undefined>,
  refused: (upstream: UpstreamAccount, leftNano: number) => GatewayError,
  unlimited: (upstream: UpstreamAccount) => boolean = () => false,
): RequestHold {
  let on: string | null = null
  // The account the store has the hold on (null: none yet): an account with a budget counts it until it moves off.
  let stored: string | null = null
  const hold: RequestHold = {
    id,
    amountNano,
    async onUpstream(upstream) {
      if (upstream.id === on) return undefined
      // Onto an account without a budget, from none with one: nothing to check, and nothing the store must move.
      if (stored === null && unlimited(upstream)) {
        on = upstream.id
        return undefined
      }
      const left = await move(hold.id, upstream.id, amountNano)
      if (left !== undefined) return refused(upstream, left)
      on = stored = upstream.id
      return undefined
    },
  }
  return hold
}

/** A fallback model holds at its own price: the hold taken for the model that failed is given back first. */
export async function releaseHold(ctx: RequestContext, services: Services): Promise<void> {
  const { hold } = ctx
  if (hold === undefined) return
  ctx.hold = undefined
  await services.store.holds.release(hold.id)
}

/**
 * A task that takes the request over (an async image task) takes its hold too: the hold is the task's from now on
 * (it still moves with the task's failover), settled when the task ends (store/tasks.ts), not by the request's own
 * row, which answers 202.
 */
export async function handHoldTo(ctx: RequestContext, services: Services, taskId: string): Promise<void> {
  const { hold } = ctx
  if (hold === undefined) return
  await services.store.holds.rename(hold.id, taskId)
  hold.id = taskId
}
