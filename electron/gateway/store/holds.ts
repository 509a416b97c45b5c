import { accountBudget, fundsVerdict } from '../money/budget.js'
import { HeldHere, NONE_ELSEWHERE, type HeldElsewhere } from './held-here.js'
import { ownerGone, type LeaseOutcome, type LeaseRequest } from './pg-leases.js'
import { preparedCall } from './pg-sql.js'
import type { Sql, SqlNow, SqlParams } from './sql.js'

/**
 * Holds: the money a request under way may still cost (its worst case), kept out of the account's budget, its key's
 * quota and the budget of the upstream account it is on until its ledger row settles it (store/ledger.ts deletes the
 * hold in the transaction that charges the row). A video task's reservation is a hold too, under the task's id,
 * settled by the task's end (store/tasks.ts). A hold is a row owned by its process (`replica`): one that dies leaves
 * rows that the next start (one process) or the sweep of stopped replicas (team mode) releases, except a video task's,
 * which lives as long as its task (another process resumes the task). One process on SQLite keeps its requests' holds
 * in memory instead (store/held-here.ts): the funds check adds them to the rows' figures.
 *
 * The check's reads are written once, as steps (`Steps`), read inside a transaction (`readIn`) or at once (`readNow`,
 * for a hold in memory, whose check and placing nothing else may come between).
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

/** One read of a funds check: a statement whose first row the step is given back. */
interface Read {
  text: string
  params?: SqlParams
}
/** A funds check as the reads it makes, in order, and what it concludes from them. */
type Steps<T> = Generator<Read, T, unknown>

/** `steps` read inside transaction `tx`. */
async function readIn<T>(tx: Sql, steps: Steps<T>): Promise<T> {
  let step = steps.next()
  while (!step.done) step = steps.next(await tx.get(step.value.text, step.value.params))
  return step.value
}

/** `steps` read at once (inside `Sql.atomic`), each read from `rows` while it stands. */
function readNow<T>(now: SqlNow, rows: KeptRows, steps: Steps<T>): T {
  let step = steps.next()
  while (!step.done) step = steps.next(rows.get(now, step.value))
  return step.value
}

/**
 * One process on SQLite: the funds check's rows as last read, kept while the connection has changed nothing since
 * (`Sql.writeCount`), so the requests admitted between two ledger commits read the account's, the key's and the
 * upstream account's figures once rather than each.
 */
class KeptRows {
  readonly #rows = new Map<string, unknown>()
  #mark = -1
  constructor(private readonly writeCount?: () => number) {}

