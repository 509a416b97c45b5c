import { chargeNano } from '../money/money.js'
import type { HeldHere } from './held-here.js'
import { releaseHoldsIn } from './holds.js'
import { ownerGone } from './pg-leases.js'
import { preparedCall } from './pg-sql.js'
import type { Sql } from './sql.js'

/** One row per request (spec §1 billing; issue: request id, key, model, endpoint, status, usage, cost, latency). */
export interface LedgerEntry {
  id: string
  key_id: string | null
  group_id: string | null
  model: string | null
  endpoint: string
  status: number
  error_code: string | null
  upstream_id: string | null
  input_tokens: number | null
  output_tokens: number | null
  usage: string | null
  cost_nano: number
  /**
   * nano-USD held for the request while it ran (store/holds.ts): its hold is deleted, and the account's reservations
   * lowered by it, in the transaction that writes the row; absent: nothing was held
   */
  held?: number
  latency_ms: number
  created_at: number
  /** the failover loop's attempts, JSON (shared/admin.ts UpstreamAttempt[]); null or absent: none made */
  attempts?: string | null
  /** where the usage figures came from (shared/types.ts UsageSource); null or absent: no usage */
  usage_source?: string | null
  /** the priced breakdown, JSON (shared/types.ts PricedComponent[]); null or absent: none priced */
  breakdown?: string | null
}

/** A ledger row, once: a repeated request id (or task id) inserts nothing. Values in `ledgerRowValues` order. */
export const INSERT_LEDGER_ROW = `
  INSERT INTO requests (id, key_id, group_id, model, endpoint, status, error_code, upstream_id,
    input_tokens, output_tokens, usage, cost_nano, latency_ms, created_at, attempts, usage_source, breakdown, reserved_nano)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`

/** A row's values for INSERT_LEDGER_ROW, charged `cost`: bound by position, which SQLite binds faster than by name. */
export const ledgerRowValues = (e: LedgerEntry, cost: number) => [
  e.id, e.key_id, e.group_id, e.model, e.endpoint, e.status, e.error_code, e.upstream_id,
  e.input_tokens, e.output_tokens, e.usage, cost, e.latency_ms, e.created_at, e.attempts ?? null,
  e.usage_source ?? null, e.breakdown ?? null, e.held ?? null,
]

/**
 * A stream under way, as it would be billed if the process died now (spec §1: the prompt and the output
 * already produced, as far as the last checkpoint counted it).
 */
export interface PendingEntry {
  id: string
  key_id: string | null
  group_id: string | null
  model: string | null
  endpoint: string
  upstream_id: string | null
  input_tokens: number
  output_tokens: number
  usage: string | null
  cost_nano: number
  /** wall-clock milliseconds: when the request arrived, and when the last checkpoint was taken */
  started_at: number
  checkpointed_at: number
  /** the checkpoint's priced breakdown, JSON (as LedgerEntry's); null or absent: none yet */
  breakdown?: string | null
}

export type Checkpoint = Pick<PendingEntry, 'upstream_id' | 'input_tokens' | 'output_tokens' | 'usage' | 'cost_nano' | 'checkpointed_at' | 'breakdown'>

/** The ledger's error code for a stream whose process died: recorded at 499, billed for what was checkpointed. */
export const INTERRUPTED_BY_RESTART = 'interrupted_by_restart'

const UPSERT_PENDING = `
  INSERT INTO pending_requests (id, key_id, group_id, model, endpoint, upstream_id, input_tokens, output_tokens, usage,
    cost_nano, started_at, checkpointed_at, replica, breakdown)
  VALUES (@id, @key_id, @group_id, @model, @endpoint, @upstream_id, @input_tokens, @output_tokens, @usage,
    @cost_nano, @started_at, @checkpointed_at, @replica, @breakdown)
  ON CONFLICT (id) DO UPDATE SET upstream_id = excluded.upstream_id, input_tokens = excluded.input_tokens,
    output_tokens = excluded.output_tokens, usage = excluded.usage, cost_nano = excluded.cost_nano,
    checkpointed_at = excluded.checkpointed_at, breakdown = excluded.breakdown`

