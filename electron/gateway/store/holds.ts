import { accountBudget, fundsVerdict } from '../money/budget.js'
import { ownerGone } from './pg-leases.js'
import type { Sql } from './sql.js'

/**
 * Holds: the money a request under way may still cost (its worst case), kept out of the account's budget, its key's
 * quota and the budget of the upstream account it is on until its ledger row settles it (store/ledger.ts deletes the
 * hold in the transaction that charges the row). A video task's reservation is a hold too, under the task's id,
 * settled by the task's end (store/tasks.ts). A hold is a row owned by its process (`replica`): one that dies leaves
 * rows that the next start (one process) or the sweep of stopped replicas (team mode) releases, except a video task's,
 * which lives as long as its task (another process resumes the task).
 */
export interface HoldRow {
  id: string
  replica: string
  key_id: string
  upstream_id: string | null
  amount_nano: number
  created_at: number
}

/**
 * What `take` did: held the amount, or refused it (which limit, and how much was left of it: for `upstream`, the most
 * left of any candidate account's budget).
 */
export type HoldTaken =
  /** `unbudgeted` (PostgreSQL): the accounts that may serve it with no budget in the database as the hold was taken */
  | { kind: 'held'; unbudgeted?: readonly string[] }
  | { kind: 'insufficient'; limit: 'balance' | 'key' | 'upstream'; availableNano: number }

/** What a key has reserved: its holds, its requests' and its video tasks' (`column` names the key's id). */
export const keyReservedSql = (column: string): string =>
  `COALESCE((SELECT SUM(h.amount_nano) FROM holds h WHERE h.key_id = ${column}), 0)`

/** The holds of video tasks under way: they outlive the process that took them (the task is resumed). */
const NOT_A_VIDEO_UNDER_WAY = "id NOT IN (SELECT id FROM tasks WHERE kind = 'video' AND settled = 0)"

/** Deletes holds inside `tx` and gives their amounts back to the account; answers how many were deleted. */
export async function releaseHoldsIn(tx: Sql, where: string, params: Readonly<Record<string, unknown>>): Promise<number> {
  const gone = await tx.all<{ amount_nano: number }>(`DELETE FROM holds WHERE ${where} RETURNING amount_nano`, params)
  const total = gone.reduce((sum, row) => sum + Number(row.amount_nano), 0)
  if (total !== 0) await tx.run('UPDATE account SET reserved_nano = reserved_nano - ? WHERE id = 1', [total])
  return gone.length
}

/**
 * What is left of an upstream account's budget as the database has it, inside `tx` (the account's row read locked
 * when `lock`, for a hold placed on it):
 * the budget less what was spent through it and the holds on it (requests' and video tasks'), leaving out
 * `exceptId`'s own; null when it has no budget.
 */
export async function upstreamLeftIn(tx: Sql, upstreamId: string, exceptId: string, lock = true): Promise<number | null> {
  const u = await tx.get<{ budget_nano: number | null; spent_nano: number }>(`SELECT budget_nano, spent_nano FROM upstreams WHERE id = ?${lock ? tx.forUpdate : ''}`, [upstreamId])
  if (u === undefined || u.budget_nano === null) return null
  const held = await tx.get<{ n: number }>(
    'SELECT COALESCE(SUM(amount_nano), 0) AS n FROM holds WHERE upstream_id = ? AND id <> ?',
    [upstreamId, exceptId],
  )
  return Number(u.budget_nano) - Number(u.spent_nano) - Number(held?.n ?? 0)
}

/**
 * Whether none of `upstreamIds` (the accounts that may serve a request) can take `amountNano`: the most left of their
 * budgets when every one has a budget and none has room, else undefined (an account without a budget always has
 * room). Read unlocked: the amount is placed on an account, its row locked, when the request is sent there.
 */
export async function noUpstreamRoom(tx: Sql, upstreamIds: readonly string[], exceptId: string, amountNano: number): Promise<number | undefined> {
  let room: number | undefined
  for (const upstreamId of upstreamIds) {
    const left = await upstreamLeftIn(tx, upstreamId, exceptId, false)
    if (left === null || left >= amountNano) return undefined
    room = Math.max(room ?? -Infinity, left)
  }
  return room
}

