import { budgetFigures } from '../money/budget.js'
import type { RequestContext } from '../context.js'
import { nanoToUsd } from '../money/money.js'
import { sendJson } from '../respond.js'
import type { Services } from '../services.js'

/** GET /v1/usage: the account's budget and balance, and the calling key's quota (Bearer only, spec §5 rule 3). */
export async function usage(ctx: RequestContext, { registry, limiter }: Services): Promise<void> {
  const key = ctx.key!
  const { account } = registry
  sendJson(ctx.res, 200, {
    object: 'usage',
    ...budgetFigures(account),
    reserved: nanoToUsd(account.reservedNano),
    currency: 'USD',
    concurrency: { limit: account.concurrency, in_flight: limiter.inFlight() },
    key: {
      name: key.name,
      group: key.groupId,
      quota: key.quotaNano === null ? null : nanoToUsd(key.quotaNano),
      used: nanoToUsd(key.usedNano),
      remaining: key.quotaNano === null ? null : nanoToUsd(key.quotaNano - key.usedNano),
      concurrency: key.concurrency,
      expires_at: key.expiresAt,
    },
  })
}
