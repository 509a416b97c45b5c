import type { UpstreamAttempt } from '../../../shared/admin.js'
import { clientGone } from '../client/body.js'
import type { AbortedFlag } from '../contract/family.js'
import type { UpstreamAccount } from '../contract/accounts.js'
import { GatewayError } from '../errors.js'
import { Breakers, type Admission, type BreakerOptions } from './breaker.js'
import type { Prober } from './probe.js'
import { exhausted, type UpstreamFailure } from './upstream-failure.js'

/** One account's try: its answer, or why the next account should be tried. A client's own error is thrown instead. */
export type Attempt<T> = { done: true; value: T } | { done: false; failure: UpstreamFailure }

/** How far one request may go retrying (config `routing.retries`; README "Retries and circuit breakers"). */
export interface RetryPolicy {
  /** calls one request may make in all: first tries and retries, across every account and model */
  maxAttempts: number
  /** milliseconds one request may wait in all between tries; a longer delay asked for is not waited */
  maxBackoffMs: number
  /** a 408, 5xx or broken connection is retried after half to all of this (jitter) */
  backoffMs: number
  /** a 429 that names no delay is retried after half to all of this */
  rateLimitBackoffMs: number
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 6, maxBackoffMs: 10_000, backoffMs: 250, rateLimitBackoffMs: 1000 }
export const DEFAULT_BREAKER: BreakerOptions = { failures: 5, coolDownMs: 30_000, probeTimeoutMs: 10_000 }

/** The config file's `routing` keys this loop reads. */
export interface RoutingConfig {
  retries?: Partial<RetryPolicy>
  breaker?: Partial<BreakerOptions>
}

/** The loop's policy and its per-process state (the breakers), built once per gateway; the clock and dice for tests. */
export interface Routing {
  retry: RetryPolicy
  breakers: Breakers
  now: () => number
  /** a draw in [0, 1): the backoff's jitter */
  random: () => number
  /** waits `ms`, or less when `signal` aborts */
  sleep: (ms: number, signal: AbortedFlag | undefined) => Promise<void>
  /** the background half-open probes (relay/probe.ts), once the gateway's outbound client exists */
  prober?: Prober
  /** hears each attempt record as it is made, before its call (request tracing, telemetry/tracing.ts); unset when off */
  observe?: (entry: UpstreamAttempt) => void
}

export function createRouting(config: RoutingConfig = {}, clock: Partial<Pick<Routing, 'now' | 'random' | 'sleep'>> = {}): Routing {
  const now = clock.now ?? (() => performance.now())
  return {
    retry: { ...DEFAULT_RETRY_POLICY, ...config.retries },
    breakers: new Breakers({ ...DEFAULT_BREAKER, ...config.breaker }, now),
    now,
    random: clock.random ?? Math.random,
    sleep: clock.sleep ?? abortableSleep,
  }
}

