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

/** Writes ledger rows and charges the account and key in the same transaction. */
export function ledgerRepo(db: Db) {
  const insert = db.prepare(`
    INSERT OR IGNORE INTO requests (id, key_id, group_id, model, endpoint, status, error_code, upstream_id,
      input_tokens, output_tokens, usage, cost_nano, latency_ms, created_at)
    VALUES (@id, @key_id, @group_id, @model, @endpoint, @status, @error_code, @upstream_id,
      @input_tokens, @output_tokens, @usage, @cost_nano, @latency_ms, @created_at)`)
  const chargeAccount = db.prepare('UPDATE account SET balance_nano = balance_nano - ? WHERE id = 1')
  const chargeKey = db.prepare('UPDATE api_keys SET used_nano = used_nano + ? WHERE id = ?')
  const recent = db.prepare('SELECT * FROM requests WHERE (@key_id IS NULL OR key_id = @key_id) ORDER BY created_at DESC LIMIT @limit')
  const byId = db.prepare('SELECT * FROM requests WHERE id = ?')

  /** Returns false when the request id was already recorded: a request is never billed twice. */
  const record = db.transaction((entry: LedgerEntry): boolean => {
    if (insert.run(entry).changes === 0) return false
    if (entry.cost_nano !== 0) {
      chargeAccount.run(entry.cost_nano)
      if (entry.key_id !== null) chargeKey.run(entry.cost_nano, entry.key_id)
    }
    return true
  })

  return {
    record,
    recent: (keyId: string | null, limit: number) => recent.all({ key_id: keyId, limit }) as LedgerEntry[],
    get: (id: string) => byId.get(id) as LedgerEntry | undefined,
  }
}