  get(now: SqlNow, read: Read): unknown {
    if (this.writeCount === undefined) return now.get(read.text, read.params)
    const mark = this.writeCount()
    if (mark !== this.#mark) {
      this.#rows.clear()
      this.#mark = mark
    }
    const key = `${read.text}\u0000${Array.isArray(read.params) ? read.params.join('\u0000') : JSON.stringify(read.params ?? null)}`
    if (this.#rows.has(key)) return this.#rows.get(key)
    const row = now.get(read.text, read.params)
    this.#rows.set(key, row)
    return row
  }
}

/**
 * What is left of an upstream account's budget (its row read locked when `forUpdate` says so, for a hold placed on
 * it): the budget less what was spent through it and the holds on it (requests' and video tasks', and those held in
 * memory, `elsewhere`), leaving out `exceptId`'s own; null when it has no budget.
 */
function* upstreamLeft(upstreamId: string, exceptId: string, forUpdate: string, elsewhere: HeldElsewhere): Steps<number | null> {
  const u = (yield { text: `SELECT budget_nano, spent_nano FROM upstreams WHERE id = ?${forUpdate}`, params: [upstreamId] }) as { budget_nano: number | null; spent_nano: number } | undefined
  if (u === undefined || u.budget_nano === null) return null
  const held = (yield { text: 'SELECT COALESCE(SUM(amount_nano), 0) AS n FROM holds WHERE upstream_id = ? AND id <> ?', params: [upstreamId, exceptId] }) as { n: number } | undefined
  return Number(u.budget_nano) - Number(u.spent_nano) - Number(held?.n ?? 0) - elsewhere.onUpstream(upstreamId, exceptId)
}

/**
 * Whether none of `upstreamIds` (the accounts that may serve a request) can take `amountNano`: the most left of their
 * budgets when every one has a budget and none has room, else undefined (an account without a budget always has
 * room). Read unlocked: the amount is placed on an account, its row locked, when the request is sent there.
 */
function* noUpstreamRoom(upstreamIds: readonly string[], exceptId: string, amountNano: number, elsewhere: HeldElsewhere): Steps<number | undefined> {
  let room: number | undefined
  for (const upstreamId of upstreamIds) {
    const left = yield* upstreamLeft(upstreamId, exceptId, '', elsewhere)
    if (left === null || left >= amountNano) return undefined
    room = Math.max(room ?? -Infinity, left)
  }
  return room
}

type Refusal = Extract<HoldTaken, { kind: 'insufficient' }>
export interface HoldAsked {
  id: string
  keyId: string
  amountNano: number
  upstreamIds: readonly string[]
}

/**
 * The one funds check of a hold or a video reservation: the account's budget less what was spent and what is
 * reserved (holds and video tasks, and the holds in memory, `elsewhere`), and the key's quota less its spend and
 * reservations, must each cover `amountNano`, and, when every one of `upstreamIds` (the accounts that may serve it)
 * has a budget, one of them must have room for it. Every limit is read from the database, not from a replica's memory.
 * The account row is read (and locked, `forUpdate`) first, so two processes check one after the other and never
 * spend the same money. Undefined: it fits.
 */
function* refusal(hold: HoldAsked, forUpdate: string, elsewhere: HeldElsewhere): Steps<Refusal | undefined> {
  const a = (yield { text: `SELECT budget_nano, balance_nano, reserved_nano FROM account WHERE id = 1${forUpdate}` }) as { budget_nano: number | null; balance_nano: number; reserved_nano: number }
  const k = (yield {
    // A key without a quota has no reservations to count against it: the sum of its holds is read only for one with.
    text: `SELECT k.quota_nano, k.used_nano, CASE WHEN k.quota_nano IS NULL THEN 0 ELSE ${keyReservedSql('k.id')} END AS reserved_nano
     FROM api_keys k WHERE k.id = ?${forUpdate}`,
    params: [hold.keyId],
  }) as { quota_nano: number | null; used_nano: number; reserved_nano: number } | undefined
  const verdict = fundsVerdict(
    accountBudget({ budgetNano: num(a.budget_nano), balanceNano: Number(a.balance_nano), reservedNano: Number(a.reserved_nano) + elsewhere.total() }),
    {
      budgetNano: num(k?.quota_nano ?? null),
      spentNano: Number(k?.used_nano ?? 0),
      reservedNano: k === undefined || k.quota_nano === null ? 0 : Number(k.reserved_nano) + elsewhere.ofKey(hold.keyId),
    },
    hold.amountNano,
  )
  if (!verdict.allowed) return { kind: 'insufficient', limit: verdict.limit, availableNano: verdict.availableNano }
  const room = yield* noUpstreamRoom(hold.upstreamIds, hold.id, hold.amountNano, elsewhere)
  return room === undefined ? undefined : { kind: 'insufficient', limit: 'upstream', availableNano: room }
}

/** The funds check (`refusal`) inside transaction `tx` (a video reservation's); `elsewhere`: the holds in memory. */
export const refusalIn = (tx: Sql, hold: HoldAsked, elsewhere: HeldElsewhere = NONE_ELSEWHERE): Promise<Refusal | undefined> =>
  readIn(tx, refusal(hold, tx.forUpdate, elsewhere))

/**
 * Moves hold `id` (a request's, or a video task's reservation) onto an upstream account
 * (null: onto none), inside `tx`. An account with a budget takes it only when its budget less what was spent through
 * it and what the others hold on it covers the amount; answers what is left of that budget when it does not (the row
 * stays where it was), undefined when moved.
 */
async function moveOnto(tx: Sql, id: string, upstreamId: string | null, amountNano: number, elsewhere: HeldElsewhere): Promise<number | undefined> {
  const left = upstreamId === null ? null : await readIn(tx, upstreamLeft(upstreamId, id, tx.forUpdate, elsewhere))
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

const TAKE_HOLD = preparedCall('SELECT refused, available_nano, unbudgeted FROM take_hold(?, ?, ?, ?, CAST(? AS TEXT[]), ?)')
const TAKE_LEASES_AND_HOLDS = preparedCall('SELECT n, lease, refused, available_nano, unbudgeted FROM take_leases_and_holds(CAST(? AS JSONB))')
const ADMIT_REQUEST = preparedCall('SELECT lease, refused, available_nano, unbudgeted FROM admit_request(?, ?, ?, ?, ?, ?, ?, CAST(? AS TEXT[]), ?)')
const MOVE_HOLD = preparedCall('SELECT move_hold(?, ?, ?) AS left_nano')

const placeholders = (n: number): string => Array.from({ length: n }, () => '?').join(', ')

/**
 * `take` on PostgreSQL: the same check and writes in one round trip (pg-schema.ts take_hold), so the account's and
 * the key's rows are locked for the length of one call in the server, not across the network; it also answers which
 * of the accounts that may serve the request had no budget then.
 */
async function takeInOneCall(sql: Sql, replica: string, hold: HoldAsked): Promise<HoldTaken> {
  const row = (await sql.get<{ refused: 'balance' | 'key' | 'upstream' | null; available_nano: number | null; unbudgeted: string[] | null }>(
    TAKE_HOLD,
    [hold.id, replica, hold.keyId, hold.amountNano, hold.upstreamIds, Date.now()],
  ))!
  if (row.refused !== null) return { kind: 'insufficient', limit: row.refused, availableNano: Number(row.available_nano) }
  return { kind: 'held', unbudgeted: row.unbudgeted ?? [] }
}

/** What team mode's admission answered: `taken` is absent when the lease was refused. */
export interface Admitted {
  lease: LeaseOutcome
  taken?: HoldTaken
}
type AdmittedRow = { n: number; lease: LeaseOutcome; refused: 'balance' | 'key' | 'upstream' | null; available_nano: number | null; unbudgeted: string[] | null }

/**
 * Team mode's admissions in one round trip (pg-schema.ts take_leases_and_holds; admit_request for one alone): for each
 * request in turn, its concurrency lease, then its hold; a hold refused gives the lease back in the same call. Answers
 * in the order asked.
 */
export async function takeLeasesAndHolds(sql: Sql, asked: ReadonlyArray<{ lease: LeaseRequest; hold: HoldAsked }>): Promise<Admitted[]> {
  const now = Date.now()
  if (asked.length === 1) {
    const { lease, hold } = asked[0]
    const row = await sql.get<Omit<AdmittedRow, 'n'>>(ADMIT_REQUEST, [
      lease.leaseId, lease.replica, lease.keyId, lease.keyCap, lease.accountCap, lease.ttlMs, hold.amountNano, hold.upstreamIds, now,
    ])
    return [admitted(row!)]
  }
  const requests = asked.map(({ lease, hold }, n) => ({
    n, id: lease.leaseId, replica: lease.replica, key_id: lease.keyId, key_cap: lease.keyCap, account_cap: lease.accountCap,
    ttl_ms: lease.ttlMs, amount: hold.amountNano, upstream_ids: hold.upstreamIds, created_at: now,
  }))
  const rows = await sql.all<AdmittedRow>(TAKE_LEASES_AND_HOLDS, [JSON.stringify(requests)])
  if (rows.length !== asked.length) throw new Error(`admission answered ${rows.length} of ${asked.length} requests`)
  return rows.sort((a, b) => a.n - b.n).map(admitted)
}

function admitted(row: Omit<AdmittedRow, 'n'>): Admitted {
  if (row.lease !== 'ok') return { lease: row.lease }
  if (row.refused !== null) return { lease: 'ok', taken: { kind: 'insufficient', limit: row.refused, availableNano: Number(row.available_nano) } }
  return { lease: 'ok', taken: { kind: 'held', unbudgeted: row.unbudgeted ?? [] } }
}

/** `moveTo` on PostgreSQL: `moveOnto` in one round trip (pg-schema.ts move_hold). */
async function moveInOneCall(sql: Sql, id: string, upstreamId: string | null, amountNano: number): Promise<number | undefined> {
  const row = (await sql.get<{ left_nano: number | null }>(MOVE_HOLD, [id, upstreamId, amountNano]))!
  return row.left_nano === null ? undefined : Number(row.left_nano)
}

/**
 * The holds, as rows, and (one process on SQLite: `here`) the requests' holds in memory. A hold in memory is taken,
 * moved and given back inside `Sql.atomic`: its check reads the rows' figures and adds the memory's, and places it
 * before anything else of the process runs, so two checks never count the same money; a transaction under way (a
 * video reservation, a ledger commit) is over before it. Its ledger row settles it once committed (store/ledger.ts):
 * until then both count, never neither.
 */
export function holdsRepo(sql: Sql, replica: string, here?: HeldHere) {
  const oneCall = sql.dialect === 'postgres'
  const elsewhere = here ?? NONE_ELSEWHERE
  const inMemory = (id: string): boolean => here?.has(id) === true && sql.atomic !== undefined
  const kept = new KeptRows(sql.writeCount)
  return {
    /**
     * Atomically: the funds check (`refusal`), then the hold is placed: in memory (one process on SQLite), else a row
     * written and the account's reservations raised by it.
     */
    take: (hold: HoldAsked): Promise<HoldTaken> => {
      if (oneCall) return takeInOneCall(sql, replica, hold)
      if (here !== undefined && sql.atomic !== undefined) {
        return sql.atomic((now): HoldTaken => {
          const refused = readNow(now, kept, refusal(hold, '', here))
          if (refused !== undefined) return refused
          here.add(hold.id, hold.keyId, hold.amountNano)
          return { kind: 'held' }
        })
      }
      return sql.transaction(async (tx): Promise<HoldTaken> => {
        const refused = await refusalIn(tx, hold, elsewhere)
        if (refused !== undefined) return refused
        await insertHoldIn(tx, replica, hold)
        return { kind: 'held' }
      })
    },
    /** Moves a hold onto an upstream account (null: onto none), if its budget has room (`moveOnto`). */
    moveTo: (id: string, upstreamId: string | null, amountNano: number): Promise<number | undefined> => {
      if (oneCall) return moveInOneCall(sql, id, upstreamId, amountNano)
      if (inMemory(id)) {
        return sql.atomic!((now) => {
          const left = upstreamId === null ? null : readNow(now, kept, upstreamLeft(upstreamId, id, '', elsewhere))
          if (left !== null && left < amountNano) return left
          here!.move(id, upstreamId)
          return undefined
        })
      }
      return sql.transaction((tx) => moveOnto(tx, id, upstreamId, amountNano, elsewhere))
    },
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
    /**
     * A hold passes to the task that took its request over: the task's end settles it (store/tasks.ts). A hold in
     * memory becomes a row (the task outlives the process), given up in memory once the row is stored.
     */
    rename: async (id: string, to: string): Promise<void> => {
      const held = here?.get(id)
      if (held === undefined) return void (await sql.run('UPDATE holds SET id = ? WHERE id = ?', [to, id]))
      await sql.transaction(async (tx) => {
        await insertHoldIn(tx, replica, { id: to, keyId: held.keyId, amountNano: held.amountNano })
        if (held.upstreamId !== null) await tx.run('UPDATE holds SET upstream_id = ? WHERE id = ?', [held.upstreamId, to])
      })
      here!.delete(id)
    },
    /** Gives a hold back without a ledger row (a fallback model holds again at its own price). */
    release: (id: string): Promise<number> =>
      here?.delete(id) === true ? Promise.resolve(1) : sql.transaction((tx) => releaseHoldsIn(tx, 'id = @id', { id })),
    /** One process, at start: every hold a previous run left (its requests are over) is released. */
    releaseAll: (): Promise<number> => sql.transaction((tx) => releaseHoldsIn(tx, NOT_A_VIDEO_UNDER_WAY, {})),
    /** Team mode's sweep: the holds of replicas not seen for `ttlMs` are released. */
    releaseOrphaned: (ttlMs: number): Promise<number> =>
      sql.transaction((tx) => releaseHoldsIn(tx, `${ownerGone('holds.replica')} AND ${NOT_A_VIDEO_UNDER_WAY}`, { ttlMs })),
    /** What each key has reserved (its requests' holds and its video tasks'), by key id: what /v1/usage and the admin API show. */
    reservedByKey: async (keyId?: string): Promise<Map<string, number>> => new Map((await sql.all<{ id: string; n: number }>(
      `SELECT k.id, ${keyReservedSql('k.id')} AS n FROM api_keys k WHERE (CAST(@id AS TEXT) IS NULL OR k.id = @id)`, { id: keyId ?? null },
    )).map((r) => [r.id, Number(r.n) + elsewhere.ofKey(r.id)])),
  }
}

const num = (value: number | null): number | null => (value === null ? null : Number(value))
