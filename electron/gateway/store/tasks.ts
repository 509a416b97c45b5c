import type { HeldElsewhere } from './held-here.js'
import { insertHoldIn, refusalIn, releaseHoldsIn } from './holds.js'
import { ownerGone } from './pg-leases.js'
import { INSERT_LEDGER_ROW, ledgerRowValues, type LedgerEntry } from './ledger.js'
import type { Sql } from './sql.js'

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
  | { kind: 'insufficient'; limit: 'balance' | 'key' | 'upstream'; availableNano: number }

/** How `reserveVideo` looks for an earlier submission. */
export interface VideoDedupe {
  /** the client's Idempotency-Key: the same key (since `keySince`) answers its task, with any body */
  idempotencyKey: string | null
  keySince: number
  /** without a key: the same body (same hash) since `since`, not failed nor canceled */
  since: number
}

const INSERT_TASK = `
  INSERT INTO tasks (id, kind, key_id, group_id, model, endpoint, upstream_id, vendor_task_id, status, progress, request,
    result, error, reserved_nano, cost_nano, settled, idempotency_key, created_at, updated_at, replica)
  VALUES (@id, @kind, @key_id, @group_id, @model, @endpoint, @upstream_id, @vendor_task_id, @status, @progress, @request,
    @result, @error, @reserved_nano, @cost_nano, @settled, @idempotency_key, @created_at, @updated_at, @replica)`

type EndTask = (task: Pick<TaskRow, 'id' | 'status' | 'result' | 'error' | 'cost_nano' | 'progress'>, ledger: LedgerEntry) => Promise<boolean>

/**
 * Ends a task once, inside the caller's transaction `tx`: its final state, its ledger row (id = task id) and its
 * charge. False when the task was already ended (a racing poller, or a second call after a restart).
 */
const endIn = (tx: Sql): EndTask => async (task, ledger) => {
  const finished = await tx.run(
    `UPDATE tasks SET status = @status, result = @result, error = @error, cost_nano = @cost_nano, settled = 1, progress = @progress,
      updated_at = @updated_at WHERE id = @id AND settled = 0`,
    { id: task.id, status: task.status, result: task.result, error: task.error, cost_nano: task.cost_nano, progress: task.progress, updated_at: Date.now() },
  )
  if (finished.changes === 0) return false
  await tx.run(INSERT_LEDGER_ROW, ledgerRowValues(ledger, ledger.cost_nano))
  // The task's hold (a video's reservation, or the hold of the request an async image task took over), settled with the charge.
  await releaseHoldsIn(tx, 'id = @id', { id: task.id })
  await tx.run('UPDATE account SET balance_nano = balance_nano - @cost WHERE id = 1', { cost: task.cost_nano })
  if (task.cost_nano !== 0 && ledger.key_id !== null) await tx.run('UPDATE api_keys SET used_nano = used_nano + ? WHERE id = ?', [task.cost_nano, ledger.key_id])
  return true
}

