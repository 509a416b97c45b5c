import { gatewayError } from './errors.js'
import type { ApiKey, Registry } from './registry.js'

const RETRY_HEADERS = { 'retry-after': '1', 'retry-after-ms': '1000' }

/**
 * Spec §8: in-flight caps for the account and for each key; over either, an immediate 429, nothing queued.
 * `acquire` returns the release function, which is safe to call more than once.
 */
export function createConcurrencyLimiter(registry: Registry) {
  let accountInFlight = 0
  const keyInFlight = new Map<string, number>()
  return {
    acquire(key: ApiKey): () => void {
      const keyCount = keyInFlight.get(key.id) ?? 0
      const accountLimit = registry.account.concurrency
      // The lower cap applies; when the key's own cap is the binding one, say so.
      if (key.concurrency !== null && key.concurrency <= accountLimit && keyCount >= key.concurrency) {
        throw gatewayError('apikey_concurrency_limit', 'apikey_concurrency_limit', { limit: key.concurrency }, { headers: RETRY_HEADERS })
      }
      if (accountInFlight >= accountLimit) {
        throw gatewayError('user_concurrency_limit', 'user_concurrency_limit', { limit: accountLimit }, { headers: RETRY_HEADERS })
      }
      accountInFlight++
      keyInFlight.set(key.id, keyCount + 1)
      let released = false
      return () => {
        if (released) return
        released = true
        accountInFlight--
        const left = (keyInFlight.get(key.id) ?? 1) - 1
        if (left === 0) keyInFlight.delete(key.id)
        else keyInFlight.set(key.id, left)
      }
    },
    inFlight: () => accountInFlight,
  }
}

export type ConcurrencyLimiter = ReturnType<typeof createConcurrencyLimiter>
