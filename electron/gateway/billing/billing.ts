import { MAX_ATTEMPT_RECORDS, type UpstreamAttempt } from '../../../shared/admin.js'
import type { CatalogModel, UsageSource } from '../../../shared/types.js'
import type { RequestContext } from '../context.js'
import { chargeNano } from '../money/money.js'
import { allInputTokens } from '../money/billed-usage.js'
import { priceBreakdown, priceUsage } from '../money/price-usage.js'
import type { ApiKey } from '../contract/accounts.js'
import type { Registry } from '../registry.js'
import type { Store } from '../store/index.js'
import type { TokenUsage } from '../contract/upstream.js'

/** Cost in nano-USD of a request's usage at its model's list price (money/price-usage.ts prices it). */
export const costNano = (model: CatalogModel, usage: TokenUsage): number => priceUsage(model.pricing, usage)

/**
 * Queues the request's ledger row, which charges the account and key when it is committed (within the
 * same turn of the event loop), and mirrors the charge in memory at once so the next request sees it. The row
 * settles the request's hold: what it cost is charged, whatever was held (a usage over the hold, a vendor past
 * the cap, is billed as reported; the row keeps what was held), and the hold is released in the same transaction.
 */
export function recordRequest(store: Store, registry: Registry, ctx: RequestContext, endpoint: string, status: number): void {
  const { outcome, key } = ctx
  // A charge only ever lowers the balance and raises the key's spend.
  const cost = chargeNano(outcome.costNano)
  store.ledger.enqueue({
    id: ctx.id,
    key_id: key?.id ?? null,
    group_id: ctx.group?.id ?? null,
    // the model served; else the one named, when it was refused (unknown, retired, deprecated, not in the group)
    model: ctx.model?.id ?? ctx.requestedModel ?? null,
    endpoint,
    status: outcome.status ?? status,
    // an upstream's own code may be passed through: it is text from outside
    error_code: outcome.errorCode === undefined ? null : registry.redactor.redact(outcome.errorCode),
    upstream_id: outcome.upstreamId ?? null,
    input_tokens: outcome.usage ? allInputTokens(outcome.usage) : null,
    output_tokens: outcome.usage?.outputTokens ?? null,
    usage: outcome.usage?.raw === undefined ? null : JSON.stringify(outcome.usage.raw),
    ...usageRecord(ctx.model, outcome.usage),
    cost_nano: cost,
    // The request's hold is settled with this row (store/ledger.ts): released, and the row charged what it cost.
    // (A hold a task took over is the task's: its end settles it.)
    ...(ctx.hold !== undefined && ctx.hold.id === ctx.id ? { held: ctx.hold.amountNano } : {}),
    latency_ms: Math.round((performance.now() - ctx.startedAt) * 1000) / 1000,
    created_at: Date.now(),
    attempts: outcome.attempts === undefined ? null : attemptsJson(outcome.attempts),
  })
  ctx.hold = undefined
  if (cost > 0) chargeMirror(registry, key, outcome.upstreamId ?? null, cost)
}

/**
 * A usage's record in the ledger: where its figures came from (the upstream's report unless marked otherwise) and
 * its priced breakdown at the model's list price; none without a usage.
 */
export function usageRecord(model: CatalogModel | undefined, usage: TokenUsage | undefined): { usage_source: UsageSource | null; breakdown: string | null } {
  if (usage === undefined) return { usage_source: null, breakdown: null }
  return { usage_source: usage.source ?? 'upstream', breakdown: model === undefined ? null : JSON.stringify(priceBreakdown(model.pricing, usage)) }
}

/**
 * The attempts as the ledger keeps them: at most MAX_ATTEMPT_RECORDS (the first ones and the last, which served or
 * failed last).
 */
export function attemptsJson(attempts: readonly UpstreamAttempt[]): string {
  const kept = attempts.length <= MAX_ATTEMPT_RECORDS ? attempts : [...attempts.slice(0, MAX_ATTEMPT_RECORDS - 1), attempts.at(-1)!]
  return JSON.stringify(kept)
}

/** The in-memory mirror of a charge the store makes when the ledger row is written: account, key, upstream account. */
export function chargeMirror(registry: Registry, key: ApiKey | undefined, upstreamId: string | null, cost: number): void {
  registry.account.balanceNano -= cost
  if (key) key.usedNano += cost
  const upstream = upstreamId === null ? undefined : registry.upstreams.get(upstreamId)
  if (upstream) upstream.spentNano = (upstream.spentNano ?? 0) + cost
}
