import { chargeNano } from '../money.js'
import type { Db } from './db.js'

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
  latency_ms: number
  created_at: number
}

/** A ledger row, once: a repeated request id (or task id) inserts nothing. */
export const INSERT_LEDGER_ROW = `
  INSERT OR IGNORE INTO requests (id, key_id, group_id, model, endpoint, status, error_code, upstream_id,
    input_tokens, output_tokens, usage, cost_nano, latency_ms, created_at)
  VALUES (@id, @key_id, @group_id, @model, @endpoint, @status, @error_code, @upstream_id,
    @input_tokens, @output_tokens, @usage, @cost_nano, @latency_ms, @created_at)`

/** Rows wait at most this long for their commit, so a crash can lose only the last few milliseconds. */
export const GROUP_COMMIT_MS = 10
const GROUP_COMMIT_ROWS = 256

/**
 * Writes ledger rows and charges the account and keys. Rows are committed in groups, one transaction per
 * GROUP_COMMIT_MS or GROUP_COMMIT_ROWS (one WAL append instead of one per request), with the charges of a
 * group summed into one update per key. Every read flushes first.
 */
export function ledgerRepo(db: Db) {
  const insert = db.prepare(INSERT_LEDGER_ROW)
  const chargeAccount = db.prepare('UPDATE account SET balance_nano = balance_nano - ? WHERE id = 1')
  const chargeKey = db.prepare('UPDATE api_keys SET used_nano = used_nano + ? WHERE id = ?')
  const recent = db.prepare('SELECT * FROM requests WHERE (@key_id IS NULL OR key_id = @key_id) ORDER BY created_at DESC LIMIT @limit')
  const byId = db.prepare('SELECT * FROM requests WHERE id = ?')

  /**
   * A request id is recorded once: a repeated id charges nothing, so nothing is ever billed twice. A cost that is not
   * a non-negative safe integer is recorded as 0: a row never raises the balance or lowers a key's spend.
   */
  const writeAll = db.transaction((entries: LedgerEntry[]) => {
    let accountTotal = 0
    const keyTotals = new Map<string, number>()
    for (const entry of entries) {
      const cost = chargeNano(entry.cost_nano)
      if (insert.run(cost === entry.cost_nano ? entry : { ...entry, cost_nano: cost }).changes === 0 || cost === 0) continue
      accountTotal += cost
      if (entry.key_id !== null) keyTotals.set(entry.key_id, (keyTotals.get(entry.key_id) ?? 0) + cost)
    }
    if (accountTotal > 0) chargeAccount.run(accountTotal)
    for (const [keyId, total] of keyTotals) chargeKey.run(total, keyId)
  })

  let pending: LedgerEntry[] = []
  let timer: NodeJS.Timeout | undefined
  const flush = (): void => {
    if (timer) clearTimeout(timer)
    timer = undefined
    if (pending.length === 0 || !db.open) return
    const batch = pending
    pending = []
    try {
      writeAll(batch)
    } catch (err) {
      // Kept for the next commit (a busy or full disk passes): the charges are already in memory.
      pending = batch.concat(pending)
      throw err
    }
  }
  /** The timer's commit: an error is logged and retried, never thrown into the event loop. */
  const flushLater = (): void => {
    try {
      flush()
    } catch (err) {
      process.stderr.write(`[gatehouse] ledger commit failed, retrying: ${(err as Error).message}\n`)
      timer ??= setTimeout(flushLater, GROUP_COMMIT_MS * 10)
    }
  }

  return {
    enqueue(entry: LedgerEntry): void {
      pending.push(entry)
      if (pending.length >= GROUP_COMMIT_ROWS) flushLater()
      else timer ??= setTimeout(flushLater, GROUP_COMMIT_MS)
    },
    flush,
    recent: (keyId: string | null, limit: number) => {
      flush()
      return recent.all({ key_id: keyId, limit }) as LedgerEntry[]
    },
    get: (id: string) => {
      flush()
      return byId.get(id) as LedgerEntry | undefined
    },
  }
}
