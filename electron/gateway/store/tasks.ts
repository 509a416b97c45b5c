import { accountBudget, fundsVerdict } from '../budget.js'
import type { AccountRow } from './account.js'
import type { Db } from './db.js'
import { INSERT_LEDGER_ROW, ledgerRowValues, type LedgerEntry } from './ledger.js'

export type TaskStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'canceled'

export interface TaskRow {
  id: string
  kind: 'image' | 'video'
  key_id: string
  group_id: string
  model: string
  endpoint: string
  upstream_id: string | null
  vendor_task_id: string | null
  status: TaskStatus
  progress: number | null
  request: string | null
  result: string | null
  error: string | null
  reserved_nano: number
  cost_nano: number
  settled: number
  idempotency_key: string | null
  created_at: number
  updated_at: number
}

/** A video task row: the task columns plus the poller's (migration 3). */
export interface VideoTaskRow extends TaskRow {
  /** due time of the next poll (or download), the lease of one under way, or null when nothing is left to do */
  next_poll_at: number | null
  poll_attempts: number
  /** sha256 of the canonical submission, for the duplicate guard */
  request_hash: string | null
  /** the vendor's own status word of the last poll */
  vendor_status: string | null
}

/** What `reserveVideo` did: created the task with its reservation, found an earlier one, or refused. */
export type VideoReservation =
  | { kind: 'created'; task: VideoTaskRow }
  | { kind: 'existing'; task: VideoTaskRow }
  | { kind: 'conflict'; task: VideoTaskRow }
  | { kind: 'insufficient'; limit: 'balance' | 'key'; availableNano: number }

/** How `reserveVideo` looks for an earlier submission. */
export interface VideoDedupe {
  /** the client's Idempotency-Key: the same key (since `keySince`) answers its task, with any body */
  idempotencyKey: string | null
  keySince: number
  /** without a key: the same body (same hash) since `since`, not failed nor canceled */
  since: number
}

/** Async tasks. Settling (succeeded, billed) and failing (released) each happen at most once per task. */
export function tasksRepo(db: Db) {
  const insert = db.prepare(`
    INSERT INTO tasks (id, kind, key_id, group_id, model, endpoint, upstream_id, vendor_task_id, status, progress, request,
      result, error, reserved_nano, cost_nano, settled, idempotency_key, created_at, updated_at)
    VALUES (@id, @kind, @key_id, @group_id, @model, @endpoint, @upstream_id, @vendor_task_id, @status, @progress, @request,
      @result, @error, @reserved_nano, @cost_nano, @settled, @idempotency_key, @created_at, @updated_at)`)
  const get = db.prepare('SELECT * FROM tasks WHERE id = ?')
  const unfinished = db.prepare("SELECT * FROM tasks WHERE kind = ? AND settled = 0 AND status IN ('queued', 'running')")
  const recent = db.prepare('SELECT * FROM tasks WHERE kind = ? ORDER BY created_at DESC LIMIT ?')
  const progress = db.prepare("UPDATE tasks SET status = ?, progress = ?, updated_at = ? WHERE id = ? AND settled = 0")
  const finish = db.prepare('UPDATE tasks SET status = @status, result = @result, error = @error, cost_nano = @cost_nano, settled = 1, progress = @progress, updated_at = @updated_at WHERE id = @id AND settled = 0')
  const insertLedger = db.prepare(INSERT_LEDGER_ROW)
  const charge = db.prepare('UPDATE account SET balance_nano = balance_nano - @cost, reserved_nano = reserved_nano - @released WHERE id = 1')
  const chargeKey = db.prepare('UPDATE api_keys SET used_nano = used_nano + ? WHERE id = ?')

  /**
   * Ends a task once: its final state, its ledger row (id = task id) and its charge, in one transaction.
   * Returns false when the task was already ended (a racing poller, or a second call after a restart).
   */
  const end = db.transaction((task: Pick<TaskRow, 'id' | 'status' | 'result' | 'error' | 'cost_nano' | 'progress'> & { reserved_nano: number }, ledger: LedgerEntry): boolean => {
    if (finish.run({ ...task, updated_at: Date.now() }).changes === 0) return false
    insertLedger.run(ledgerRowValues(ledger, ledger.cost_nano))
    charge.run({ cost: task.cost_nano, released: task.reserved_nano })
    if (task.cost_nano !== 0 && ledger.key_id !== null) chargeKey.run(task.cost_nano, ledger.key_id)
    return true
  })

  return {
    video: videoTasks(db, end),
    insert: (row: TaskRow) => void insert.run(row),
    get: (id: string) => get.get(id) as TaskRow | undefined,
    unfinished: (kind: TaskRow['kind']) => unfinished.all(kind) as TaskRow[],
    /** The newest tasks of a kind, every key's (the app's task lists). */
    recent: (kind: TaskRow['kind'], limit: number) => recent.all(kind, limit) as TaskRow[],
    setProgress: (id: string, status: TaskStatus, value: number | null) => void progress.run(status, value, Date.now(), id),
    end,
  }
}

