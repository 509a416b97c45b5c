import { gatewayError, type GatewayError } from '../errors.js'
import type { ApiKey } from '../contract/accounts.js'

/**
 * Request bodies held in memory at once, gateway-wide (config `limits.bodyBytes`): room for five bodies of the
 * 60 MB limit (the account's default concurrency) and the small ones around them.
 */
export const DEFAULT_BODY_BYTES = 320 * 1024 * 1024

// Spec §7 rule 4: a 429 (and this 503) says when to retry. Like a 413, the rest of the upload is dropped (bounded)
// before the answer, and the connection closes after it.
const RETRY_HEADERS = { 'retry-after': '1', 'retry-after-ms': '1000', connection: 'close' }

/** The 429 of a key whose bodies in flight would pass its byte budget. */
export const keyBodyLimitError = (limit: number): GatewayError => gatewayError('apikey_body_limit', 'apikey_body_limit', { limit }, { headers: RETRY_HEADERS })

/** The 503 of a gateway already holding `limits.bodyBytes` of bodies. */
export const gatewayBodyLimitError = (limit: number): GatewayError => gatewayError('gateway_body_limit', 'gateway_body_limit', { limit }, { headers: RETRY_HEADERS })

/** The bytes one request's body holds, charged to its key (if any) and to the gateway. */
export interface BodyHold {
  /** adds `bytes` to the hold; throws the key's 429 or the gateway's 503, holding nothing more, when they do not fit */
  grow(bytes: number): void
  /** gives back all but `bytes` of the hold (a body taken at the most it could be, once its size is known) */
  keep(bytes: number): void
  /** gives every byte back; safe to call more than once, and the first call is the one that counts */
  readonly release: () => void
}

export interface BodyBudget {
  /** an empty hold for one request's body; `key` undefined (admin and public routes): the gateway's budget only */
  hold(key: ApiKey | undefined): BodyHold
  /** bytes held now: the gateway's, or one key's */
  held(keyId?: string): number
}

/**
 * Counts the request bodies being read and held, from before the first byte is read until the request is done.
 * Each key may hold `keyBytes(key)`, the gateway `totalBytes`; what does not fit is refused at once (nothing is
 * queued), so the memory bodies take is bounded before they are read. In memory, per process.
 */
export function createBodyBudget(totalBytes: number, keyBytes: (key: ApiKey) => number): BodyBudget {
  let total = 0
  const byKey = new Map<string, number>()

  function take(key: ApiKey | undefined, bytes: number): void {
    if (key !== undefined) {
      const limit = keyBytes(key)
      const held = byKey.get(key.id) ?? 0
      if (held + bytes > limit) throw keyBodyLimitError(limit)
      if (total + bytes > totalBytes) throw gatewayBodyLimitError(totalBytes)
      byKey.set(key.id, held + bytes)
    } else if (total + bytes > totalBytes) throw gatewayBodyLimitError(totalBytes)
    total += bytes
  }

  function give(key: ApiKey | undefined, bytes: number): void {
    total -= bytes
    if (key === undefined) return
    const left = (byKey.get(key.id) ?? bytes) - bytes
    if (left === 0) byKey.delete(key.id)
    else byKey.set(key.id, left)
  }

  class Hold implements BodyHold {
    private bytes = 0
    private released = false
    constructor(private readonly key: ApiKey | undefined) {}

    grow(bytes: number): void {
      // A request already done holds nothing more.
      if (this.released) return
      take(this.key, bytes)
      this.bytes += bytes
    }

    keep(bytes: number): void {
      if (this.released || bytes >= this.bytes) return
      give(this.key, this.bytes - bytes)
      this.bytes = bytes
    }

    readonly release = (): void => {
      if (this.released) return
      this.released = true
      give(this.key, this.bytes)
    }
  }

  return {
    hold: (key) => new Hold(key),
    held: (keyId) => (keyId === undefined ? total : (byKey.get(keyId) ?? 0)),
  }
}

/**
 * A key's byte budget: its concurrency cap (the lower of its own and the account's, as in limits.ts) times
 * `bodyLimit`, the most one request may send. A key capped at 1 holds at most one full-size body at a time.
 */
export function keyBodyBytes(key: ApiKey, accountConcurrency: number, bodyLimit: number): number {
  const cap = key.concurrency !== null && key.concurrency < accountConcurrency ? key.concurrency : accountConcurrency
  return cap * bodyLimit
}
