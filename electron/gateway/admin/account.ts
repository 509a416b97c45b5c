import type { AccountSummary } from '../../../shared/admin.js'
import { accountPatch } from '../../../shared/schemas/admin.js'
import type { RequestContext } from '../context.js'
import { nanoToUsd, usdToNano } from '../money.js'
import { sendJson } from '../respond.js'
import type { Services } from '../services.js'
import { applyChange, bodyReader } from './admin-io.js'

const readPatch = bodyReader<{ balance?: number; concurrency?: number }>(accountPatch)

function summary(services: Services): AccountSummary {
  services.store.ledger.flush()
  const a = services.store.account.get()
  return { balance: nanoToUsd(a.balance_nano), reserved: nanoToUsd(a.reserved_nano), concurrency: a.concurrency }
}

/** GET /admin/v1/account: balance, what is held for work under way, the concurrency cap. */
export async function getAccount(ctx: RequestContext, services: Services): Promise<void> {
  sendJson(ctx.res, 200, summary(services))
}

/** PATCH /admin/v1/account: set the balance (USD) or the account-wide concurrency cap. */
export async function updateAccount(ctx: RequestContext, services: Services): Promise<void> {
  const patch = await readPatch(ctx)
  applyChange(services, () => {
    if (patch.balance !== undefined) services.store.account.setBalance(usdToNano(patch.balance))
    if (patch.concurrency !== undefined) services.store.account.setConcurrency(patch.concurrency)
  })
  sendJson(ctx.res, 200, summary(services))
}
