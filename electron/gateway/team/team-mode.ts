import type pg from 'pg'
import { removeOrphanedMediaParts } from '../media/media-files.js'
import type { Services } from '../services.js'
import { listenChanges, type ChangeListener } from '../store/pg-notify.js'
import { renewLeases } from '../store/pg-leases.js'
import { failOrphanedImageTasks } from '../tasks/image-tasks.js'
import { videoRuntime } from '../tasks/video-runtime.js'
import type { LeaseLimiter } from './lease-limiter.js'
import { registrySync } from './registry-sync.js'

/** The lease time when config `team.leaseSeconds` does not say: a dead replica's slots and work come back within it. */
export const DEFAULT_LEASE_SECONDS = 15
/** Balances and spend moved by other replicas are read back this often. */
export const MONEY_REFRESH_MS = 1_000
/** The sweep for a dead replica's work runs at least this often (more often with a shorter lease). */
const SWEEP_MS = 5_000

export interface TeamMode {
  /** timers, listener and heartbeat stopped; this replica's leases given back */
  stop(): Promise<void>
}

/**
 * What makes one replica of several on a PostgreSQL database act as part of one gateway: a heartbeat that renews
 * its leases and says it is alive (every ttl/3); a sweep, at start and then every few seconds, that settles the
 * streams, fails the image tasks, releases the holds, hands the video tasks (polls under way, unaccepted submissions)
 * to the pollers and removes the unfinished media writes of replicas no longer seen;
 * a reload of the registry on every change notice; and a read of the money other replicas moved, every second.
 */
export async function startTeamMode(services: Services, opts: { pool: pg.Pool; limiter: LeaseLimiter; ttlMs: number }): Promise<TeamMode> {
  const { store, registry, log } = services
  const { ttlMs } = opts

  const heartbeat = () => renewLeases(store.sql, store.replica, ttlMs)
  const sweep = async () => {
    const streams = await store.ledger.settleOrphaned(ttlMs)
    const images = await failOrphanedImageTasks(services, ttlMs)
    const videos = await store.tasks.video.resumeOrphaned(Date.now(), ttlMs)
    const holds = await store.holds.releaseOrphaned(ttlMs)
    const parts = await removeOrphanedMediaParts(store.sql, ttlMs)
    // Polled at once (here, when this replica's poller runs), not at its next tick.
    if (videos > 0) videoRuntime(services).wake()
    if (streams + images + videos + holds + parts > 0) {
      log(`[gatehouse] team mode: settled ${streams} stream(s), failed ${images} image task(s), resumed ${videos} video task(s), released ${holds} hold(s) and removed ${parts} unfinished media write(s) a stopped replica left`)
    }
  }
  // Seen before the first sweep, so that no other replica's sweep takes this one for dead.
  await heartbeat()
  await sweep()

  const sync = registrySync(registry, log)
  const listener: ChangeListener = await listenChanges(opts.pool, () => sync.changed(), log)
  // Timed work under way (one of each at a time), awaited at stop so nothing runs on a closed pool.
  const underWay = new Set<Promise<unknown>>()
  const every = (ms: number, what: string, work: () => Promise<unknown>) => {
    let busy = false
    const timer = setInterval(() => {
      if (busy) return
      busy = true
      const done: Promise<unknown> = work()
        .catch((err: unknown) => log(`[gatehouse] team mode: ${what} failed: ${(err as Error).message}`))
        .finally(() => {
          busy = false
          underWay.delete(done)
        })
      underWay.add(done)
    }, ms)
    timer.unref()
    return timer
  }
  const timers = [
    every(Math.max(100, Math.floor(ttlMs / 3)), 'heartbeat', heartbeat),
    every(Math.min(SWEEP_MS, ttlMs), 'sweep of stopped replicas', sweep),
    setInterval(() => sync.refreshMoney(), MONEY_REFRESH_MS).unref(),
  ]

  return {
    async stop() {
      for (const timer of timers) clearInterval(timer)
      await Promise.all(underWay)
      await listener.close()
      await sync.stop()
      await opts.limiter.releaseAll()
    },
  }
}