/**
 * The one funds check of a hold or a video reservation, inside `tx`: the account's budget less what was spent and
 * what is reserved (holds and video tasks), and the key's quota less its spend and reservations, must each cover
 * `amountNano`, and, when every one of `upstreamIds` (the accounts that may serve it) has a budget, one of them must
 * have room for it. Every limit is read from the database, not from a replica's memory. The account row is read (and
 * locked) first, so two processes check one after the other and never spend the same money. Undefined: it fits.
 */
export async function refusalIn(tx: Sql, hold: { id: string; keyId: string; amountNano: number; upstreamIds: readonly string[] }): Promise<Extract<HoldTaken, { kind: 'insufficient' }> | undefined> {
  const a = (await tx.get<{ budget_nano: number | null; balance_nano: number; reserved_nano: number }>(
    `SELECT budget_nano, balance_nano, reserved_nano FROM account WHERE id = 1${tx.forUpdate}`,
  ))!
  const k = await tx.get<{ quota_nano: number | null; used_nano: number; reserved_nano: number }>(
    // A key without a quota has no reservations to count against it: the sum of its holds is read only for one with.
    `SELECT k.quota_nano, k.used_nano, CASE WHEN k.quota_nano IS NULL THEN 0 ELSE ${keyReservedSql('k.id')} END AS reserved_nano
     FROM api_keys k WHERE k.id = ?${tx.forUpdate}`,
    [hold.keyId],
  )
  const verdict = fundsVerdict(
    accountBudget({ budgetNano: num(a.budget_nano), balanceNano: Number(a.balance_nano), reservedNano: Number(a.reserved_nano) }),
    { budgetNano: num(k?.quota_nano ?? null), spentNano: Number(k?.used_nano ?? 0), reservedNano: Number(k?.reserved_nano ?? 0) },
    hold.amountNano,
  )
  if (!verdict.allowed) return { kind: 'insufficient', limit: verdict.limit, availableNano: verdict.availableNano }
  const room = await noUpstreamRoom(tx, hold.upstreamIds, hold.id, hold.amountNano)
  return room === undefined ? undefined : { kind: 'insufficient', limit: 'upstream', availableNano: room }
}

/**
 * Moves hold `id` (a request's, or a video task's reservation) onto an upstream account
 * (null: onto none), inside `tx`. An account with a budget takes it only when its budget less what was spent through
 * it and what the others hold on it covers the amount; answers what is left of that budget when it does not (the row
 * stays where it was), undefined when moved.
 */
async function moveOnto(tx: Sql, id: string, upstreamId: string | null, amountNano: number): Promise<number | undefined> {
  const left = upstreamId === null ? null : await upstreamLeftIn(tx, upstreamId, id)
  if (left !== null && left < amountNano) return left
  await tx.run('UPDATE holds SET upstream_id = ? WHERE id = ?', [upstreamId, id])
  return undefined
}

/** Writes a hold inside `tx` (after `refusalIn` said it fits) and raises the account's reservations by it. */
export async function insertHoldIn(tx: Sql, replica: string, hold: { id: string; keyId: string; amountNano: number }): Promise<void> {
  await tx.run('INSERT INTO holds (id, replica, key_id, upstream_id, amount_nano, created_at) VALUES (?, ?, ?, NULL, ?, ?)', [
    hold.id, replica, hold.keyId, hold.amountNano, Date.now(),
  ])
  await tx.run('UPDATE account SET reserved_nano = reserved_nano + ? WHERE id = 1', [hold.amountNano])
}

const placeholders = (n: number): string => Array.from({ length: n }, () => '?').join(', ')

/**
 * `take` on PostgreSQL: the same check and writes in one round trip (pg-schema.ts take_hold), so the account's and
 * the key's rows are locked for the length of one call in the server, not across the network; it also answers which
 * of the accounts that may serve the request had no budget then.
 */
async function takeInOneCall(sql: Sql, replica: string, hold: { id: string; keyId: string; amountNano: number; upstreamIds: readonly string[] }): Promise<HoldTaken> {
  const row = (await sql.get<{ refused: 'balance' | 'key' | 'upstream' | null; available_nano: number | null; unbudgeted: string[] | null }>(
    'SELECT refused, available_nano, unbudgeted FROM take_hold(?, ?, ?, ?, CAST(? AS TEXT[]), ?)',
    [hold.id, replica, hold.keyId, hold.amountNano, hold.upstreamIds, Date.now()],
  ))!
  if (row.refused !== null) return { kind: 'insufficient', limit: row.refused, availableNano: Number(row.available_nano) }
  return { kind: 'held', unbudgeted: row.unbudgeted ?? [] }
}