type EndTask = (task: Pick<TaskRow, 'id' | 'status' | 'result' | 'error' | 'cost_nano' | 'progress'> & { reserved_nano: number }, ledger: LedgerEntry) => boolean

/**
 * Video tasks: the reservation taken with the task row in one (immediate) transaction, the poller's schedule and
 * claims, and the end of a task, which charges, releases and writes its ledger row once (`settled = 0` guard).
 */
function videoTasks(db: Db, end: EndTask) {
  const insert = db.prepare(`
    INSERT INTO tasks (id, kind, key_id, group_id, model, endpoint, upstream_id, vendor_task_id, status, progress, request,
      result, error, reserved_nano, cost_nano, settled, idempotency_key, created_at, updated_at, next_poll_at, poll_attempts,
      request_hash, vendor_status)
    VALUES (@id, @kind, @key_id, @group_id, @model, @endpoint, @upstream_id, @vendor_task_id, @status, @progress, @request,
      @result, @error, @reserved_nano, @cost_nano, @settled, @idempotency_key, @created_at, @updated_at, @next_poll_at,
      @poll_attempts, @request_hash, @vendor_status)`)
  const get = db.prepare("SELECT * FROM tasks WHERE id = ? AND kind = 'video'")
  // A submission that failed before the vendor took it does not hold its key: the client may retry with it.
  const byKey = db.prepare(`SELECT * FROM tasks WHERE key_id = ? AND idempotency_key = ? AND kind = 'video' AND created_at >= ?
    AND NOT (status = 'failed' AND vendor_task_id IS NULL) ORDER BY created_at DESC LIMIT 1`)
  const byHash = db.prepare(`SELECT * FROM tasks WHERE key_id = ? AND request_hash = ? AND kind = 'video' AND created_at >= ?
    AND status NOT IN ('failed', 'canceled') ORDER BY created_at DESC LIMIT 1`)
  const account = db.prepare('SELECT budget_nano, balance_nano, reserved_nano FROM account WHERE id = 1')
  const keyFunds = db.prepare(`SELECT k.quota_nano, k.used_nano, COALESCE((SELECT SUM(t.reserved_nano) FROM tasks t
    WHERE t.key_id = k.id AND t.settled = 0), 0) AS reserved_nano FROM api_keys k WHERE k.id = ?`)
  const reserve = db.prepare('UPDATE account SET reserved_nano = reserved_nano + ? WHERE id = 1')
  const release = db.prepare('UPDATE account SET reserved_nano = reserved_nano - ? WHERE id = 1')
  const accept = db.prepare(`UPDATE tasks SET upstream_id = @upstream_id, vendor_task_id = @vendor_task_id, next_poll_at = @next_poll_at,
    updated_at = @now WHERE id = @id AND settled = 0`)
  const failEarly = db.prepare(`UPDATE tasks SET status = 'failed', error = ?, settled = 1, next_poll_at = NULL, updated_at = ?
    WHERE id = ? AND settled = 0`)
  const progress = db.prepare(`UPDATE tasks SET status = @status, progress = COALESCE(@progress, progress), vendor_status = @vendor_status,
    next_poll_at = @next_poll_at, poll_attempts = @poll_attempts, updated_at = @now WHERE id = @id AND settled = 0`)
  const schedule = db.prepare('UPDATE tasks SET next_poll_at = ?, poll_attempts = ? WHERE id = ?')
  const ended = db.prepare('UPDATE tasks SET next_poll_at = ?, poll_attempts = 0, vendor_status = COALESCE(?, vendor_status) WHERE id = ?')
  const due = db.prepare(`SELECT id, next_poll_at FROM tasks WHERE kind = 'video' AND next_poll_at IS NOT NULL AND next_poll_at <= ?
    ORDER BY next_poll_at LIMIT ?`)
  const claim = db.prepare('UPDATE tasks SET next_poll_at = ? WHERE id = ? AND next_poll_at = ?')
  const resume = db.prepare(`UPDATE tasks SET next_poll_at = @now WHERE kind = 'video'
    AND (settled = 0 OR next_poll_at IS NOT NULL) AND (next_poll_at IS NULL OR next_poll_at > @now)`)

  const findEarlier = (row: VideoTaskRow, dedupe: VideoDedupe): VideoTaskRow | undefined =>
    (dedupe.idempotencyKey !== null
      ? byKey.get(row.key_id, dedupe.idempotencyKey, dedupe.keySince)
      : byHash.get(row.key_id, row.request_hash, dedupe.since)) as VideoTaskRow | undefined

  const reserveTx = db.transaction((row: VideoTaskRow, dedupe: VideoDedupe): VideoReservation => {
    const earlier = findEarlier(row, dedupe)
    if (earlier) return { kind: earlier.request_hash === row.request_hash ? 'existing' : 'conflict', task: earlier }
    const a = account.get() as Pick<AccountRow, 'budget_nano' | 'balance_nano' | 'reserved_nano'>
    const k = keyFunds.get(row.key_id) as { quota_nano: number | null; used_nano: number; reserved_nano: number } | undefined
    const verdict = fundsVerdict(
      accountBudget({ budgetNano: a.budget_nano, balanceNano: a.balance_nano, reservedNano: a.reserved_nano }),
      { budgetNano: k?.quota_nano ?? null, spentNano: k?.used_nano ?? 0, reservedNano: k?.reserved_nano ?? 0 },
      row.reserved_nano,
    )
    if (!verdict.allowed) return { kind: 'insufficient', limit: verdict.limit, availableNano: verdict.availableNano }
    insert.run(row)
    reserve.run(row.reserved_nano)
    return { kind: 'created', task: row }
  })

  const failEarlyTx = db.transaction((id: string, error: string): boolean => {
    const row = get.get(id) as VideoTaskRow | undefined
    if (!row || failEarly.run(error, Date.now(), id).changes === 0) return false
    release.run(row.reserved_nano)
    return true
  })

  /** Ends the task (see `end`), with the vendor's final word and what the poller still has to do (the download of a success). */
  const endTx = db.transaction((task: Parameters<EndTask>[0], ledger: LedgerEntry, nextPollAt: number | null, vendorStatus: string | null): boolean => {
    if (!end(task, ledger)) return false
    ended.run(nextPollAt, vendorStatus, task.id)
    return true
  })

  const claimTx = db.transaction((now: number, limit: number, leaseUntil: number, skip: ReadonlySet<string>): string[] => {
    const rows = (due.all(now, limit + skip.size) as Array<{ id: string; next_poll_at: number }>).filter((r) => !skip.has(r.id)).slice(0, limit)
    return rows.filter((r) => claim.run(leaseUntil, r.id, r.next_poll_at).changes === 1).map((r) => r.id)
  })

  return {
    get: (id: string) => get.get(id) as VideoTaskRow | undefined,
    /**
     * Atomically: answers an earlier task (Idempotency-Key, or the same body within the window), or checks that the
     * balance less every reservation (and the key's quota less its tasks' reservations) covers `row.reserved_nano`,
     * then inserts the task and adds its reservation. Immediate, so two processes cannot both pass the check.
     */
    reserve: (row: VideoTaskRow, dedupe: VideoDedupe): VideoReservation => reserveTx.immediate(row, dedupe),
    /** The vendor took the submission. */
    accept: (id: string, upstreamId: string, vendorTaskId: string, nextPollAt: number) =>
      void accept.run({ id, upstream_id: upstreamId, vendor_task_id: vendorTaskId, next_poll_at: nextPollAt, now: Date.now() }),
    /** The submission never reached a vendor task: failed, reservation released, no ledger row (the request's own row tells). */
    failSubmission: (id: string, error: string): boolean => failEarlyTx.immediate(id, error),
    /** An in-flight poll answer: state, progress (kept when the vendor gives none), the vendor's word, the next poll. */
    progress: (row: Pick<VideoTaskRow, 'id' | 'status' | 'progress' | 'vendor_status' | 'next_poll_at' | 'poll_attempts'>) =>
      void progress.run({ ...row, now: Date.now() }),
    schedule: (id: string, nextPollAt: number | null, attempts: number) => void schedule.run(nextPollAt, attempts, id),
    end: (task: Parameters<EndTask>[0], ledger: LedgerEntry, nextPollAt: number | null, vendorStatus: string | null = null): boolean =>
      endTx.immediate(task, ledger, nextPollAt, vendorStatus),
    /** Takes up to `limit` due tasks, each leased until `leaseUntil` so that another poller skips it meanwhile. */
    claimDue: (now: number, limit: number, leaseUntil: number, skip: ReadonlySet<string> = new Set()): string[] =>
      // A plain read first: an idle tick takes no write lock.
      (due.all(now, skip.size + 1) as Array<{ id: string }>).some((r) => !skip.has(r.id)) ? claimTx.immediate(now, limit, leaseUntil, skip) : [],
    /** After a start: every unfinished task, and every pending download, is due now (leases of a dead process included). */
    resumeAll: (now: number): number => resume.run({ now }).changes,
  }
}
