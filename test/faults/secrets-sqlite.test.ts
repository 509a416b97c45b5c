// Gateway keys in a SQLite store an older version left, hashed with plain SHA-256: upgraded to keyed hashes without
// losing a key or changing its id (secrets.test.ts holds the rules every store keeps).
import Database from 'better-sqlite3'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { keyHint, keyId, legacyKeyHash } from '../../electron/gateway/secrets/keys.js'
import { fileSecretBox } from '../../electron/gateway/secrets/secrets.js'
import { MIGRATIONS } from '../../electron/gateway/store/db.js'
import { chatConfig, startTestGateway, TEST_KEY, tempDataDir, type TestGateway } from '../helpers/gateway.js'

/** A store as it was before keyed hashing (schema version 5): keys as plain SHA-256, ids derived from them. */
function writeLegacyStore(dir: string, keys: Array<{ key: string; name: string; sealed?: string }>) {
  // A store at schema 5, the last one before keyed hashes, as an older version left it.
  const db = new Database(join(dir, 'gatehouse.sqlite'))
  for (const migration of MIGRATIONS.slice(0, 5)) db.exec(migration)
  db.pragma('user_version = 5')
  const insert = db.prepare(`INSERT INTO api_keys (id, hash, hint, group_id, name, created_at, app_secret_enc)
    VALUES (?, ?, ?, 'main', ?, 0, ?)`)
  for (const k of keys) insert.run(keyId(legacyKeyHash(k.key)), legacyKeyHash(k.key), keyHint(k.key), k.name, k.sealed ?? null)
  db.close()
}

describe('gateway keys: a legacy SHA-256 store', () => {
  const config = chatConfig([{ id: 'up', baseUrl: 'http://127.0.0.1:9' }])
  const models = (gw: TestGateway, key: string) => gw.get('/v1/models', { authorization: `Bearer ${key}` })

  it('opens: every key authenticates with its old id, and a re-applied config adds no row', async () => {
    const data = tempDataDir()
    const appKey = 'sk-gh-legacy-app-0123456789abcdef'
    const otherKey = 'sk-gh-legacy-admin-0123456789abcd'
    writeLegacyStore(data.dir, [
      { key: TEST_KEY, name: 'test' },
      { key: otherKey, name: 'made in the app' },
      { key: appKey, name: 'Gatehouse app', sealed: fileSecretBox(data.dir).encrypt(appKey) },
    ])
    const oldIds = [TEST_KEY, otherKey, appKey].map((k) => keyId(legacyKeyHash(k)))
    let gw = await startTestGateway(config, data)
    try {
      const rows = async () => new Map((await gw.services.store.apiKeys.all()).map((r) => [r.id, r]))
      const hashed = (key: string) => gw.services.registry.keyHasher.hash(key)
      // At start: the app key (sealed) and the config key (applied) are rehashed; the other waits to be presented.
      expect((await rows()).size).toBe(4) // the three, and the messages key of the config
      expect((await rows()).get(oldIds[0])).toMatchObject({ hash: hashed(TEST_KEY), legacy_sha256: 0 })
      expect((await rows()).get(oldIds[2])).toMatchObject({ hash: hashed(appKey), legacy_sha256: 0 })
      expect((await rows()).get(oldIds[1])).toMatchObject({ hash: legacyKeyHash(otherKey), legacy_sha256: 1 })
      for (const key of [TEST_KEY, otherKey, appKey]) expect((await models(gw, key)).status).toBe(200)
      expect((await rows()).get(oldIds[1])).toMatchObject({ hash: hashed(otherKey), legacy_sha256: 0 })
      expect([...gw.services.registry.keysById.keys()].sort()).toEqual([...(await rows()).keys()].sort())

      // The same config again, on the upgraded store: the same rows, the same ids.
      await gw.close(1_000)
      gw = await startTestGateway(config, data)
      expect([...(await rows()).keys()].sort()).toEqual([...oldIds, keyId(hashed('sk-messages-0123456789'))].sort())
      for (const key of [TEST_KEY, otherKey, appKey]) expect((await models(gw, key)).status).toBe(200)
      expect(gw.services.registry.findKey(otherKey)?.id).toBe(oldIds[1])
    } finally {
      await gw.stop()
    }
  })
})