/** `moveTo` on PostgreSQL: `moveOnto` in one round trip (pg-schema.ts move_hold). */
async function moveInOneCall(sql: Sql, id: string, upstreamId: string | null, amountNano: number): Promise<number | undefined> {
  const row = (await sql.get<{ left_nano: number | null }>('SELECT move_hold(?, ?, ?) AS left_nano', [id, upstreamId, amountNano]))!
  return row.left_nano === null ? undefined : Number(row.left_nano)
}

export function holdsRepo(sql: Sql, replica: string) {
  const oneCall = sql.dialect === 'postgres'
  return {
    /**
     * Atomically: the funds check (`refusalIn`), then the hold is written and the account's reservations raised by it.
     * Deferred, as its moves and release are: a request's hold dies with its process (the next start releases it).
     */
    take: (hold: { id: string; keyId: string; amountNano: number; upstreamIds: readonly string[] }): Promise<HoldTaken> =>
      oneCall
        ? takeInOneCall(sql, replica, hold)
        : sql.deferredTransaction(async (tx): Promise<HoldTaken> => {
          const refused = await refusalIn(tx, hold)
          if (refused !== undefined) return refused
          await insertHoldIn(tx, replica, hold)
          return { kind: 'held' }
        }),
    /** Moves a hold onto an upstream account (null: onto none), if its budget has room (`moveOnto`). */
    moveTo: (id: string, upstreamId: string | null, amountNano: number): Promise<number | undefined> =>
      oneCall ? moveInOneCall(sql, id, upstreamId, amountNano) : sql.deferredTransaction((tx) => moveOnto(tx, id, upstreamId, amountNano)),
    /**
     * Whether the database has a limit for a request of `keyId` served by one of `upstreamIds`: the account's budget,
     * the key's quota or an account's budget. One read, for a replica whose memory says none (team mode: a limit
     * another replica set is in the database before this replica's next reload).
     */
    limitsApply: async (keyId: string, upstreamIds: readonly string[]): Promise<boolean> => {
      const row = await sql.get<{ n: number }>(
        `SELECT (SELECT COUNT(*) FROM account WHERE id = 1 AND budget_nano IS NOT NULL)
          + (SELECT COUNT(*) FROM api_keys WHERE id = ? AND quota_nano IS NOT NULL)
          + (SELECT COUNT(*) FROM upstreams WHERE budget_nano IS NOT NULL AND id IN (${upstreamIds.length === 0 ? 'NULL' : placeholders(upstreamIds.length)})) AS n`,
        [keyId, ...upstreamIds],
      )
      return Number(row?.n ?? 0) > 0
    },
    /** A hold passes to the task that took its request over: the task's end settles it (store/tasks.ts). */
    rename: async (id: string, to: string) => void (await sql.run('UPDATE holds SET id = ? WHERE id = ?', [to, id])),
    /** Gives a hold back without a ledger row (a fallback model holds again at its own price). */
    release: (id: string): Promise<number> => sql.deferredTransaction((tx) => releaseHoldsIn(tx, 'id = @id', { id })),
    /** One process, at start: every hold a previous run left (its requests are over) is released. */
    releaseAll: (): Promise<number> => sql.transaction((tx) => releaseHoldsIn(tx, NOT_A_VIDEO_UNDER_WAY, {})),
    /** Team mode's sweep: the holds of replicas not seen for `ttlMs` are released. */
    releaseOrphaned: (ttlMs: number): Promise<number> =>
      sql.transaction((tx) => releaseHoldsIn(tx, `${ownerGone('holds.replica')} AND ${NOT_A_VIDEO_UNDER_WAY}`, { ttlMs })),
    /** What each key has reserved (its requests' holds and its video tasks'), by key id: what /v1/usage and the admin API show. */
    reservedByKey: async (keyId?: string): Promise<Map<string, number>> => new Map((await sql.all<{ id: string; n: number }>(
      `SELECT k.id, ${keyReservedSql('k.id')} AS n FROM api_keys k WHERE (CAST(@id AS TEXT) IS NULL OR k.id = @id)`, { id: keyId ?? null },
    )).map((r) => [r.id, Number(r.n)])),
  }
}

const num = (value: number | null): number | null => (value === null ? null : Number(value))
