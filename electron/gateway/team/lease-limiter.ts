import { gatewayError } from '../errors.js'
import { concurrencyLimitError, type ConcurrencyLimiter, type DeferredSlot, type Release } from '../limits.js'
import type { ApiKey } from '../contract/accounts.js'
import type { Registry } from '../registry.js'
import { takeLeasesAndHolds, type Admitted, type HoldAsked, type HoldTaken } from '../store/holds.js'
import { GROUP_COMMIT_MS } from '../store/ledger.js'
import { acquireLeaseSeeingLimits, liveLeases, type LeaseOutcome, type LeaseRequest } from '../store/pg-leases.js'
import type { Sql } from '../store/sql.js'

/** How long a request refused (a slot, or funds) waits for this replica's releases under way before its answer. */
export const RELEASE_WAIT_MS = 1_000

/**
 * Releases go out in the ledger's commits at most this often, the cadence its other rows keep: under load each commit
 * carries the rows and leases of every request that ended in the last few milliseconds (one round trip for a handful,
 * and far less of the database's time: a commit's own cost is most of a small one's), and a release after a quiet
 * moment goes at once.
 */
export const RELEASE_SPACING_MS = GROUP_COMMIT_MS

/** The most admissions one round trip takes (the rest go in the next). */
export const ADMISSION_BATCH = 64

/**
 * Admissions (lease and hold) in round trips of their own: one asked for while nothing is in flight (`idle`) goes at
 * once; else those asked for in one turn of the event loop go together at its end (requests whose bodies arrived
 * together); those asked for while a round trip is under way wait for it and go together in the next, at most
 * ADMISSION_BATCH at a time. Every admission locks the account's row (its budget), so they would queue for it in the
 * database anyway: here they queue in one call instead, with one round trip and one commit for the lot. An error of
 * the call is each one's error.
 */
export function admissionBatcher(
  admit: (asked: ReadonlyArray<{ lease: LeaseRequest; hold: HoldAsked }>) => Promise<Admitted[]>,
  idle: () => boolean = () => false,
) {
  type Waiting = { lease: LeaseRequest; hold: HoldAsked; resolve: (a: Admitted) => void; reject: (err: unknown) => void }
  let waiting: Waiting[] = []
  let underWay = false
  const send = (): void => {
    const batch = waiting.slice(0, ADMISSION_BATCH)
    waiting = waiting.slice(batch.length)
    underWay = true
    admit(batch)
      .then((answers) => batch.forEach((w, i) => w.resolve(answers[i])), (err: unknown) => batch.forEach((w) => w.reject(err)))
      .finally(() => {
        underWay = false
        if (waiting.length > 0) send()
      })
  }
  return (lease: LeaseRequest, hold: HoldAsked): Promise<Admitted> =>
    new Promise<Admitted>((resolve, reject) => {
      waiting.push({ lease, hold, resolve, reject })
      if (!underWay) {
        underWay = true
        if (idle()) send()
        else setImmediate(send)
      }
    })
}

export interface LeaseLimiter extends ConcurrencyLimiter {
  acquire(...args: Parameters<ConcurrencyLimiter['acquire']>): Promise<Release>
  defer(key: ApiKey, leaseId: string): DeferredSlot
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
  const admit = admissionBatcher((asked) => takeLeasesAndHolds(sql, asked), () => held === 0)
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
  // The releases of requests that end before the next batch goes out go in one round trip, with their ledger rows:
  // at the end of this turn of the event loop, or RELEASE_SPACING_MS after the last batch went out if that is later.
  let queued: string[] = []
  let batch: Promise<void> | undefined
  let lastSent = -Infinity
  const release = (leaseId: string): void => {
    queued.push(leaseId)
    if (batch !== undefined) return
    const wait = lastSent + RELEASE_SPACING_MS - performance.now()
    const done: Promise<void> = new Promise<void>((resolve) => (wait > 0 ? setTimeout(resolve, wait) : setImmediate(resolve)))
      .then(() => {
        const ids = queued
        queued = []
        batch = undefined
        lastSent = performance.now()
        // Not awaited by the requests: a release that fails is retried with the ledger's next commit, and a lease
        // never given back lapses at its expiry (no heartbeat renews it).
        return giveBack(ids).catch((err: unknown) => log(`[gatehouse] ${ids.length} concurrency lease(s) not released yet (retried, else they lapse): ${(err as Error).message}`))
      })
      .finally(() => releasing.delete(done))
    batch = done
    releasing.add(done)
  }
  /** A database that cannot be reached: 503, logged. */
  const unreachable = (leaseId: string, err: unknown) => {
    log(`[gatehouse] ${leaseId} concurrency lease failed: ${(err as Error).message}`)
    return gatewayError('shared_store_unavailable', 'shared_store_unavailable', {}, { headers: { 'retry-after': '1', 'retry-after-ms': '1000' } })
  }
  /**
   * `call` (a round trip that takes the lease, and the hold with it), once more when what refused it may be what this
   * replica is giving back (a release goes out after its answer, with the ledger rows that settle the holds): a
   * client's next call right after its last answer waits for those releases, at most RELEASE_WAIT_MS. (One under way
   * on another replica is not seen: there the next call may still be refused for that moment.) A slot still refused
   * is the cap's 429; funds still short, the caller's 402.
   */
  const withRetry = async <T extends { outcome: LeaseOutcome; taken?: HoldTaken }>(key: ApiKey, leaseId: string, accountCap: number, call: () => Promise<T>): Promise<T> => {
    const attempt = async () => {
      try {
        return await call()
      } catch (err) {
        throw unreachable(leaseId, err)
      }
    }
    let result = await attempt()
    if ((result.outcome !== 'ok' || result.taken?.kind === 'insufficient') && releasing.size > 0) {
      await releasesOrDeadline()
      result = await attempt()
    }
    if (result.outcome === 'key') throw concurrencyLimitError('key', key.concurrency!)
    if (result.outcome === 'account') throw concurrencyLimitError('account', accountCap)
    return result
  }
  /** The slot `leaseId` is held: counted here, and given back (once) by the release answered. */
  const holding = (key: ApiKey, leaseId: string, limited: boolean): Release => {
    limitsByLease.set(leaseId, limited)
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
  }
  const lease = (key: ApiKey, leaseId: string, accountCap: number) => ({ leaseId, replica, keyId: key.id, keyCap: key.concurrency, accountCap, ttlMs })
  const acquire = async (key: ApiKey, leaseId: string): Promise<Release> => {
    const accountCap = registry.account.concurrency
    const seen = await withRetry(key, leaseId, accountCap, () => acquireLeaseSeeingLimits(sql, lease(key, leaseId, accountCap)))
    return holding(key, leaseId, seen.limited)
  }
  return {
    acquire,
    defer: (key, leaseId) => ({
      take: () => acquire(key, leaseId),
      async takeWithHold(hold: HoldAsked) {
        const accountCap = registry.account.concurrency
        const admitted = await withRetry(key, leaseId, accountCap, async () => {
          const r = await admit(lease(key, leaseId, accountCap), hold)
          return { outcome: r.lease, taken: r.taken }
        })
        const taken = admitted.taken!
        // A hold refused gave its lease back in the same call: no slot is held.
        return taken.kind === 'held' ? { taken, release: holding(key, leaseId, true) } : { taken }
      },
    }),
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
