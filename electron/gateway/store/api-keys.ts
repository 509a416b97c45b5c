import type { Db } from './db.js'

export interface ApiKeyRow {
  id: string
  hash: string
  hint: string
  group_id: string
  name: string | null
  concurrency: number | null
  quota_nano: number | null
  used_nano: number
  expires_at: number | null
  disabled: number
  created_at: number
}

/** Gateway keys, stored as SHA-256 hashes with a short hint for display. */
export function apiKeysRepo(db: Db) {
  const all = db.prepare('SELECT * FROM api_keys ORDER BY created_at')
  const count = db.prepare('SELECT COUNT(*) AS n FROM api_keys')
  const upsert = db.prepare(`
    INSERT INTO api_keys (id, hash, hint, group_id, name, concurrency, quota_nano, expires_at, disabled, created_at)
    VALUES (@id, @hash, @hint, @group_id, @name, @concurrency, @quota_nano, @expires_at, @disabled, @created_at)
    ON CONFLICT (hash) DO UPDATE SET group_id = excluded.group_id, name = excluded.name,
      concurrency = excluded.concurrency, quota_nano = excluded.quota_nano,
      expires_at = excluded.expires_at, disabled = excluded.disabled`)
  return {
    all: () => all.all() as ApiKeyRow[],
    count: () => (count.get() as { n: number }).n,
    upsert: (row: Omit<ApiKeyRow, 'used_nano'>) => void upsert.run(row),
  }
}
