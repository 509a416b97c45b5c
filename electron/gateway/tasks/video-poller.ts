import { GatewayError } from '../errors.js'
import { readAnswer, withDeadline } from '../upstreams/http.js'
import type { Services } from '../services.js'
import type { VideoTaskRow } from '../store/tasks.js'
import type { UpstreamCtx } from '../contract/upstream.js'
import { videoAdapterFor, type VideoAdapter, type VideoPoll } from '../upstreams/video/index.js'
import { videoCopiesSettled, videoCopiesStarting } from './video-copies.js'
import { saveTaskVideos } from './video-download.js'
import { endUnbilled, settleSucceeded } from './video-settle.js'
import { submissionsUnderWay, setVideoRuntime, type VideoPollOptions } from './video-runtime.js'

/** What one poll of a task did. */
export type PollOutcome =
  | 'pending'   // still queued or running (or the poll failed: tried again later)
  | 'settled'   // this call ended the task (billed, or released)
  | 'already'   // the task had been ended by someone else meanwhile: nothing done
  | 'saved'     // the videos of a succeeded task are now in the data dir
  | 'idle'      // nothing to do (unknown task, or no download pending)

/** The next delay: `intervalMs` doubled per attempt up to `maxIntervalMs`, ±20 % jitter so that tasks spread out. */
export function backoffMs(attempts: number, opts: Pick<VideoPollOptions, 'intervalMs' | 'maxIntervalMs'>): number {
  const base = Math.min(opts.maxIntervalMs, opts.intervalMs * 2 ** Math.min(attempts, 20))
  return Math.round(base * (0.8 + Math.random() * 0.4))
}

const unknownReason = (err: unknown): string => (err instanceof Error ? err.message : String(err))

/** One poll call (and MiniMax's file step): any failure, timeout included, is thrown to mean "try again later". */
async function fetchPoll(services: Services, adapter: VideoAdapter, uctx: UpstreamCtx, vendorTaskId: string, opts: VideoPollOptions, signal: AbortSignal): Promise<VideoPoll> {
  const call = async (spec: ReturnType<VideoAdapter['toPoll']>): Promise<unknown> => {
    // The call's deadline covers the answer's body too: a timer cleared once it is read.
    const deadline = withDeadline(signal, opts.timeoutMs)
    let res, text
    try {
      res = await services.http.send(spec, deadline.signal)
      text = (await readAnswer(res)).toString('utf8')
    } finally {
      deadline.clear()
    }
    if (res.statusCode < 200 || res.statusCode >= 300) throw adapter.fromError(res.statusCode, text)
    return text === '' ? undefined : JSON.parse(text)
  }
  const poll = adapter.fromPoll(await call(adapter.toPoll(vendorTaskId, uctx, Math.floor(Date.now() / 1000))))
  if (poll.state !== 'succeeded' || poll.fileId === undefined || poll.videoUrls.length > 0) return poll
  const url = adapter.fromFile!(await call(adapter.toFile!(poll.fileId, uctx, Math.floor(Date.now() / 1000))))
  return { ...poll, videoUrls: [url] }
}

/**
 * Not a vendor answer (timeout, connection error, 5xx, an unreadable body): never a failure by itself, the task
 * is polled again after its backoff. Only a task past `maxAgeMs` is given up, unbilled.
 */
async function retryLater(services: Services, task: VideoTaskRow, opts: VideoPollOptions, reason: string, signal: AbortSignal, log: (l: string) => void): Promise<PollOutcome> {
  if (signal.aborted) {
    // The gateway is stopping: due again at the next start, no attempt counted.
    await services.store.tasks.video.schedule(task.id, Date.now(), task.poll_attempts)
    return 'pending'
  }
  if (Date.now() - task.created_at > opts.maxAgeMs) {
    await endUnbilled(services, task, 'failed', { code: 'task_expired', message: `no final answer from the vendor within ${Math.round(opts.maxAgeMs / 3_600_000)} hours (${reason})` })
    return 'settled'
  }
  log(`[gatehouse] video task ${task.id}: poll failed, trying again later: ${reason}`)
  await services.store.tasks.video.schedule(task.id, Date.now() + backoffMs(task.poll_attempts, opts), task.poll_attempts + 1)
  return 'pending'
}

