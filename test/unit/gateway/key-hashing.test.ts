import { createHmac } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { installKeyHasher, upgradeSealedKeys } from '../../../electron/gateway/store/key-hashing.js'
import { keyHint, keyId, legacyKeyHash } from '../../../electron/gateway/secrets/keys.js'
import { fileSecretBox } from '../../../electron/gateway/secrets/secrets.js'
import { createStore, type SqliteStore } from '../../../electron/gateway/store/index.js'
import { tempDataDir } from '../../helpers/gateway.js'

const KEY = 'sk-low-entropy-1234'

describe('installKeyHasher', () => {
  const cleanups: Array<() => unknown> = []
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c()
  })
  const open = (dir = tempDataDir()): { store: SqliteStore; dir: string } => {
    const store = createStore(dir.dir)
    cleanups.push(() => store.close(), () => dir.remove())
    return { store, dir: dir.dir }
  }

  it('is HMAC-SHA256 keyed by a sealed 32-byte install secret, the same at every start of one install', async () => {
    const { store, dir } = open()
    const box = fileSecretBox(dir)
    const first = (await installKeyHasher(store, box)).hash(KEY)
    const secret = Buffer.from(box.decrypt((await store.meta.get('key_hash_secret'))!), 'base64')
    expect(secret).toHaveLength(32)
    expect(first).toBe(createHmac('sha256', secret).update(KEY).digest('hex'))
    expect((await installKeyHasher(store, box)).hash(KEY)).toBe(first)
    expect(first).not.toBe(legacyKeyHash(KEY))
  })

  it('differs between two installs', async () => {
    const [a, b] = [open(), open()]
    expect((await installKeyHasher(a.store, fileSecretBox(a.dir))).hash(KEY)).not.toBe((await installKeyHasher(b.store, fileSecretBox(b.dir))).hash(KEY))
  })

  it('upgradeSealedKeys rehashes legacy rows whose key is sealed in the store, keeping their ids, and leaves the others', async () => {
    const { store, dir } = open()
    const box = fileSecretBox(dir)
    const hasher = await installKeyHasher(store, box)
    const legacyRow = async (key: string, sealed: string | null) => {
      await store.apiKeys.upsert({ id: keyId(legacyKeyHash(key)), hash: legacyKeyHash(key), hint: keyHint(key), group_id: 'g', name: null, concurrency: null, quota_nano: null, expires_at: null, disabled: 0, created_at: 0, app_secret_enc: sealed })
      await store.sql.run('UPDATE api_keys SET legacy_sha256 = 1 WHERE id = ?', [keyId(legacyKeyHash(key))])
    }
    await legacyRow('sk-app-0123456789', box.encrypt('sk-app-0123456789'))
    await legacyRow(KEY, null)
    expect(await upgradeSealedKeys(store, box, hasher)).toBe(1)
    const rows = new Map((await store.apiKeys.all()).map((r) => [r.id, r]))
    expect(rows.get(keyId(legacyKeyHash('sk-app-0123456789')))).toMatchObject({ hash: hasher.hash('sk-app-0123456789'), legacy_sha256: 0 })
    expect(rows.get(keyId(legacyKeyHash(KEY)))).toMatchObject({ hash: legacyKeyHash(KEY), legacy_sha256: 1 })
    expect(await upgradeSealedKeys(store, box, hasher)).toBe(0)
  })
})
