import { NONE_ELSEWHERE, type HeldElsewhere } from './held-here.js'
import type { Sql } from './sql.js'

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
export function accountRepo(sql: Sql, elsewhere: HeldElsewhere = NONE_ELSEWHERE) {
  return {
    /** The account; its reservations count the holds in this process's memory too (`elsewhere`, store/held-here.ts). */
    get: async (): Promise<AccountRow> => {
      const row = (await sql.get<AccountRow>('SELECT balance_nano, budget_nano, reserved_nano, concurrency, applied_balance_nano FROM account WHERE id = 1'))!
      const held = elsewhere.total()
      return held === 0 ? row : { ...row, reserved_nano: Number(row.reserved_nano) + held }
    },
    setConcurrency: async (n: number) => void (await sql.run('UPDATE account SET concurrency = ? WHERE id = 1', [n])),
    /**
     * The budget set in the app (null: none), from which spending counts anew; a config file's balance still applies
     * when that value changes.
     */
    setBudget: async (nano: number | null) => void (await sql.run('UPDATE account SET budget_nano = ?, balance_nano = ? WHERE id = 1', [nano, nano ?? 0])),
    /** Config balances are applied when they change, so a restart with the same config keeps what was spent. */
    applyConfigBalance: async (nano: number) =>
      void (await sql.run(
        // One statement, so two replicas starting with the same config apply it once.
        `UPDATE account SET budget_nano = @nano, balance_nano = @nano, applied_balance_nano = @nano
          WHERE id = 1 AND (applied_balance_nano IS NULL OR applied_balance_nano <> @nano)`,
        { nano },
      )),
  }
}
