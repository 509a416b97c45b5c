import type { PersistStorage, StorageValue } from 'zustand/middleware'
import { STATE_NAMES, type StateName } from '../../shared/admin'
import { admin } from '../api/admin'

export type PersistedDocs = Partial<Record<StateName, unknown>>

/**
 * zustand `persist` storage backed by the gateway's store (`/admin/v1/state/{name}`), not localStorage:
 * the app's origin changes with its port, and the store is where the user's data already lives.
 * The persisted state is split into one document per panel; only documents that changed are written,
 * at most once per `delayMs`, so typing in one conversation does not re-upload the image history.
 */
export function gatewayStorage(delayMs = 400): PersistStorage<PersistedDocs> & { flush(): Promise<void> } {
  const saved = new Map<StateName, string>()
  let pending: PersistedDocs | undefined
  let timer: ReturnType<typeof setTimeout> | undefined

  async function write(): Promise<void> {
    timer = undefined
    const docs = pending
    pending = undefined
    if (!docs) return
    await Promise.all(
      STATE_NAMES.map(async (name) => {
        if (!(name in docs)) return
        const text = JSON.stringify(docs[name])
        if (saved.get(name) === text) return
        saved.set(name, text)
        await admin.saveState(name, docs[name]).catch(() => saved.delete(name))
      }),
    )
  }

  return {
    async getItem() {
      const values = await Promise.all(STATE_NAMES.map((name) => admin.loadState(name)))
      const state: PersistedDocs = {}
      STATE_NAMES.forEach((name, i) => {
        if (values[i] === undefined) return
        state[name] = values[i]
        saved.set(name, JSON.stringify(values[i]))
      })
      return { state, version: 0 } satisfies StorageValue<PersistedDocs>
    },
    setItem(_name, value) {
      pending = value.state
      timer ??= setTimeout(() => void write(), delayMs)
    },
    removeItem() {},
    async flush() {
      if (timer) clearTimeout(timer)
      await write()
    },
  }
}

/** The app's one persistence storage: the store persists through it, and a slice flushes it before a step that must survive a crash. */
export const storage = gatewayStorage()
