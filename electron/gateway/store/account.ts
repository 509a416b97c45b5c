import type { Db } from './db.js'

export interface AccountRow {
  /** the budget less what was spent against it; with no budget, 0 less what was spent since it was cleared */
  balance_nano: number
  /** null: no budget, no spending limit */
  budget_nano: number | null
  reserved_nano: number
  concurrency: number
  applied_balance_nano: number | null
}

/** The single local account: budget and what is left of it, reservations and the account-wide concurrency cap. */
export function accountRepo(db: Db) {
  const get = db.prepare('SELECT balance_nano, budget_nano, reserved_nano, concurrency, applied_balance_nano FROM account WHERE id = 1')
  const setConcurrency = db.prepare('UPDATE account SET concurrency = ? WHERE id = 1')
  const setConfigBudget = db.prepare('UPDATE account SET budget_nano = ?, balance_nano = ?, applied_balance_nano = ? WHERE id = 1')
  const setBudget = db.prepare('UPDATE account SET budget_nano = ?, balance_nano = ? WHERE id = 1')
  return {
    get: () => get.get() as AccountRow,
    setConcurrency: (n: number) => void setConcurrency.run(n),
    /**
     * The budget set in the app (null: none), from which spending counts anew; a config file's balance still applies
     * when that value changes.
     */
    setBudget: (nano: number | null) => void setBudget.run(nano, nano ?? 0),
    /** Config balances are applied when they change, so a restart with the same config keeps what was spent. */
    applyConfigBalance(nano: number): void {
      if (this.get().applied_balance_nano !== nano) setConfigBudget.run(nano, nano, nano)
    },
  }
}
