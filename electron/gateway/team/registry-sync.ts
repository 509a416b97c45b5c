import type { Registry } from '../registry.js'

/** Notices that arrive this close together cause one reload. */
const DEBOUNCE_MS = 50

export interface RegistrySync {
  /** a change notice: reload everything (shortly, once for a burst) */
  changed(): void
  /** the money timer: read balances and spend back */
  refreshMoney(): void
  /** no more work; resolves once the one under way ends */
  stop(): Promise<void>
}

/**
 * Keeps one replica's registry in step with the shared database: reloads after change notices and money refreshes,
 * one at a time (never two reloads at once; a reload also refreshes the money, so a refresh asked meanwhile is dropped).
 */
export function registrySync(registry: Registry, log: (line: string) => void): RegistrySync {
  let reload = false
  let refresh = false
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> | undefined

  const run = (): void => {
    if (running || stopped) return
    running = (async () => {
      while ((reload || refresh) && !stopped) {
        const full = reload
        reload = refresh = false
        try {
          await (full ? registry.reload() : registry.refreshMoney())
        } catch (err) {
          log(`[gatehouse] team mode: ${full ? 'reload after a change' : 'balance refresh'} failed: ${(err as Error).message}`)
        }
      }
    })().finally(() => (running = undefined))
  }

  return {
    changed() {
      reload = true
      timer ??= setTimeout(() => {
        timer = undefined
        run()
      }, DEBOUNCE_MS)
    },
    refreshMoney() {
      refresh = true
      run()
    },
    async stop() {
      stopped = true
      clearTimeout(timer)
      await running
    },
  }
}
