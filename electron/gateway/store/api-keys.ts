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
  /** set only on the app's own key of a group: the key sealed by the SecretBox, so the app can use it again */
  app_secret_enc: string | null
  /** 1: `hash` is a plain SHA-256 from before keyed hashing, upgraded when the key is next seen */
  legacy_sha256: number
}

export type ApiKeyChanges = Partial<Pick<ApiKeyRow, 'name' | 'concurrency' | 'quota_nano' | 'expires_at' | 'disabled'>>

/** Gateway keys, stored as keyed hashes (HMAC-SHA256) with a short hint for display. */
export function apiKeysRepo(db: Db) {
  const all = db.prepare('SELECT * FROM api_keys ORDER BY created_at')
  const byId = db.prepare('SELECT * FROM api_keys WHERE id = ?')
  const appKeyOf = db.prepare('SELECT * FROM api_keys WHERE group_id = ? AND app_secret_enc IS NOT NULL ORDER BY created_at DESC LIMIT 1')
  const count = db.prepare('SELECT COUNT(*) AS n FROM api_keys')
  const countInGroup = db.prepare('SELECT COUNT(*) AS n FROM api_keys WHERE group_id = ?')
  const remove = db.prepare('DELETE FROM api_keys WHERE id = ?')
  const rehash = db.prepare('UPDATE api_keys SET hash = @hash, legacy_sha256 = 0 WHERE id = @id AND legacy_sha256 = 1')
  const rehashLegacy = db.prepare('UPDATE api_keys SET hash = @hash, legacy_sha256 = 0 WHERE hash = @legacy AND legacy_sha256 = 1')
  const legacySealed = db.prepare('SELECT * FROM api_keys WHERE legacy_sha256 = 1 AND app_secret_enc IS NOT NULL')
  const upsert = db.prepare(`
    INSERT INTO api_keys (id, hash, hint, group_id, name, concurrency, quota_nano, expires_at, disabled, created_at, app_secret_enc)
    VALUES (@id, @hash, @hint, @group_id, @name, @concurrency, @quota_nano, @expires_at, @disabled, @created_at, @app_secret_enc)
    ON CONFLICT (hash) DO UPDATE SET group_id = excluded.group_id, name = excluded.name,
      concurrency = excluded.concurrency, quota_nano = excluded.quota_nano,
      expires_at = excluded.expires_at, disabled = excluded.disabled`)
  return {
    all: () => all.all() as ApiKeyRow[],
    get: (id: string) => byId.get(id) as ApiKeyRow | undefined,
    appKeyOf: (groupId: string) => appKeyOf.get(groupId) as ApiKeyRow | undefined,
    count: () => (count.get() as { n: number }).n,
    countInGroup: (groupId: string) => (countInGroup.get(groupId) as { n: number }).n,
    upsert: (row: Omit<ApiKeyRow, 'used_nano' | 'app_secret_enc' | 'legacy_sha256'> & { app_secret_enc?: string | null }) =>
      void upsert.run({ app_secret_enc: null, ...row }),
    /** Changes the given fields only; the column names come from the typed keys, never from input. */
    update: (id: string, changes: ApiKeyChanges) => {
      const fields = Object.keys(changes) as Array<keyof ApiKeyChanges>
      if (fields.length === 0) return
      db.prepare(`UPDATE api_keys SET ${fields.map((f) => `${f} = @${f}`).join(', ')} WHERE id = @id`).run({ ...changes, id })
    },
    remove: (id: string) => remove.run(id).changes > 0,
    /** Upgrades a legacy row's hash to the keyed one; its id (in the ledger and tasks) stays. */
    rehash: (id: string, hash: string) => rehash.run({ id, hash }).changes > 0,
    /** The same, found by the legacy SHA-256 of a key whose plaintext is at hand (config keys). */
    rehashLegacy: (legacy: string, hash: string) => rehashLegacy.run({ legacy, hash }).changes > 0,
    /** Legacy rows whose key is sealed in the store (the app's own keys), so they can be upgraded at start. */
    legacySealed: () => legacySealed.all() as ApiKeyRow[],
  }
}
