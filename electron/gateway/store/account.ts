import type { Db } from './db.js'

export interface AccountRow {
  balance_nano: number
  reserved_nano: number
  concurrency: number
  applied_balance_nano: number | null
}

/** The single local account: balance, reservations and the account-wide concurrency cap. */
export function accountRepo(db: Db) {
  const get = db.prepare('SELECT balance_nano, reserved_nano, concurrency, applied_balance_nano FROM account WHERE id = 1')
  const setConcurrency = db.prepare('UPDATE account SET concurrency = ? WHERE id = 1')
  const setBalance = db.prepare('UPDATE account SET balance_nano = ?, applied_balance_nano = ? WHERE id = 1')
  const setOwnBalance = db.prepare('UPDATE account SET balance_nano = ? WHERE id = 1')
  return {
    get: () => get.get() as AccountRow,
    setConcurrency: (n: number) => void setConcurrency.run(n),
    /** The balance set in the app; a config file's balance still applies when that value changes. */
    setBalance: (nano: number) => void setOwnBalance.run(nano),
    /** Config balances are applied when they change, so a restart with the same config keeps what was spent. */
    applyConfigBalance(nano: number): void {
      if (this.get().applied_balance_nano !== nano) setBalance.run(nano, nano)
    },
  }
}
