import type { Db } from './db.js'
import { INSERT_LEDGER_ROW, type LedgerEntry } from './ledger.js'

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

/** Async tasks. Settling (succeeded, billed) and failing (released) each happen at most once per task. */
export function tasksRepo(db: Db) {
  const insert = db.prepare(`
    INSERT INTO tasks (id, kind, key_id, group_id, model, endpoint, upstream_id, vendor_task_id, status, progress, request,
      result, error, reserved_nano, cost_nano, settled, idempotency_key, created_at, updated_at)
    VALUES (@id, @kind, @key_id, @group_id, @model, @endpoint, @upstream_id, @vendor_task_id, @status, @progress, @request,
      @result, @error, @reserved_nano, @cost_nano, @settled, @idempotency_key, @created_at, @updated_at)`)
  const get = db.prepare('SELECT * FROM tasks WHERE id = ?')
  const unfinished = db.prepare("SELECT * FROM tasks WHERE kind = ? AND settled = 0 AND status IN ('queued', 'running')")
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
    insertLedger.run(ledger)
    charge.run({ cost: task.cost_nano, released: task.reserved_nano })
    if (task.cost_nano !== 0 && ledger.key_id !== null) chargeKey.run(task.cost_nano, ledger.key_id)
    return true
  })

  return {
    insert: (row: TaskRow) => void insert.run(row),
    get: (id: string) => get.get(id) as TaskRow | undefined,
    unfinished: (kind: TaskRow['kind']) => unfinished.all(kind) as TaskRow[],
    setProgress: (id: string, status: TaskStatus, value: number | null) => void progress.run(status, value, Date.now(), id),
    end,
  }
}