/** A task whose vendor call has not answered: wait for it, then take it as interrupted (its process died mid-call). */
async function pendingSubmission(services: Services, task: VideoTaskRow, opts: VideoPollOptions): Promise<PollOutcome> {
  const deadline = task.created_at + 2 * opts.submitTimeoutMs
  if (Date.now() < deadline || submissionsUnderWay.has(task.id)) {
    await services.store.tasks.video.schedule(task.id, Math.max(deadline, Date.now() + opts.submitTimeoutMs), task.poll_attempts)
    return 'pending'
  }
  const won = await endUnbilled(services, task, 'failed', { code: 'task_interrupted', message: 'The gateway stopped before the vendor accepted the video; submit it again.' })
  return won ? 'settled' : 'already'
}

/**
 * The download stage of a succeeded task: retried with backoff, then given up (the vendor link stays in the result);
 * each copy's state (saving, failed and why, retrying, kept) is tracked for the app (tasks/video-copies.ts).
 */
async function downloadStage(services: Services, task: VideoTaskRow, opts: VideoPollOptions, signal: AbortSignal, log: (l: string) => void): Promise<PollOutcome> {
  if (task.status !== 'succeeded') {
    await services.store.tasks.video.schedule(task.id, null, 0)
    return 'idle'
  }
  videoCopiesStarting(services, task, new Set((await services.store.media.byRequest(task.id)).map((m) => m.id)))
  try {
    await saveTaskVideos(services, task, opts, signal)
  } catch (err) {
    const attempts = task.poll_attempts + 1
    const giveUp = !signal.aborted && attempts >= opts.downloadAttempts
    log(`[gatehouse] video task ${task.id}: could not keep the video (attempt ${attempts}): ${unknownReason(err)}`)
    const next = giveUp ? null : signal.aborted ? Date.now() : Date.now() + backoffMs(attempts, opts)
    await services.store.tasks.video.schedule(task.id, next, signal.aborted ? task.poll_attempts : attempts)
    await videoCopiesSettled(services, task, err, next)
    return 'pending'
  }
  await services.store.tasks.video.schedule(task.id, null, 0)
  await videoCopiesSettled(services, task, undefined, null)
  return 'saved'
}

/**
 * Polls one video task once and acts on the answer: progress, settlement of a success, release of a failure or
 * cancellation, or "later". Safe to run twice at once for the same task (two pollers, two processes): the end of a
 * task happens in one transaction guarded by `settled = 0`, so only one call bills or releases.
 */
export async function pollVideoTask(services: Services, id: string, opts: VideoPollOptions, signal: AbortSignal = new AbortController().signal, log: (l: string) => void = () => {}): Promise<PollOutcome> {
  const task = await services.store.tasks.video.get(id)
  if (!task) return 'idle'
  if (task.settled) return task.next_poll_at === null ? 'idle' : downloadStage(services, task, opts, signal, log)
  if (task.vendor_task_id === null || task.upstream_id === null) return pendingSubmission(services, task, opts)
  const upstream = services.registry.upstreams.get(task.upstream_id)
  const model = services.registry.catalog.get(task.model)
  const adapter = upstream && videoAdapterFor(upstream.vendor)
  if (!upstream || !model || !adapter) return retryLater(services, task, opts, `account ${task.upstream_id} or model ${task.model} is no longer configured`, signal, log)
  let poll: VideoPoll
  try {
    poll = await fetchPoll(services, adapter, { upstream, model }, task.vendor_task_id, opts, signal)
  } catch (err) {
    return retryLater(services, task, opts, err instanceof GatewayError ? `HTTP ${err.status} ${err.code}: ${err.message}` : unknownReason(err), signal, log)
  }
  switch (poll.state) {
    case 'queued': case 'running':
      if (Date.now() - task.created_at > opts.maxAgeMs) return retryLater(services, task, opts, `still ${poll.vendorState}`, signal, log)
      await services.store.tasks.video.progress({
        id, status: poll.state, progress: poll.progress ?? null, vendor_status: poll.vendorState,
        next_poll_at: Date.now() + backoffMs(task.poll_attempts, opts), poll_attempts: task.poll_attempts + 1,
      })
      return 'pending'
    case 'succeeded':
      return (await settleSucceeded(services, task, poll.videoUrls, poll.seconds, poll.vendorState)) ? 'settled' : 'already'
    default:
      return (await endUnbilled(services, task, poll.state, poll.error, poll.vendorState)) ? 'settled' : 'already'
  }
}

