import type { Vendor } from '../../../shared/types.js'
import type { Db } from './db.js'

export interface UpstreamRow {
  id: string
  vendor: Vendor
  base_url: string
  api_key_enc: string
  models: string | null
  priority: number
  /** nano-USD; null: no cap */
  budget_nano: number | null
}

export interface StoredUpstream extends UpstreamRow {
  /** nano-USD spent through the account since its cap was set (a trigger on the ledger adds to it) */
  spent_nano: number
}

/** Upstream accounts; the API key is stored sealed by the SecretBox. */
export function upstreamsRepo(db: Db) {
  const all = db.prepare('SELECT * FROM upstreams ORDER BY rowid')
  const remove = db.prepare('DELETE FROM upstreams WHERE id = ?')
  const upsert = db.prepare(`
    INSERT INTO upstreams (id, vendor, base_url, api_key_enc, models, priority, budget_nano)
    VALUES (@id, @vendor, @base_url, @api_key_enc, @models, @priority, @budget_nano)
    ON CONFLICT (id) DO UPDATE SET vendor = excluded.vendor, base_url = excluded.base_url,
      api_key_enc = excluded.api_key_enc, models = excluded.models, priority = excluded.priority,
      -- a new cap counts from now; the same cap again (a restart with the same config) keeps what was spent
      spent_nano = CASE WHEN budget_nano IS excluded.budget_nano THEN spent_nano ELSE 0 END,
      budget_nano = excluded.budget_nano`)
  return {
    all: () => all.all() as StoredUpstream[],
    upsert: (row: UpstreamRow) => void upsert.run(row),
    remove: (id: string) => remove.run(id).changes > 0,
  }
}
