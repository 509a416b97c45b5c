import { afterEach, describe, expect, it } from 'vitest'
import { keyHint } from '../../../electron/gateway/secrets/keys.js'
import { Registry } from '../../../electron/gateway/registry.js'
import { aesSecretBox } from '../../../electron/gateway/secrets/secrets.js'
import { createStore, type Store } from '../../../electron/gateway/store/index.js'
import { tempDataDir } from '../../helpers/gateway.js'

const KEY = 'sk-reload-0123456789abcdef'
let cleanup: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const c of cleanup.reverse()) await c()
  cleanup = []
})

describe('Registry.reload', () => {
  it('a reload that read the store before a change never replaces a later reload\'s read', async () => {
    const dir = tempDataDir()
    const store = createStore(dir.dir, () => {})
    cleanup.push(dir.remove, () => store.close())
    // The store's key reads: the one `hold` names waits for `release` after reading (a slow connection, say).
    let reads = 0
    let hold = 0
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    const slow: Store = {
      ...store,
      apiKeys: {
        ...store.apiKeys,
        all: async () => {
          const rows = await store.apiKeys.all()
          if (++reads === hold) await held
          return rows
        },
      },
    }
    const registry = await Registry.open(slow, aesSecretBox(Buffer.alloc(32, 7)))
    await store.groups.upsert({ id: 'main', name: null, protocol: 'chat', models: [], upstreams: [], options: {} })

    hold = reads + 1
    const stale = registry.reload() // reads the keys before the key below exists, then waits
    await new Promise((r) => setTimeout(r, 20))
    const hash = registry.keyHasher.hash(KEY)
    await store.apiKeys.upsert({ id: 'key_reload', hash, hint: keyHint(KEY), group_id: 'main', name: null, concurrency: null, quota_nano: null, expires_at: null, disabled: 0, created_at: 0 })
    const fresh = registry.reload()
    // Time for the later reload to read and, unless reloads are ordered, to end before the held one does.
    setTimeout(release, 100)
    await Promise.all([stale, fresh])
    expect(registry.findKey(KEY)?.id).toBe('key_reload')
  })
})