export interface VideoPoller {
  /** stops the loop; polls under way are aborted and awaited (their tasks are due again at the next start) */
  stop(): Promise<void>
  /** runs one round now (also when the loop is disabled: tests drive it so) */
  tick(): Promise<void>
  /** tasks being polled right now */
  active(): number
}

/**
 * The background poller: one timer-driven loop that claims due tasks (up to `concurrency` at once, each leased in
 * the store, the lease renewed while its poll runs) and polls them concurrently, each on its own backoff. On start every unfinished task is due at once,
 * so a restart resumes them. Registered as the gateway's video runtime, so that a new task wakes it.
 */
export async function startVideoPoller(services: Services, opts: VideoPollOptions, log: (l: string) => void): Promise<VideoPoller> {
  const stopping = new AbortController()
  const active = new Map<string, Promise<unknown>>()
  // The polls under way: the lease each task's claim (or its last renewal) set in the store.
  const claims = new Map<string, number>()
  const tickMs = Math.min(opts.intervalMs, 1_000)
  let timer: NodeJS.Timeout | undefined
  // The round under way (one at a time, so claims never exceed `concurrency`), and whether another was asked for meanwhile.
  let round: Promise<void> | undefined
  let again = false

  const schedule = (ms: number) => {
    if (!opts.enabled || stopping.signal.aborted) return
    if (timer) clearTimeout(timer)
    timer = setTimeout(() => void run(), ms).unref()
  }
  function run(): Promise<void> {
    timer = undefined
    if (stopping.signal.aborted) return Promise.resolve()
    if (round) {
      again = true
      return round
    }
    round = claimRounds().finally(() => {
      round = undefined
      schedule(tickMs)
    })
    return round
  }
  async function claimRounds(): Promise<void> {
    do {
      again = false
      const free = opts.concurrency - active.size
      if (free <= 0) return
      const now = Date.now()
      try {
        // Launched even when stopping began meanwhile: an aborted poll puts its task back, due at once.
        for (const id of await services.store.tasks.video.claimDue(now, free, now + opts.leaseMs, new Set(active.keys()))) launch(id, now + opts.leaseMs)
      } catch (err) {
        log(`[gatehouse] video poller could not claim tasks: ${(err as Error).message}`)
        return
      }
    } while (again && !stopping.signal.aborted)
  }
  function launch(id: string, lease: number): void {
    claims.set(id, lease)
    const poll = pollVideoTask(services, id, opts, stopping.signal, log)
      .catch((err: unknown) => log(`[gatehouse] video task ${id}: ${(err as Error)?.stack ?? String(err)}`))
      .finally(() => {
        active.delete(id)
        claims.delete(id)
        schedule(0) // a slot is free: the next due task need not wait for the tick
      })
    active.set(id, poll)
  }
  // A poll or download that outlasts its lease keeps its claim: renewed every third of a lease while it runs, so
  // another replica's poller never takes a live one's task (a dead replica's claims are team mode's sweep's to give back).
  let renewing: Promise<void> | undefined
  async function renewClaims(): Promise<void> {
    const sent = new Map(claims)
    const leaseUntil = Date.now() + opts.leaseMs
    try {
      for (const id of await services.store.tasks.video.renewClaims(sent, leaseUntil)) {
        if (claims.get(id) === sent.get(id)) claims.set(id, leaseUntil)
      }
    } catch (err) {
      log(`[gatehouse] video poller could not renew its claims: ${(err as Error).message}`)
    }
  }
  const renewTimer = setInterval(() => {
    if (renewing || claims.size === 0 || stopping.signal.aborted) return
    renewing = renewClaims().finally(() => (renewing = undefined))
  }, Math.max(10, Math.floor(opts.leaseMs / 3))).unref()

  if (opts.resumeOnStart) await services.store.tasks.video.resumeAll(Date.now())
  setVideoRuntime(services, { options: opts, wake: () => schedule(0) })
  schedule(0)
  return {
    async stop() {
      stopping.abort()
      if (timer) clearTimeout(timer)
      clearInterval(renewTimer)
      setVideoRuntime(services, undefined)
      await round
      await Promise.allSettled([...active.values()])
      await renewing
    },
    tick: () => run(),
    active: () => active.size,
  }
}
