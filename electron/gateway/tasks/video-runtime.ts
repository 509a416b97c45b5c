import type { Registry } from '../registry.js'
import type { Services } from '../services.js'
import type { Store } from '../store/index.js'

/** How video tasks are submitted and polled. Tests shorten every interval; the defaults suit real vendors. */
export interface VideoPollOptions {
  /** false: no background loop (tasks are polled only when `pollVideoTask` is called) */
  enabled: boolean
  /** first delay between polls of a task; doubles per poll (with ±20 % jitter) up to `maxIntervalMs` */
  intervalMs: number
  maxIntervalMs: number
  /** one poll (or file-step) call may take this long before it counts as "try again later" */
  timeoutMs: number
  /** polls (and downloads) under way at once */
  concurrency: number
  /** the vendor create call may take this long */
  submitTimeoutMs: number
  /** a task still unfinished this long after submission ends as failed `task_expired`, unbilled (vendor ids expire in 1–2 days) */
  maxAgeMs: number
  /** one saved video: at most this many bytes, streamed to disk */
  maxVideoBytes: number
  /** one download may take this long */
  downloadTimeoutMs: number
  /** downloads of a finished task are tried this many times before its vendor link stays the only copy */
  downloadAttempts: number
  /**
   * a claimed poll's lease: other pollers (replicas) leave the task alone this long, renewed every third of it while
   * the poll runs; a claim nothing renews lapses (in team mode a dead replica's claims come back sooner, with the
   * sweep of its work: store/tasks.ts `resumeOrphaned`)
   */
  leaseMs: number
  /**
   * At start every unfinished task is due at once, leases included (one process: any lease is a dead run's). False in
   * team mode, where a lease may be a live replica's poll: a dead replica's claims are handed back by team mode's sweep.
   */
  resumeOnStart: boolean
}

export const DEFAULT_VIDEO_POLL: VideoPollOptions = {
  enabled: true,
  intervalMs: 2_000,
  maxIntervalMs: 30_000,
  timeoutMs: 30_000,
  concurrency: 8,
  submitTimeoutMs: 60_000,
  maxAgeMs: 48 * 3_600_000,
  maxVideoBytes: 2 * 1024 ** 3,
  downloadTimeoutMs: 30 * 60_000,
  downloadAttempts: 6,
  leaseMs: 5 * 60_000,
  resumeOnStart: true,
}

/**
 * Options from the gateway options, with environment overrides for a headless run: `GATEHOUSE_VIDEO_POLL_MS` (first
 * poll interval) and `GATEHOUSE_VIDEO_LEASE_MS` (a claimed poll's lease: how long a claim nothing renews holds its task).
 */
export function videoPollOptions(given: Partial<VideoPollOptions> | undefined, env: NodeJS.ProcessEnv = process.env): VideoPollOptions {
  const fromEnv = Number(env.GATEHOUSE_VIDEO_POLL_MS)
  const interval = Number.isFinite(fromEnv) && fromEnv > 0 ? { intervalMs: fromEnv, maxIntervalMs: Math.max(fromEnv, Math.min(fromEnv * 15, DEFAULT_VIDEO_POLL.maxIntervalMs)) } : {}
  const leaseFromEnv = Number(env.GATEHOUSE_VIDEO_LEASE_MS)
  const lease = Number.isFinite(leaseFromEnv) && leaseFromEnv > 0 ? { leaseMs: leaseFromEnv } : {}
  return { ...DEFAULT_VIDEO_POLL, ...interval, ...lease, ...given }
}

/** What the routes need of the running poller. */
export interface VideoRuntime {
  options: VideoPollOptions
  /** a new task is due: look now rather than at the next tick */
  wake(): void
}

// The poller belongs to one gateway's services; routes find it here without widening Services.
const runtimes = new WeakMap<Services, VideoRuntime>()

export const setVideoRuntime = (services: Services, runtime: VideoRuntime | undefined): void => {
  if (runtime) runtimes.set(services, runtime)
  else runtimes.delete(services)
}

/** Video tasks whose vendor call is under way in this process: the poller must wait for them, however long failover takes. */
export const submissionsUnderWay = new Set<string>()

export const videoRuntime = (services: Services): VideoRuntime =>
  runtimes.get(services) ?? { options: DEFAULT_VIDEO_POLL, wake: () => {} }

/**
 * The in-memory account mirror (what /v1/usage and ensureFunds read) set from the store after a reservation,
 * settlement or release, with the charges still queued counted on top (registry.readBalances).
 */
export async function syncAccount(store: Store, registry: Registry): Promise<void> {
  await registry.readBalances(
    () => Promise.all([store.account.get(), store.upstreams.all()]),
    ([account, upstreams], queued) => {
      registry.account.budgetNano = account.budget_nano
      registry.mirrorStored({ account, upstreams }, queued)
    },
  )
}
