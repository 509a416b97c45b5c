import type { Vendor } from '../../../shared/types.js'
import type { Db } from './db.js'

export interface UpstreamRow {
  id: string
  vendor: Vendor
  base_url: string
  api_key_enc: string
  models: string | null
  priority: number
}

/** Upstream accounts; the API key is stored sealed by the SecretBox. */
export function upstreamsRepo(db: Db) {
  const all = db.prepare('SELECT * FROM upstreams ORDER BY rowid')
  const remove = db.prepare('DELETE FROM upstreams WHERE id = ?')
  const upsert = db.prepare(`
    INSERT INTO upstreams (id, vendor, base_url, api_key_enc, models, priority)
    VALUES (@id, @vendor, @base_url, @api_key_enc, @models, @priority)
    ON CONFLICT (id) DO UPDATE SET vendor = excluded.vendor, base_url = excluded.base_url,
      api_key_enc = excluded.api_key_enc, models = excluded.models, priority = excluded.priority`)
  return {
    all: () => all.all() as UpstreamRow[],
    upsert: (row: UpstreamRow) => void upsert.run(row),
    remove: (id: string) => remove.run(id).changes > 0,
  }
}
