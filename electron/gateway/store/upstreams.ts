import type { Vendor } from '../../../shared/types.js'
import type { Sql } from './sql.js'

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

/** A new row is numbered after the others (`seq`: the order accounts were added in). */
const UPSERT = `
  INSERT INTO upstreams (id, vendor, base_url, api_key_enc, models, priority, budget_nano, seq)
  VALUES (@id, @vendor, @base_url, @api_key_enc, @models, @priority, @budget_nano, (SELECT COALESCE(MAX(seq), 0) + 1 FROM upstreams))
  ON CONFLICT (id) DO UPDATE SET vendor = excluded.vendor, base_url = excluded.base_url,
    api_key_enc = excluded.api_key_enc, models = excluded.models, priority = excluded.priority,
    -- a new cap counts from now; the same cap again (a restart with the same config) keeps what was spent
    spent_nano = CASE WHEN upstreams.budget_nano IS NOT DISTINCT FROM excluded.budget_nano THEN upstreams.spent_nano ELSE 0 END,
    budget_nano = excluded.budget_nano`

/** Upstream accounts; the API key is stored sealed by the SecretBox. */
export function upstreamsRepo(sql: Sql) {
  return {
    all: () =>
      sql.all<StoredUpstream>('SELECT id, vendor, base_url, api_key_enc, models, priority, budget_nano, spent_nano FROM upstreams ORDER BY seq, id'),
    /** What each account has spent (team mode reads it every second, as `apiKeys.spending`). */
    spending: () => sql.all<{ id: string; spent_nano: number }>('SELECT id, spent_nano FROM upstreams'),
    upsert: async (row: UpstreamRow) => void (await sql.run(UPSERT, { ...row })),
    remove: async (id: string) => (await sql.run('DELETE FROM upstreams WHERE id = ?', [id])).changes > 0,
  }
}
