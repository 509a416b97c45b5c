import { gatewayError } from '../errors.js'
import { concurrencyLimitError, type ConcurrencyLimiter, type Release } from '../limits.js'
import type { Registry } from '../registry.js'
import { acquireLeaseSeeingLimits, liveLeases } from '../store/pg-leases.js'
import type { Sql } from '../store/sql.js'

/** How long a request refused a slot waits for this replica's releases under way before it is answered 429. */
export const RELEASE_WAIT_MS = 1_000

export interface LeaseLimiter extends ConcurrencyLimiter {
  acquire(...args: Parameters<ConcurrencyLimiter['acquire']>): Promise<Release>
  /** at close: every lease this replica still holds is given back, after the releases under way */
  releaseAll(): Promise<void>
  settled(): Promise<void>
}

/**
 * Team mode's caps (spec §8), exact across replicas: each request holds a lease row in the shared database
 * (store/pg-leases.ts), renewed by the replica's heartbeat, so a dead replica's slots lapse within one lease time.
 * The same 429s as one process; a database that cannot be reached is a 503 `shared_store_unavailable`.
 */
export function createLeaseLimiter(opts: {
  sql: Sql
  replica: string
  registry: Registry
  ttlMs: number
  log: (line: string) => void
  /** gives leases back in one round trip: the ledger's next commit, which carries the requests' rows too (store/ledger.ts) */
  giveBack: (leaseIds: readonly string[]) => Promise<void>
}): LeaseLimiter {
  const { sql, replica, registry, ttlMs, log, giveBack } = opts
  let held = 0
  const heldByKey = new Map<string, number>()
  // Whether each live lease's request saw a spending limit in the database when it took its slot.
  const limitsByLease = new Map<string, boolean>()
  const releasing = new Set<Promise<void>>()
  const settled = async () => {
    await Promise.all(releasing)
  }
  const releasesOrDeadline = async () => {
    let timer: NodeJS.Timeout | undefined
    await Promise.race([settled(), new Promise<void>((resolve) => (timer = setTimeout(resolve, RELEASE_WAIT_MS)))])
    clearTimeout(timer)
  }
  // The releases of requests that end in the same turn of the event loop go in one round trip, with their ledger rows.
  let queued: string[] = []
  let batch: Promise<void> | undefined
  const release = (leaseId: string): void => {
    queued.push(leaseId)
    if (batch !== undefined) return
    const done: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => {
        const ids = queued
        queued = []
        batch = undefined
        // Not awaited by the requests: a release that fails is retried with the ledger's next commit, and a lease
        // never given back lapses at its expiry (no heartbeat renews it).
        return giveBack(ids).catch((err: unknown) => log(`[gatehouse] ${ids.length} concurrency lease(s) not released yet (retried, else they lapse): ${(err as Error).message}`))
      })
      .finally(() => releasing.delete(done))
    batch = done
    releasing.add(done)
  }
  const take = async (keyId: string, keyCap: number | null, leaseId: string, accountCap: number) => {
    try {
      const seen = await acquireLeaseSeeingLimits(sql, { leaseId, replica, keyId, keyCap, accountCap, ttlMs })
      if (seen.outcome === 'ok') limitsByLease.set(leaseId, seen.limited)
      return seen.outcome
    } catch (err) {
      log(`[gatehouse] ${leaseId} concurrency lease failed: ${(err as Error).message}`)
      throw gatewayError('shared_store_unavailable', 'shared_store_unavailable', {}, { headers: { 'retry-after': '1', 'retry-after-ms': '1000' } })
    }
  }
  return {
    async acquire(key, leaseId) {
      const accountCap = registry.account.concurrency
      let outcome = await take(key.id, key.concurrency, leaseId, accountCap)
      // The slot refused may be one this replica is giving back (a release goes out after its answer): a client's next
      // call right after its last answer waits for those releases, at most RELEASE_WAIT_MS, and asks once more. (One
      // under way on another replica is not seen: there the next call may still be refused for that moment.)
      if (outcome !== 'ok' && releasing.size > 0) {
        await releasesOrDeadline()
        outcome = await take(key.id, key.concurrency, leaseId, accountCap)
      }
      if (outcome === 'key') throw concurrencyLimitError('key', key.concurrency!)
      if (outcome === 'account') throw concurrencyLimitError('account', accountCap)
      held++
      heldByKey.set(key.id, (heldByKey.get(key.id) ?? 0) + 1)
      let released = false
      return () => {
        if (released) return
        released = true
        limitsByLease.delete(leaseId)
        held--
        const left = (heldByKey.get(key.id) ?? 1) - 1
        if (left === 0) heldByKey.delete(key.id)
        else heldByKey.set(key.id, left)
        release(leaseId)
      }
    },
    limitsSeen: (leaseId) => limitsByLease.get(leaseId),
    inFlight: () => held,
    inFlightByKey: () => heldByKey,
    clusterInFlight: () => liveLeases(sql),
    settled,
    async releaseAll() {
      await settled()
      await sql.run('DELETE FROM leases WHERE replica = ?', [replica])
    },
  }
}
