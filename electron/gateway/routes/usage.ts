import { budgetFigures } from '../money/budget.js'
import type { RequestContext } from '../context.js'
import { nanoToUsd } from '../money/money.js'
import { sendJson } from '../respond.js'
import type { Services } from '../services.js'

/**
 * GET /v1/usage: the account's budget and balance, and the calling key's quota (Bearer only, spec §5 rule 3), as the
 * store holds them: what was spent, and what work under way holds (each request's worst case until its row settles
 * it, video tasks' reservations), so that budget = spent + reserved + available.
 */
export async function usage(ctx: RequestContext, { registry, store, limiter }: Services): Promise<void> {
  const key = ctx.key!
  const [account, reservedByKey, row, inFlight] = await registry.readBalances(() => Promise.all([
    store.account.get(), store.holds.reservedByKey(key.id), store.apiKeys.get(key.id),
    // team mode: every replica's requests (the live leases), not this replica's alone
    limiter.clusterInFlight?.() ?? limiter.inFlight(),
  ]))
  const reserved = reservedByKey.get(key.id) ?? 0
  const used = row?.used_nano ?? key.usedNano
  const figures = budgetFigures({ budgetNano: account.budget_nano, balanceNano: account.balance_nano, reservedNano: account.reserved_nano })
  sendJson(ctx.res, 200, {
    object: 'usage',
    ...figures,
    reserved: nanoToUsd(account.reserved_nano),
    currency: 'USD',
    concurrency: { limit: registry.account.concurrency, in_flight: inFlight },
    key: {
      name: key.name,
      group: key.groupId,
      quota: key.quotaNano === null ? null : nanoToUsd(key.quotaNano),
      used: nanoToUsd(used),
      remaining: key.quotaNano === null ? null : nanoToUsd(key.quotaNano - used),
      reserved: nanoToUsd(reserved),
      available: key.quotaNano === null ? null : nanoToUsd(key.quotaNano - used - reserved),
      concurrency: key.concurrency,
      expires_at: key.expiresAt,
    },
  })
}
