import type { CatalogModel } from '../../../shared/types.js'
import { isCallable } from '../catalog/catalog.js'
import { generateKey, keyHint, keyId, type KeyHasher } from '../secrets/keys.js'
import type { Repos } from '../store/index.js'

/** The groups a new data dir starts with: everything on the chat protocol, and Claude on the messages protocol. */
export async function seedDefaultGroups(store: Repos, builtin: CatalogModel[]): Promise<void> {
  const callable = builtin.filter(isCallable)
  await store.transaction(async (tx) => {
    await tx.groups.upsert({
      id: 'default',
      name: 'All models',
      protocol: 'chat',
      models: callable.filter((m) => m.family !== 'claude').map((m) => m.id),
      upstreams: [],
      options: {},
    })
    await tx.groups.upsert({
      id: 'claude',
      name: 'Claude (messages protocol)',
      protocol: 'messages',
      models: callable.filter((m) => m.family === 'claude').map((m) => m.id),
      upstreams: [],
      options: {},
    })
  })
}

/** Creates a key for the default group; the caller shows it once, it is never stored in clear. */
export async function createFirstKey(store: Repos, hasher: KeyHasher): Promise<string> {
  const key = generateKey()
  const hash = hasher.hash(key)
  await store.apiKeys.upsert({
    id: keyId(hash), hash, hint: keyHint(key), group_id: 'default', name: 'first key',
    concurrency: null, quota_nano: null, expires_at: null, disabled: 0, created_at: Math.floor(Date.now() / 1000),
  })
  return key
}
