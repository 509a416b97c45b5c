import { accountBudget, fundsVerdict } from '../money/budget.js'
import { ownerGone } from './pg-leases.js'
import type { Sql } from './sql.js'

/**
 * Holds: the money a request under way may still cost (its worst case), kept out of the account's budget, its key's
 * quota and the budget of the upstream account it is on until its ledger row settles it (store/ledger.ts deletes the
 * hold in the transaction that charges the row). A hold is a row owned by its process (`replica`): one that dies
 * leaves rows that the next start (one process) or the sweep of stopped replicas (team mode) releases.
 */
export interface HoldRow {
  id: string
  replica: string
  key_id: string
  upstream_id: string | null
  amount_nano: number
  created_at: number
}

/** What `take` did: held the amount, or refused it (which limit, and how much was left of it). */
export type HoldTaken = { kind: 'held' } | { kind: 'insufficient'; limit: 'balance' | 'key'; availableNano: number }

/** What a key has reserved: its video tasks under way and its requests' holds (`column` names the key's id). */
export const keyReservedSql = (column: string): string =>
  `COALESCE((SELECT SUM(t.reserved_nano) FROM tasks t WHERE t.key_id = ${column} AND t.settled = 0), 0)
    + COALESCE((SELECT SUM(h.amount_nano) FROM holds h WHERE h.key_id = ${column}), 0)`

/** Deletes holds inside `tx` and gives their amounts back to the account; answers how many were deleted. */
export async function releaseHoldsIn(tx: Sql, where: string, params: Readonly<Record<string, unknown>>): Promise<number> {
  const gone = await tx.all<{ amount_nano: number }>(`DELETE FROM holds WHERE ${where} RETURNING amount_nano`, params)
  const total = gone.reduce((sum, row) => sum + Number(row.amount_nano), 0)
  if (total !== 0) await tx.run('UPDATE account SET reserved_nano = reserved_nano - ? WHERE id = 1', [total])
  return gone.length
}

export function holdsRepo(sql: Sql, replica: string) {
  return {
    /**
     * Atomically: the account's budget less what was spent and what is reserved (video tasks and holds), and the
     * key's quota less its spend and reservations, must each cover `amountNano`; then the hold is written and the
     * account's reservations raised by it. The account row is read (and locked) first, so two processes hold one
     * after the other and never spend the same money.
     */
    take: (hold: { id: string; keyId: string; amountNano: number }): Promise<HoldTaken> =>
      sql.transaction(async (tx): Promise<HoldTaken> => {
        const a = (await tx.get<{ budget_nano: number | null; balance_nano: number; reserved_nano: number }>(
          `SELECT budget_nano, balance_nano, reserved_nano FROM account WHERE id = 1${tx.forUpdate}`,
        ))!
        const k = await tx.get<{ quota_nano: number | null; used_nano: number; reserved_nano: number }>(
          `SELECT k.quota_nano, k.used_nano, ${keyReservedSql('k.id')} AS reserved_nano FROM api_keys k WHERE k.id = ?${tx.forUpdate}`,
          [hold.keyId],
        )
        const verdict = fundsVerdict(
          accountBudget({ budgetNano: num(a.budget_nano), balanceNano: Number(a.balance_nano), reservedNano: Number(a.reserved_nano) }),
          { budgetNano: num(k?.quota_nano ?? null), spentNano: Number(k?.used_nano ?? 0), reservedNano: Number(k?.reserved_nano ?? 0) },
          hold.amountNano,
        )
        if (!verdict.allowed) return { kind: 'insufficient', limit: verdict.limit, availableNano: verdict.availableNano }
        await tx.run('INSERT INTO holds (id, replica, key_id, upstream_id, amount_nano, created_at) VALUES (?, ?, ?, NULL, ?, ?)', [
          hold.id, replica, hold.keyId, hold.amountNano, Date.now(),
        ])
        await tx.run('UPDATE account SET reserved_nano = reserved_nano + ? WHERE id = 1', [hold.amountNano])
        return { kind: 'held' }
      }),
    /**
     * Moves a hold onto an upstream account (null: onto none). An account with a budget takes it only when its budget
     * less what was spent through it and the other holds on it covers the amount; answers what is left of that budget
     * when it does not (the hold stays where it was), undefined when moved.
     */
    moveTo: (id: string, upstreamId: string | null, amountNano: number): Promise<number | undefined> =>
      sql.transaction(async (tx) => {
        if (upstreamId !== null) {
          const u = await tx.get<{ budget_nano: number | null; spent_nano: number }>(`SELECT budget_nano, spent_nano FROM upstreams WHERE id = ?${tx.forUpdate}`, [upstreamId])
          if (u && u.budget_nano !== null) {
            const held = await tx.get<{ n: number }>('SELECT COALESCE(SUM(amount_nano), 0) AS n FROM holds WHERE upstream_id = ? AND id <> ?', [upstreamId, id])
            const left = Number(u.budget_nano) - Number(u.spent_nano) - Number(held?.n ?? 0)
            if (left < amountNano) return left
          }
        }
        await tx.run('UPDATE holds SET upstream_id = ? WHERE id = ?', [upstreamId, id])
        return undefined
      }),
    /** A hold passes to the task that took its request over: the task's end settles it (store/tasks.ts). */
    rename: async (id: string, to: string) => void (await sql.run('UPDATE holds SET id = ? WHERE id = ?', [to, id])),
    /** Gives a hold back without a ledger row (a fallback model holds again at its own price). */
    release: (id: string): Promise<number> => sql.transaction((tx) => releaseHoldsIn(tx, 'id = @id', { id })),
    /** One process, at start: every hold a previous run left (its requests are over) is released. */
    releaseAll: (): Promise<number> => sql.transaction((tx) => releaseHoldsIn(tx, '1 = 1', {})),
    /** Team mode's sweep: the holds of replicas not seen for `ttlMs` are released. */
    releaseOrphaned: (ttlMs: number): Promise<number> => sql.transaction((tx) => releaseHoldsIn(tx, ownerGone('holds.replica'), { ttlMs })),
    /** What each key has reserved (its requests' holds and its video tasks'), by key id: what /v1/usage and the admin API show. */
    reservedByKey: async (keyId?: string): Promise<Map<string, number>> => new Map((await sql.all<{ id: string; n: number }>(
      `SELECT k.id, ${keyReservedSql('k.id')} AS n FROM api_keys k WHERE (CAST(@id AS TEXT) IS NULL OR k.id = @id)`, { id: keyId ?? null },
    )).map((r) => [r.id, Number(r.n)])),
  }
}

const num = (value: number | null): number | null => (value === null ? null : Number(value))
