import type { AccountSummary } from '../../../shared/admin.js'
import { accountPatch } from '../../../shared/schemas/admin.js'
import type { RequestContext } from '../context.js'
import { budgetFigures } from '../money/budget.js'
import { nanoToUsd, usdToNano } from '../money/money.js'
import { sendJson } from '../respond.js'
import type { Services } from '../services.js'
import { applyChange, bodyReader } from './admin-io.js'

const readPatch = bodyReader<{ budget?: number | null; balance?: number; concurrency?: number }>(accountPatch)

async function summary(services: Services): Promise<AccountSummary> {
  await services.store.ledger.flush()
  const a = await services.store.account.get()
  return {
    ...budgetFigures({ budgetNano: a.budget_nano, balanceNano: a.balance_nano, reservedNano: a.reserved_nano }),
    reserved: nanoToUsd(a.reserved_nano),
    concurrency: a.concurrency,
  }
}

/** GET /admin/v1/account: the budget and what was spent against it, what is held for work under way, the concurrency cap. */
export async function getAccount(ctx: RequestContext, services: Services): Promise<void> {
  sendJson(ctx.res, 200, await summary(services))
}

/** PATCH /admin/v1/account: set or clear (null) the budget (USD; `balance` is the older name) or the account-wide concurrency cap. */
export async function updateAccount(ctx: RequestContext, services: Services): Promise<void> {
  const patch = await readPatch(ctx)
  const budget = patch.budget !== undefined ? patch.budget : patch.balance
  await applyChange(services, async (tx) => {
    if (budget !== undefined) await tx.account.setBudget(budget === null ? null : usdToNano(budget))
    if (patch.concurrency !== undefined) await tx.account.setConcurrency(patch.concurrency)
  })
  sendJson(ctx.res, 200, await summary(services))
}