/** The final row of a stream that a dead process left pending. */
const interruptedRow = (p: PendingEntry): LedgerEntry => ({
  id: p.id, key_id: p.key_id, group_id: p.group_id, model: p.model, endpoint: p.endpoint, status: 499,
  error_code: INTERRUPTED_BY_RESTART, upstream_id: p.upstream_id, input_tokens: p.input_tokens, output_tokens: p.output_tokens,
  usage: p.usage, cost_nano: p.cost_nano, latency_ms: p.checkpointed_at - p.started_at, created_at: p.checkpointed_at,
  // The checkpoint's output was counted by the gateway as it went (relay/checkpoint.ts).
  usage_source: 'local_count', breakdown: p.breakdown ?? null,
})

/** Charges queued and not yet committed: to the account, and by key and by upstream account. */
export interface UncommittedCharges {
  account: number
  keys: Map<string, number>
  upstreams: Map<string, number>
}

/** Rows wait at most this long for their commit, so a crash can lose only the last few milliseconds. */
export const GROUP_COMMIT_MS = 10
const GROUP_COMMIT_ROWS = 256

const WRITE_LEDGER = preparedCall('SELECT write_ledger(CAST(? AS JSONB), CAST(? AS JSONB), CAST(? AS TEXT[]), ?, CAST(? AS TEXT[]))')

/**
 * Writes ledger rows and charges the account and keys. Rows are committed in groups, one transaction per
 * GROUP_COMMIT_MS or GROUP_COMMIT_ROWS (one WAL append instead of one per request), with the charges of a
 * group summed into one update per key. Queuing is synchronous (the request path never waits on the store);
 * commits run one at a time, and every read flushes first.
 *
 * Streams also have a pending row (pending_requests) from their first byte on, rewritten at each checkpoint
 * in the same group commits. A pending row charges nothing: the final row replaces it in one transaction and
 * charges once; a pending row left by a dead process is settled by `settleInterrupted` at the next start.
 */