/** Async tasks. Settling (succeeded, billed) and failing (released) each happen at most once per task. */
export function tasksRepo(sql: Sql, replica: string, elsewhere?: HeldElsewhere) {
  return {
    video: videoTasks(sql, replica, elsewhere),
    insert: async (row: TaskRow) => void (await sql.run(INSERT_TASK, { ...row, replica })),
    get: (id: string) => sql.get<TaskRow>('SELECT * FROM tasks WHERE id = ?', [id]),
    /**
     * Deletes a finished task: succeeded, failed or canceled, settled, with no copy of its video under way. Answers
     * whether it did (false: no such task, or not finished). Its ledger row stays: the bill is history.
     */
    removeFinished: async (id: string): Promise<boolean> =>
      (await sql.run(
        `DELETE FROM tasks WHERE id = ? AND settled = 1 AND status IN ('succeeded', 'failed', 'canceled') AND next_poll_at IS NULL`,
        [id],
      )).changes > 0,
    /** Team mode: unfinished image tasks of replicas not seen for `ttlMs`, locked (skipping those another replica holds). */
    orphanedImages: (ttlMs: number) =>
      sql.all<TaskRow>(
        `SELECT * FROM tasks t WHERE kind = 'image' AND settled = 0 AND status IN ('queued', 'running') AND ${ownerGone('t.replica')}${sql.skipLocked}`,
        { ttlMs },
      ),
    unfinished: (kind: TaskRow['kind']) => sql.all<TaskRow>("SELECT * FROM tasks WHERE kind = ? AND settled = 0 AND status IN ('queued', 'running')", [kind]),
    /** The newest tasks of a kind, every key's (the app's task lists). */
    recent: (kind: TaskRow['kind'], limit: number) => sql.all<TaskRow>('SELECT * FROM tasks WHERE kind = ? ORDER BY created_at DESC LIMIT ?', [kind, limit]),
    setProgress: async (id: string, status: TaskStatus, value: number | null) =>
      void (await sql.run('UPDATE tasks SET status = ?, progress = ?, updated_at = ? WHERE id = ? AND settled = 0', [status, value, Date.now(), id])),
    /** Ends a task once (see `endIn`), in one transaction. */
    end: (...args: Parameters<EndTask>): Promise<boolean> => sql.transaction((tx) => endIn(tx)(...args)),
  }
}

const INSERT_VIDEO_TASK = `
  INSERT INTO tasks (id, kind, key_id, group_id, model, endpoint, upstream_id, vendor_task_id, status, progress, request,
    result, error, reserved_nano, cost_nano, settled, idempotency_key, created_at, updated_at, next_poll_at, poll_attempts,
    request_hash, vendor_status, replica)
  VALUES (@id, @kind, @key_id, @group_id, @model, @endpoint, @upstream_id, @vendor_task_id, @status, @progress, @request,
    @result, @error, @reserved_nano, @cost_nano, @settled, @idempotency_key, @created_at, @updated_at, @next_poll_at,
    @poll_attempts, @request_hash, @vendor_status, @replica)`
// A submission that failed before the vendor took it does not hold its key: the client may retry with it.
const BY_IDEMPOTENCY_KEY = `SELECT * FROM tasks WHERE key_id = ? AND idempotency_key = ? AND kind = 'video' AND created_at >= ?
  AND NOT (status = 'failed' AND vendor_task_id IS NULL) ORDER BY created_at DESC LIMIT 1`
const BY_HASH = `SELECT * FROM tasks WHERE key_id = ? AND request_hash = ? AND kind = 'video' AND created_at >= ?
  AND status NOT IN ('failed', 'canceled') ORDER BY created_at DESC LIMIT 1`
const DUE = `SELECT id, next_poll_at FROM tasks WHERE kind = 'video' AND next_poll_at IS NOT NULL AND next_poll_at <= ?
  ORDER BY next_poll_at LIMIT ?`

/**
 * Video tasks: the reservation taken with the task row in one (immediate) transaction, the poller's schedule and
 * claims, and the end of a task, which charges, releases and writes its ledger row once (`settled = 0` guard).
 */
