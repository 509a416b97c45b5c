import { nanoToUsd } from './money.js'

/**
 * The spending rules (issue 14): a local budget the user may set for the account and per key. No budget (null)
 * means no limit: nothing is refused for money until one is set. With a budget, what is left is the budget less
 * what was spent against it and what async tasks hold.
 */
export interface Budget {
  /** nano-USD; null: no budget, no limit */
  budgetNano: number | null
  /** nano-USD spent against the budget */
  spentNano: number
  /** nano-USD held for work under way (video reservations, requests' holds) */
  reservedNano: number
}

export type FundsVerdict =
  | { allowed: true }
  | { allowed: false; limit: 'balance' | 'key'; availableNano: number }

const ALLOWED: FundsVerdict = { allowed: true }

/** What is left of a budget, or null when there is none. */
export const remainingNano = (b: Budget): number | null => (b.budgetNano === null ? null : b.budgetNano - b.spentNano - b.reservedNano)

/**
 * Whether `amountNano` may be reserved now (a request's worst case, a video's largest possible cost): what is left
 * of each budget must cover it whole, so spending never goes past a budget. The account is checked first, then the key.
 */
export function fundsVerdict(account: Budget, key: Budget, amountNano: number): FundsVerdict {
  const check = (b: Budget, limit: 'balance' | 'key'): FundsVerdict => {
    const left = remainingNano(b)
    return left === null || left >= amountNano ? ALLOWED : { allowed: false, limit, availableNano: left }
  }
  const verdict = check(account, 'balance')
  return verdict.allowed ? check(key, 'key') : verdict
}

/** The account's figures as the budget rules read them (balance: the budget less what was spent against it, store/account.ts). */
export const accountBudget = (a: { budgetNano: number | null; balanceNano: number; reservedNano: number }): Budget => ({
  budgetNano: a.budgetNano,
  spentNano: (a.budgetNano ?? 0) - a.balanceNano,
  reservedNano: a.reservedNano,
})

/** The account's budget figures, as the admin API and /v1/usage show them. */
export function budgetFigures(account: { budgetNano: number | null; balanceNano: number; reservedNano: number }) {
  const { spentNano } = accountBudget(account)
  const remaining = account.budgetNano === null ? null : nanoToUsd(account.balanceNano)
  return {
    budget: account.budgetNano === null ? null : nanoToUsd(account.budgetNano),
    spent: nanoToUsd(spentNano),
    remaining,
    balance: remaining ?? 0,
    // What a new request may still hold: the budget less what was spent and what is held.
    available: account.budgetNano === null ? null : nanoToUsd(account.balanceNano - account.reservedNano),
  }
}


/** An upstream account whose spending cap is reached: failover skips it. */
export const upstreamCapReached = (u: { budgetNano?: number | null; spentNano?: number }): boolean => {
  const left = remainingNano({ budgetNano: u.budgetNano ?? null, spentNano: u.spentNano ?? 0, reservedNano: 0 })
  return left !== null && left <= 0
}