/** A timer, cut short when the signal (an AbortSignal, or a request's ClientAbort) aborts. */
export function abortableSleep(ms: number, signal: AbortedFlag | undefined): Promise<void> {
  if (signal?.aborted) return Promise.resolve()
  return new Promise((resolve) => {
    const emitter = signal as Partial<EventTarget & NodeJS.EventEmitter> | undefined
    const done = (): void => {
      clearTimeout(timer)
      if (emitter?.removeEventListener) emitter.removeEventListener('abort', done)
      else emitter?.removeListener?.('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    if (emitter?.addEventListener) emitter.addEventListener('abort', done, { once: true })
    else emitter?.once?.('abort', done)
  })
}

/** One request's run of the loop: its routing, what it records, and the budget every model's run of it shares. */
export interface FailoverRun {
  routing: Routing
  /** the model asked of the accounts, as recorded */
  model: string
  /** the request's attempt records (its ledger row): appended to, so the runs of several models share one list */
  attempts: UpstreamAttempt[]
  /** hears the count of calls made so far, just before each call (the `x-gatehouse-attempts` header) */
  onCall?: (calls: number) => void
  /**
   * false: a call that broke after it was sent may have done the work (a video task created, billed by the vendor);
   * such a break is then never retried on the same account. Statuses are: the vendor refused the work.
   */
  idempotent?: boolean
  /** the budget spent so far, shared by every run of the loop for one request */
  spent?: { calls: number; waitedMs: number }
  /**
   * Asked before each call: whether the account's own budget can hold the request's worst case (billing/holds.ts),
   * the hold moving onto it when it can; the 402 when it cannot, and the account is skipped (not judged a failure).
   */
  admits?: (upstream: UpstreamAccount) => Promise<GatewayError | undefined>
}

/** The account that answered, and its answer. */
export interface Served<T> {
  value: T
  upstream: UpstreamAccount
}

/** The statuses worth a second try on the same account: it may answer the next time. */
const RETRY_STATUSES = new Set([408, 429, 500, 502, 503, 504, 529])

/** What a failure is recorded as. */
function outcomeOf(failure: UpstreamFailure): string {
  switch (failure.kind) {
    case 'status': return `status ${failure.status}`
    case 'transport': return failure.reason
    default: return failure.kind
  }
}

/** Whether and after how long the same account may be tried again: the delay it asked for, or a jittered backoff. */
export function retryDelay(failure: UpstreamFailure, policy: RetryPolicy, random: () => number, idempotent: boolean): { ms: number; why: string } | undefined {
  const jittered = (base: number) => ({ ms: Math.round(base / 2 + (random() * base) / 2), why: 'backoff' })
  if (failure.kind === 'status') {
    if (!RETRY_STATUSES.has(failure.status)) return undefined
    if (failure.retryAfterMs !== undefined) return { ms: failure.retryAfterMs, why: 'Retry-After' }
    return jittered(failure.status === 429 ? policy.rateLimitBackoffMs : policy.backoffMs)
  }
  // A connection refused sent nothing; a reset may have. A timeout already cost a whole deadline: never waited twice.
  if (failure.kind === 'transport' && (failure.reason === 'connect' || (failure.reason === 'reset' && idempotent))) return jittered(policy.backoffMs)
  return undefined
}

/**
 * The one failover loop (spec §7), as `failoverServed`: the answer only. Without a `run` (no routing), each account is
 * tried once in order, as plain failover.
 */
export async function failover<T>(
  candidates: readonly UpstreamAccount[],
  signal: AbortedFlag | undefined,
  attempt: (upstream: UpstreamAccount) => Promise<Attempt<T>>,
  run?: FailoverRun,
): Promise<T> {
  return (await failoverServed(candidates, signal, attempt, run)).value
}

/**
 * The one failover loop (spec §7). First every account is tried once, in order, skipping those whose breaker is open
 * (when all are, the one opened longest ago is tried anyway, as its trial); an account that failed in a way worth
 * another try (RETRY_STATUSES, a refused or broken connection) is queued to be tried once more, after the delay it
 * asked for or a jittered backoff. Then the queue, soonest first, within the budget (`maxAttempts` calls, `maxBackoffMs`
 * of waiting): a delay past what is left of it is not waited. An answer ends the loop; so does an attempt that throws
 * (the client's own error, a 400) and a client that left (`client_closed_request`). When nothing answered, the last
 * failure becomes the exhausted error (502, 503 with the soonest Retry-After an account named, or 504).
 * Nothing is retried once content reached the client: an attempt that sent any is done.
 */
export async function failoverServed<T>(
  candidates: readonly UpstreamAccount[],
  signal: AbortedFlag | undefined,
  attempt: (upstream: UpstreamAccount) => Promise<Attempt<T>>,
  run?: FailoverRun,
): Promise<Served<T>> {
  if (run === undefined) {
    let failure: UpstreamFailure | undefined
    for (const upstream of candidates) {
      if (signal?.aborted) break
      const result = await attempt(upstream)
      if (result.done) return { value: result.value, upstream }
      failure = result.failure
    }
    if (signal?.aborted) throw clientGone()
    throw exhausted(failure)
  }

  const { routing, attempts } = run
  const { breakers, retry: policy, now } = routing
  const spent = (run.spent ??= { calls: 0, waitedMs: 0 })
  const queue: Array<{ upstream: UpstreamAccount; readyAt: number; record: UpstreamAttempt }> = []
  const skipped: UpstreamAccount[] = []
  let failure: UpstreamFailure | undefined
  // The soonest time an account said it may be tried again (passed on in the exhausted 503's Retry-After).
  let retryAt: number | undefined
  // An account whose budget could not hold the request: its 402 stands when no account failed otherwise.
  let overBudget: GatewayError | undefined

  const record = (entry: UpstreamAttempt): UpstreamAttempt => {
    attempts.push(entry)
    routing.observe?.(entry)
    return entry
  }

  /** One call, judged: the breaker hears the verdict, the record says what came of it. */
  const call = async (upstream: UpstreamAccount, admission: Admission, retrying: boolean): Promise<Served<T> | undefined> => {
    const refused = run.admits === undefined ? undefined : await run.admits(upstream)
    if (refused !== undefined) {
      if (admission === 'trial') breakers.release(upstream.id)
      overBudget = refused
      record({ account: upstream.id, model: run.model, outcome: 'skipped: budget', ms: 0, next: 'failed over' })
      return undefined
    }
    spent.calls++
    run.onCall?.(spent.calls)
    const started = now()
    const entry = record({ account: upstream.id, model: run.model, outcome: 'ok', ms: 0 })
    let result: Attempt<T>
    try {
      result = await attempt(upstream)
    } catch (err) {
      // The client's own error (or the gateway ending the request): the account is not judged by it.
      if (admission === 'trial') breakers.release(upstream.id)
      entry.ms = Math.round(now() - started)
      entry.outcome = err instanceof GatewayError ? `status ${err.status}` : 'error'
      entry.next = 'ended: not an upstream failure'
      throw err
    }
    entry.ms = Math.round(now() - started)
    if (signal?.aborted) {
      if (admission === 'trial') breakers.release(upstream.id)
      if (!result.done) {
        entry.outcome = 'aborted'
        entry.next = 'client left'
      }
      return result.done ? { value: result.value, upstream } : undefined
    }
    if (result.done) {
      breakers.success(upstream.id)
      return { value: result.value, upstream }
    }
    failure = result.failure
    entry.outcome = outcomeOf(failure)
    breakers.failure(upstream.id, entry.outcome)
    const again = retrying ? undefined : retryDelay(failure, policy, routing.random, run.idempotent !== false)
    if (failure.kind === 'status' && failure.retryAfterMs !== undefined) retryAt = Math.min(retryAt ?? Infinity, now() + failure.retryAfterMs)
    if (again === undefined) {
      entry.next = 'failed over'
    } else {
      entry.next = `retry in ${again.ms} ms (${again.why})`
      queue.push({ upstream, readyAt: now() + again.ms, record: entry })
    }
    return undefined
  }

  for (const upstream of candidates) {
    if (signal?.aborted) break
    if (spent.calls >= policy.maxAttempts) break
    const admission = breakers.admit(upstream.id)
    if (admission === 'skip') {
      skipped.push(upstream)
      record({ account: upstream.id, model: run.model, outcome: 'skipped: breaker open', ms: 0, next: 'failed over' })
      continue
    }
    const served = await call(upstream, admission, false)
    if (served) return served
  }

  // Every account open: rather than failing untried, the one opened longest ago is tried, as its trial.
  if (failure === undefined && skipped.length > 0 && !signal?.aborted && spent.calls < policy.maxAttempts) {
    const oldest = skipped.reduce((a, b) => ((breakers.openedAt(b.id) ?? 0) < (breakers.openedAt(a.id) ?? 0) ? b : a))
    breakers.force(oldest.id)
    const served = await call(oldest, 'trial', false)
    if (served) return served
  }

  while (queue.length > 0 && !signal?.aborted) {
    queue.sort((a, b) => a.readyAt - b.readyAt)
    const next = queue.shift()!
    const wait = Math.max(0, next.readyAt - now())
    if (spent.calls >= policy.maxAttempts || spent.waitedMs + wait > policy.maxBackoffMs) {
      next.record.next = spent.calls >= policy.maxAttempts ? 'retry budget spent (attempts)' : `retry budget spent (would wait ${Math.round(wait)} ms)`
      continue
    }
    const admission = breakers.admit(next.upstream.id)
    if (admission === 'skip') {
      next.record.next = 'breaker opened'
      continue
    }
    // Never sooner than asked: a timer may fire a fraction of a millisecond early.
    const waitStarted = now()
    while (!signal?.aborted && now() < next.readyAt) await routing.sleep(Math.max(1, Math.ceil(next.readyAt - now())), signal)
    spent.waitedMs += now() - waitStarted
    if (signal?.aborted) {
      if (admission === 'trial') breakers.release(next.upstream.id)
      break
    }
    const served = await call(next.upstream, admission, true)
    if (served) return served
  }

  if (signal?.aborted) throw clientGone()
  if (failure === undefined && overBudget !== undefined) throw overBudget
  const last = attempts.at(-1)
  if (last !== undefined && last.next === 'failed over') last.next = 'no account left'
  throw exhausted(failure, retryAt === undefined ? undefined : Math.max(0, retryAt - now()))
}