/** `elsewhere`: the holds in this process's memory (one process on SQLite), which a reservation's funds check counts. */
function videoTasks(sql: Sql, replica: string, elsewhere?: HeldElsewhere) {
  const get = (id: string) => sql.get<VideoTaskRow>("SELECT * FROM tasks WHERE id = ? AND kind = 'video'", [id])

  const findEarlier = (tx: Sql, row: VideoTaskRow, dedupe: VideoDedupe): Promise<VideoTaskRow | undefined> =>
    dedupe.idempotencyKey !== null
      ? tx.get<VideoTaskRow>(BY_IDEMPOTENCY_KEY, [row.key_id, dedupe.idempotencyKey, dedupe.keySince])
      : tx.get<VideoTaskRow>(BY_HASH, [row.key_id, row.request_hash, dedupe.since])

  return {
    get,
    /**
     * Atomically: answers an earlier task (Idempotency-Key, or the same body within the window), or checks the
     * funds for `row.reserved_nano` as a request's hold is checked (store/holds.ts `refusalIn`: the balance, the key's
     * quota, and the budgets of `upstreamIds`, the accounts that may take it), then inserts the task and adds its
     * reservation. The account row is read (and locked) first, so two processes
     * reserve one after the other: neither can miss the other's task or spend the same funds.
     */
    reserve: (row: VideoTaskRow, dedupe: VideoDedupe, upstreamIds: readonly string[] = []): Promise<VideoReservation> =>
      sql.transaction(async (tx): Promise<VideoReservation> => {
        // The account row locked first: two submissions look for each other's task one after the other.
        await tx.get(`SELECT id FROM account WHERE id = 1${tx.forUpdate}`)
        const earlier = await findEarlier(tx, row, dedupe)
        if (earlier) return { kind: earlier.request_hash === row.request_hash ? 'existing' : 'conflict', task: earlier }
        const refused = await refusalIn(tx, { id: row.id, keyId: row.key_id, amountNano: row.reserved_nano, upstreamIds }, elsewhere)
        if (refused !== undefined) return refused
        // The reservation is the task's hold (store/holds.ts), under the task's id; `reserved_nano` records its amount.
        await insertHoldIn(tx, replica, { id: row.id, keyId: row.key_id, amountNano: row.reserved_nano })
        await tx.run(INSERT_VIDEO_TASK, { ...row, replica })
        return { kind: 'created', task: row }
      }),
    /** The vendor took the submission. */
    accept: async (id: string, upstreamId: string, vendorTaskId: string, nextPollAt: number) =>
      void (await sql.run(
        `UPDATE tasks SET upstream_id = @upstream_id, vendor_task_id = @vendor_task_id, next_poll_at = @next_poll_at,
          updated_at = @now WHERE id = @id AND settled = 0`,
        { id, upstream_id: upstreamId, vendor_task_id: vendorTaskId, next_poll_at: nextPollAt, now: Date.now() },
      )),
    /** The submission never reached a vendor task: failed, reservation released, no ledger row (the request's own row tells). */
    failSubmission: (id: string, error: string): Promise<boolean> =>
      sql.transaction(async (tx) => {
        const row = await tx.get<VideoTaskRow>(`SELECT * FROM tasks WHERE id = ? AND kind = 'video'${tx.forUpdate}`, [id])
        if (!row) return false
        const failed = await tx.run(
          `UPDATE tasks SET status = 'failed', error = ?, settled = 1, next_poll_at = NULL, updated_at = ? WHERE id = ? AND settled = 0`,
          [error, Date.now(), id],
        )
        if (failed.changes === 0) return false
        await releaseHoldsIn(tx, 'id = @id', { id })
        return true
      }),
    /** An in-flight poll answer: state, progress (kept when the vendor gives none), the vendor's word, the next poll. */
    progress: async (row: Pick<VideoTaskRow, 'id' | 'status' | 'progress' | 'vendor_status' | 'next_poll_at' | 'poll_attempts'>) =>
      void (await sql.run(
        `UPDATE tasks SET status = @status, progress = COALESCE(@progress, progress), vendor_status = @vendor_status,
          next_poll_at = @next_poll_at, poll_attempts = @poll_attempts, updated_at = @now WHERE id = @id AND settled = 0`,
        { id: row.id, status: row.status, progress: row.progress, vendor_status: row.vendor_status, next_poll_at: row.next_poll_at, poll_attempts: row.poll_attempts, now: Date.now() },
      )),
    schedule: async (id: string, nextPollAt: number | null, attempts: number) =>
      void (await sql.run('UPDATE tasks SET next_poll_at = ?, poll_attempts = ? WHERE id = ?', [nextPollAt, attempts, id])),
    /** Ends the task (see `endIn`), with the vendor's final word and what the poller still has to do (the download of a success). */
    end: (task: Parameters<EndTask>[0], ledger: LedgerEntry, nextPollAt: number | null, vendorStatus: string | null = null): Promise<boolean> =>
      sql.transaction(async (tx) => {
        if (!(await endIn(tx)(task, ledger))) return false
        await tx.run('UPDATE tasks SET next_poll_at = ?, poll_attempts = 0, vendor_status = COALESCE(?, vendor_status) WHERE id = ?', [nextPollAt, vendorStatus, task.id])
        return true
      }),
    /**
     * Takes up to `limit` due tasks, each leased until `leaseUntil` so that another poller skips it meanwhile, and
     * each recorded as this replica's work (`replica`), so that team mode's sweep gives back the claims of a replica
     * killed mid-poll (`resumeOrphaned`). The due rows are read locked, skipping those another replica is claiming
     * (`skipLocked`), so two replicas take different tasks.
     */
    async claimDue(now: number, limit: number, leaseUntil: number, skip: ReadonlySet<string> = new Set()): Promise<string[]> {
      // A plain read first: an idle tick takes no write lock.
      if (!(await sql.all<{ id: string }>(DUE, [now, skip.size + 1])).some((r) => !skip.has(r.id))) return []
      return sql.transaction(async (tx) => {
        const due = await tx.all<{ id: string; next_poll_at: number }>(`${DUE}${tx.skipLocked}`, [now, limit + skip.size])
        const claimed: string[] = []
        for (const r of due.filter((r) => !skip.has(r.id)).slice(0, limit)) {
          const won = await tx.run('UPDATE tasks SET next_poll_at = ?, replica = ? WHERE id = ? AND next_poll_at = ?', [leaseUntil, replica, r.id, r.next_poll_at])
          if (won.changes === 1) claimed.push(r.id)
        }
        return claimed
      })
    },
    /**
     * Extends the claims of polls still under way (`claims`: task id → the lease its claim or last renewal set) to
     * `leaseUntil`, so that a live replica's poll or download that outlasts a lease is not claimed by another poller.
     * A task rescheduled since (its poll has ended), or handed to another replica, is left alone. Answers the ids renewed.
     */
    async renewClaims(claims: ReadonlyMap<string, number>, leaseUntil: number): Promise<string[]> {
      const renewed: string[] = []
      for (const [id, lease] of claims) {
        const won = await sql.run('UPDATE tasks SET next_poll_at = ? WHERE id = ? AND next_poll_at = ?', [leaseUntil, id, lease])
        if (won.changes === 1) renewed.push(id)
      }
      return renewed
    },
    /**
     * Team mode's sweep: the video work of replicas not seen for `ttlMs` is due now, so a live replica's poller takes
     * it up within the team's lease time rather than the claim's (`leaseMs`, minutes). A task's `replica` is the one
     * whose work it is: its submitter, then each poller that claims it (`claimDue`). Due again: a poll or download
     * under way when its replica died (a claim not yet lapsed), and a submission left before the vendor accepted it
     * (scheduled for the end of its grace time, or not at all), which a poller ends unbilled once that time is over
     * (`pendingSubmission`). A task the dead replica's last poll merely scheduled for later is polled early, once: a
     * poll changes nothing by itself. A live replica's claims stay its own (a long download under way, say).
     */
    resumeOrphaned: async (now: number, ttlMs: number): Promise<number> =>
      (await sql.run(
        `UPDATE tasks SET next_poll_at = @now WHERE kind = 'video' AND (next_poll_at > @now OR (next_poll_at IS NULL AND settled = 0))
          AND ${ownerGone('tasks.replica')}`,
        { now, ttlMs },
      )).changes,
    /** After a start: every unfinished task, and every pending download, is due now (leases of a dead process included). */
    resumeAll: async (now: number): Promise<number> =>
      (await sql.run(
        `UPDATE tasks SET next_poll_at = @now WHERE kind = 'video'
          AND (settled = 0 OR next_poll_at IS NOT NULL) AND (next_poll_at IS NULL OR next_poll_at > @now)`,
        { now },
      )).changes,
  }
}
