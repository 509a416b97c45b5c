import { gatewayError, type GatewayError } from './errors.js'
import type { ApiKey } from './contract/accounts.js'
import type { Registry } from './registry.js'
import type { HoldAsked, HoldTaken } from './store/holds.js'

const RETRY_HEADERS = { 'retry-after': '1', 'retry-after-ms': '1000' }

/** Gives a slot back; safe to call more than once. */
export type Release = () => void

/** One release for two holds (a request's body bytes and its slot): the first call gives both back, later ones nothing. */
export function releasingBoth(first: Release, second: Release): Release {
  let released = false
  return () => {
    if (released) return
    released = true
    first()
    second()
  }
}

/** The request holds its slot from now on: `ctx.release` gives it back, with the body's bytes when they are held. */
export function holdSlot(ctx: { release?: Release }, release: Release): void {
  ctx.release = ctx.release === undefined ? release : releasingBoth(ctx.release, release)
}

/** Takes the request's deferred slot (team mode) on its own, when it has one not taken yet; the cap's 429 if full. */
export async function takeSlot(ctx: { slot?: DeferredSlot; release?: Release }): Promise<void> {
  const slot = ctx.slot
  if (slot === undefined) return
  ctx.slot = undefined
  holdSlot(ctx, await slot.take())
}

/**
 * Spec §8: in-flight caps for the account and for each key; over either, an immediate 429, nothing queued.
 * One process (SQLite) counts in memory and answers at once; team mode's limiter (team/lease-limiter.ts) takes a
 * lease in the shared database and answers a promise. The caller awaits only a promise, so the default path
 * gains no turn of the event loop.
 */
export interface ConcurrencyLimiter {
  /** `leaseId` names the slot across replicas (the request id) */
  acquire(key: ApiKey, leaseId: string): Release | Promise<Release>
  /**
   * Team mode: whether the database had any spending limit for the key (account budget, key quota, an upstream
   * account's budget) when request `leaseId` took its slot, read in the same round trip; undefined when not known.
   */
  limitsSeen?(leaseId: string): boolean | undefined
  /**
   * Team mode: the slot of request `leaseId`, taken later by its admission (admission.ts): with its hold, in one round
   * trip, or alone before anything else is held. One process has none: its slots cost no round trip.
   */
  defer?(key: ApiKey, leaseId: string): DeferredSlot
  /** requests holding a slot in this process */
  inFlight(): number
  /** the same, by key id (keys with none are absent) */
  inFlightByKey(): ReadonlyMap<string, number>
  /** requests holding a slot in every process that shares the caps (team mode: every replica); else inFlight() */
  clusterInFlight?(): Promise<number>
  /**
   * Resolves once the slots given back are free for the next request too (a team lease's row is deleted after its
   * request ended; a key's next request meanwhile may still be refused).
   */
  settled?(): Promise<void>
}

/** A slot not taken yet (ConcurrencyLimiter.defer); each of its ways takes it once, or throws the cap's 429. */
export interface DeferredSlot {
  /** the slot alone */
  take(): Promise<Release>
  /**
   * The slot and the request's hold in one round trip: `release` gives the slot back; absent when the hold was
   * refused (then no slot is held either, and the slot may be taken again).
   */
  takeWithHold(hold: HoldAsked): Promise<{ taken: HoldTaken; release?: Release }>
}

/** The 429 of a full cap: the key's own (when it binds) or the account's. */
export function concurrencyLimitError(which: 'key' | 'account', limit: number): GatewayError {
  return which === 'key'
    ? gatewayError('apikey_concurrency_limit', 'apikey_concurrency_limit', { limit }, { headers: RETRY_HEADERS })
    : gatewayError('user_concurrency_limit', 'user_concurrency_limit', { limit }, { headers: RETRY_HEADERS })
}

/** The caps of one process, counted in memory. */
export function createConcurrencyLimiter(registry: Registry): ConcurrencyLimiter {
  let accountInFlight = 0
  const keyInFlight = new Map<string, number>()
  return {
    acquire(key: ApiKey): Release {
      const keyCount = keyInFlight.get(key.id) ?? 0
      const accountLimit = registry.account.concurrency
      // The lower cap applies; when the key's own cap is the binding one, say so.
      if (key.concurrency !== null && key.concurrency <= accountLimit && keyCount >= key.concurrency) throw concurrencyLimitError('key', key.concurrency)
      if (accountInFlight >= accountLimit) throw concurrencyLimitError('account', accountLimit)
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
    inFlightByKey: () => keyInFlight,
  }
}