export function ledgerRepo(sql: Sql, log: (line: string) => void, replica: string | null = null, here?: HeldHere) {
  /**
   * A request id is recorded once: a repeated id charges nothing, so nothing is ever billed twice. A cost that is not
   * a non-negative safe integer is recorded as 0: a row never raises the balance or lowers a key's spend.
   */
  const writeAll = async (tx: Sql, entries: LedgerEntry[], checkpoints: PendingEntry[], replaced: string[]): Promise<void> => {
    for (const row of checkpoints) await tx.run(UPSERT_PENDING, { ...row, breakdown: row.breakdown ?? null, replica })
    let accountTotal = 0
    const keyTotals = new Map<string, number>()
    for (const entry of entries) {
      const cost = chargeNano(entry.cost_nano)
      const inserted = (await tx.run(INSERT_LEDGER_ROW, ledgerRowValues(entry, cost))).changes !== 0
      // Settled with its charge: no moment where the hold is gone and the charge not yet counted. (The row keeps
      // what was held: INSERT_LEDGER_ROW writes it.) A hold in memory is given up once the commit is done (`commit`).
      if (entry.held !== undefined && here?.has(entry.id) !== true) await releaseHoldsIn(tx, 'id = @id', { id: entry.id })
      if (!inserted || cost === 0) continue
      accountTotal += cost
      if (entry.key_id !== null) keyTotals.set(entry.key_id, (keyTotals.get(entry.key_id) ?? 0) + cost)
    }
    if (accountTotal > 0) await tx.run('UPDATE account SET balance_nano = balance_nano - ? WHERE id = 1', [accountTotal])
    for (const [keyId, total] of keyTotals) await tx.run('UPDATE api_keys SET used_nano = used_nano + ? WHERE id = ?', [total, keyId])
    for (const id of replaced) await tx.run('DELETE FROM pending_requests WHERE id = ?', [id])
  }

  /**
   * `writeAll` in one round trip, on PostgreSQL (pg-schema.ts write_ledger: the same steps in the server), so a group
   * commit holds the account's and keys' rows for the length of one call, not across the network. Costs are charged
   * here, as `writeAll` charges them.
   */
  const writeInOneCall = async (entries: LedgerEntry[], checkpoints: PendingEntry[], replaced: string[], leases: string[]): Promise<void> => {
    const rows = entries.map((e) => ({ ...e, cost_nano: chargeNano(e.cost_nano), held: e.held ?? null }))
    const stored = checkpoints.map((c) => ({ ...c, breakdown: c.breakdown ?? null }))
    await sql.run(WRITE_LEDGER, [
      JSON.stringify(rows), JSON.stringify(stored), replaced, replica, leases,
    ])
  }
  /** One group commit; the leases given back with it exist only on PostgreSQL (team mode). */
  const commitBatch = (entries: LedgerEntry[], checkpoints: PendingEntry[], replaced: string[], leases: string[]): Promise<void> =>
    sql.dialect === 'postgres' ? writeInOneCall(entries, checkpoints, replaced, leases) : sql.transaction((tx) => writeAll(tx, entries, checkpoints, replaced))

  /** The pending rows `select` picks become final rows, billed once, in one transaction. */
  const settle = (select: (tx: Sql) => Promise<PendingEntry[]>): Promise<number> =>
    sql.transaction(async (tx) => {
      const rows = await select(tx)
      await writeAll(tx, rows.map(interruptedRow), [], rows.map((r) => r.id))
      return rows.length
    })

  let pending: LedgerEntry[] = []
  // The rows of the commit under way.
  let committing: LedgerEntry[] = []
  /** A row that charges more than its request held (usage past the hold, or nothing held): the store's figures lag it. */
  const pastHold = (e: LedgerEntry): boolean => chargeNano(e.cost_nano) > (e.held ?? 0)
  // Streams under way: their pending row, whether a commit took it (so it may be stored), and which ones changed
  // since the last commit.
  const streams = new Map<string, { row: PendingEntry; stored: boolean }>()
  let changed = new Set<string>()
  // Pending rows that may be stored whose final row is queued: deleted in the final row's transaction.
  let replaced: string[] = []
  // Team mode: concurrency leases of requests that ended, given back by the next commit.
  let leases: string[] = []
  let timer: NodeJS.Timeout | undefined
  let closed = false

  /** One group commit of everything queued; on failure the rows go back to the front of the queue. */
  const commit = async (): Promise<void> => {
    if ((pending.length === 0 && changed.size === 0 && leases.length === 0) || closed) return
    const batch = pending
    committing = batch
    const rows = [...changed].map((id) => streams.get(id)!)
    const deletions = replaced
    const released = leases
    pending = []
    changed = new Set()
    replaced = []
    leases = []
    // Marked before the commit ends: a final row queued meanwhile deletes the pending row (a no-op if it never landed).
    for (const s of rows) s.stored = true
    try {
      await commitBatch(batch, rows.map((s) => s.row), deletions, released)
      committing = []
      // The charges are stored: the holds they settle, kept in memory, go (until now both counted, never neither).
      if (here !== undefined) for (const entry of batch) if (entry.held !== undefined) here.delete(entry.id)
    } catch (err) {
      committing = []
      // Kept for the next commit (a busy or full disk passes): the charges are already in memory.
      pending = batch.concat(pending)
      for (const s of rows) if (streams.get(s.row.id) === s) changed.add(s.row.id)
      replaced = deletions.concat(replaced)
      leases = released.concat(leases)
      throw err
    }
  }
  // Commits run one at a time: `tail` is the last one's end; `waiting`, a flush not yet started (later calls share it).
  let tail: Promise<void> = Promise.resolve()
  let waiting: Promise<void> | undefined
  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer)
    timer = undefined
    if (waiting) return waiting
    const run = tail.then(() => {
      waiting = undefined
      return commit()
    })
    waiting = run
    tail = run.catch(() => {})
    return run
  }
  /** Runs `work` in the commits' turn: no commit is under way or starts until it ends. */
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const run = tail.then(work)
    tail = run.then(() => {}, () => {})
    return run
  }
  /** The charges of the rows queued and not committed (those of a repeated id count too: memory charged them). */
  const uncommitted = (): UncommittedCharges => {
    const charges: UncommittedCharges = { account: 0, keys: new Map(), upstreams: new Map() }
    for (const entry of pending) {
      const cost = chargeNano(entry.cost_nano)
      if (cost === 0) continue
      charges.account += cost
      if (entry.key_id !== null) charges.keys.set(entry.key_id, (charges.keys.get(entry.key_id) ?? 0) + cost)
      if (entry.upstream_id !== null) charges.upstreams.set(entry.upstream_id, (charges.upstreams.get(entry.upstream_id) ?? 0) + cost)
    }
    return charges
  }
  /** The timer's commit: an error is logged and retried, never thrown into the event loop. */
  const flushLater = (): void => {
    flush().catch((err: unknown) => {
      log(`[gatehouse] ledger commit failed, retrying: ${(err as Error).message}`)
      timer ??= setTimeout(flushLater, GROUP_COMMIT_MS * 10)
    })
  }
  const schedule = (): void => {
    timer ??= setTimeout(flushLater, GROUP_COMMIT_MS)
  }

  return {
    /** Queues a request's final row; it replaces the request's pending row, if it has one. */
    enqueue(entry: LedgerEntry): void {
      const stream = streams.get(entry.id)
      if (stream) {
        streams.delete(entry.id)
        changed.delete(entry.id)
        if (stream.stored) replaced.push(entry.id)
      }
      pending.push(entry)
      if (pending.length >= GROUP_COMMIT_ROWS) flushLater()
      else schedule()
    },
    /**
     * Whether rows queued or being committed charge more than they held: until they are committed, the store's balance
     * and spend lag them, so a hold taken now must wait for them (billing/holds.ts flushes first).
     */
    chargesPastHolds: (): boolean => pending.some(pastHold) || committing.some(pastHold),
    /** A stream's first byte went out: its pending row (billed for nothing yet) is written at the next commit. */
    openPending(row: PendingEntry): void {
      streams.set(row.id, { row, stored: false })
      changed.add(row.id)
      schedule()
    },
    /** The usage of a stream under way; ignored once its final row is queued. */
    checkpoint(id: string, checkpoint: Checkpoint): void {
      const stream = streams.get(id)
      if (!stream) return
      Object.assign(stream.row, checkpoint)
      changed.add(id)
      schedule()
    },
    /**
     * At start, before any request: the pending rows a dead process left become final rows (status 499,
     * `interrupted_by_restart`), each billed what its last checkpoint says, charging the account and key
     * once, in one transaction. Answers how many were settled.
     */
    settleInterrupted: (): Promise<number> => settle((tx) => tx.all<PendingEntry>(`SELECT * FROM pending_requests${tx.forUpdate}`)),
    /**
     * Team mode's `settleInterrupted`: only the pending rows of replicas not seen for `ttlMs` (a live replica still
     * serves its streams); rows another replica is settling are skipped. A stream that outlives its row's settlement
     * charges nothing more: its final row has the same request id.
     */
    settleOrphaned: (ttlMs: number): Promise<number> =>
      settle((tx) => tx.all<PendingEntry>(`SELECT * FROM pending_requests p WHERE ${ownerGone('p.replica')}${tx.skipLocked}`, { ttlMs })),

    /**
     * Team mode: gives the concurrency leases of requests that ended back in a commit started now, with the rows queued
     * so far (a request's end is one round trip, shared by the requests that end together). On failure they stay
     * queued with the rows, and the commit is retried as the timer's is (a lease not given back lapses at its expiry).
     */
    releaseLeases(leaseIds: readonly string[]): Promise<void> {
      leases.push(...leaseIds)
      return flush().catch((err: unknown) => {
        timer ??= setTimeout(flushLater, GROUP_COMMIT_MS * 10)
        throw err
      })
    },
    /** Commits what is queued, after any commit under way; rejects when the commit fails (its rows stay queued). */
    flush,
    /**
     * Out-of-queue work that writes charges and mirrors them in memory (an image task's end): run in the commits'
     * turn, so that `readCommitted` never reads the store between its write and its mirror.
     */
    exclusive,
    /**
     * `read` of the store once everything queued is committed, with no commit until `apply` has run: `apply` gets
     * what was read and the charges queued meanwhile (in memory already, not in what was read), synchronously, so
     * that memory set from the read counts every charge once. Rejects when the commit fails (its rows stay queued).
     */
    readCommitted: <T>(read: () => Promise<T>, apply: (result: T, queued: UncommittedCharges) => void = () => {}): Promise<T> =>
      exclusive(async () => {
        await commit()
        const result = await read()
        apply(result, uncommitted())
        return result
      }),
    /** The last commit, then nothing more: rows queued after it stay unwritten (a stream's end after shutdown). */
    async close(): Promise<void> {
      await flush()
      closed = true
    },
    recent: async (keyId: string | null, limit: number) => {
      await flush()
      return sql.all<LedgerEntry>('SELECT * FROM requests WHERE (CAST(@key_id AS TEXT) IS NULL OR key_id = @key_id) ORDER BY created_at DESC LIMIT @limit', { key_id: keyId, limit })
    },
    get: async (id: string) => {
      await flush()
      return sql.get<LedgerEntry>('SELECT * FROM requests WHERE id = ?', [id])
    },
    /** The stored pending row of a stream under way. */
    getPending: async (id: string) => {
      await flush()
      return sql.get<PendingEntry>('SELECT * FROM pending_requests WHERE id = ?', [id])
    },
  }
}
