import type { CatalogModel } from '../../../shared/types.js'
import { isCallable } from '../catalog/catalog.js'
import { generateKey, keyHint, keyId, type KeyHasher } from '../keys.js'
import type { Store } from '../store/index.js'

/** The groups a new data dir starts with: everything on the chat protocol, and Claude on the messages protocol. */
export function seedDefaultGroups(store: Store, builtin: CatalogModel[]): void {
  const callable = builtin.filter(isCallable)
  store.transaction(() => {
    store.groups.upsert({
      id: 'default',
      name: 'All models',
      protocol: 'chat',
      models: callable.filter((m) => m.family !== 'claude').map((m) => m.id),
      upstreams: [],
      options: {},
    })
    store.groups.upsert({
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
export function createFirstKey(store: Store, hasher: KeyHasher): string {
  const key = generateKey()
  const hash = hasher.hash(key)
  store.apiKeys.upsert({
    id: keyId(hash), hash, hint: keyHint(key), group_id: 'default', name: 'first key',
    concurrency: null, quota_nano: null, expires_at: null, disabled: 0, created_at: Math.floor(Date.now() / 1000),
  })
  return key
}
