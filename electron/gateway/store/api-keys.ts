import type { Sql } from './sql.js'

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

const UPSERT = `
  INSERT INTO api_keys (id, hash, hint, group_id, name, concurrency, quota_nano, expires_at, disabled, created_at, app_secret_enc)
  VALUES (@id, @hash, @hint, @group_id, @name, @concurrency, @quota_nano, @expires_at, @disabled, @created_at, @app_secret_enc)
  ON CONFLICT (hash) DO UPDATE SET group_id = excluded.group_id, name = excluded.name,
    concurrency = excluded.concurrency, quota_nano = excluded.quota_nano,
    expires_at = excluded.expires_at, disabled = excluded.disabled`

/** Gateway keys, stored as keyed hashes (HMAC-SHA256) with a short hint for display. */
export function apiKeysRepo(sql: Sql) {
  const count = async (where: string, params: unknown[]) => Number((await sql.get<{ n: number }>(`SELECT COUNT(*) AS n FROM api_keys${where}`, params))!.n)
  return {
    all: () => sql.all<ApiKeyRow>('SELECT * FROM api_keys ORDER BY created_at'),
    /** What each key has spent (team mode reads it every second: other replicas charge keys too). */
    spending: () => sql.all<{ id: string; used_nano: number }>('SELECT id, used_nano FROM api_keys'),
    get: (id: string) => sql.get<ApiKeyRow>('SELECT * FROM api_keys WHERE id = ?', [id]),
    appKeyOf: (groupId: string) =>
      sql.get<ApiKeyRow>('SELECT * FROM api_keys WHERE group_id = ? AND app_secret_enc IS NOT NULL ORDER BY created_at DESC LIMIT 1', [groupId]),
    count: () => count('', []),
    countInGroup: (groupId: string) => count(' WHERE group_id = ?', [groupId]),
    upsert: async (row: Omit<ApiKeyRow, 'used_nano' | 'app_secret_enc' | 'legacy_sha256'> & { app_secret_enc?: string | null }) =>
      void (await sql.run(UPSERT, { app_secret_enc: null, ...row })),
    /** Changes the given fields only; the column names come from the typed keys, never from input. */
    update: async (id: string, changes: ApiKeyChanges) => {
      const fields = Object.keys(changes) as Array<keyof ApiKeyChanges>
      if (fields.length === 0) return
      await sql.run(`UPDATE api_keys SET ${fields.map((f) => `${f} = @${f}`).join(', ')} WHERE id = @id`, { ...changes, id })
    },
    remove: async (id: string) => (await sql.run('DELETE FROM api_keys WHERE id = ?', [id])).changes > 0,
    /** Upgrades a legacy row's hash to the keyed one; its id (in the ledger and tasks) stays. */
    rehash: async (id: string, hash: string) =>
      (await sql.run('UPDATE api_keys SET hash = @hash, legacy_sha256 = 0 WHERE id = @id AND legacy_sha256 = 1', { id, hash })).changes > 0,
    /** The same, found by the legacy SHA-256 of a key whose plaintext is at hand (config keys). */
    rehashLegacy: async (legacy: string, hash: string) =>
      (await sql.run('UPDATE api_keys SET hash = @hash, legacy_sha256 = 0 WHERE hash = @legacy AND legacy_sha256 = 1', { legacy, hash })).changes > 0,
    /** Legacy rows whose key is sealed in the store (the app's own keys), so they can be upgraded at start (locked: rehashed next). */
    legacySealed: () => sql.all<ApiKeyRow>(`SELECT * FROM api_keys WHERE legacy_sha256 = 1 AND app_secret_enc IS NOT NULL${sql.forUpdate}`),
  }
}
