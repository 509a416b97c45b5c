/**
 * Background half-open probes (README "Circuit breakers"): when an account's breaker opens, a timer is armed for
 * its cool-down; when it fires, the gateway itself asks the vendor for the account's model list (the vendor's
 * cheapest authenticated call, free of charge: upstreams/model-list.ts) and the answer moves the breaker: an
 * answer closes it (traffic returns), a failure opens it for another cool-down. Requests skip the account all the
 * while, so no client request pays for a dead account. Vendors with no model list (Kling, MiniMax), and an
 * account whose list endpoint is missing at its base URL (a 404 or another 4xx that says nothing of its health),
 * keep the real-request trial.
 *
 * A probe is never billed nor written to the ledger. It goes out through the same outbound client as every
 * upstream call (its base URL judged as "Test connection" judges one), with the account's secret in its headers
 * only; nothing of the call is logged but the account id and the outcome. Bounded: one timer and at most one probe
 * in flight per account, each probe under its own deadline (`probeTimeoutMs`); `stop()` clears every timer and
 * cuts the probes in flight, and no probe starts after it.
 */
import type { Vendor } from '../../../shared/types.js'
import type { UpstreamAccount } from '../contract/accounts.js'
import { baseUrlProblem } from '../guards/link-guard.js'
import { abandonBody, transportFailure, withDeadline, type Http } from '../upstreams/http.js'
import { modelListCall } from '../upstreams/model-list.js'
import type { Breakers } from './breaker.js'

/** Whether accounts of a vendor are probed in the background when half-open (else the next request is the trial). */
export const probedInBackground = (vendor: Vendor): boolean => modelListCall(vendor, 'http://probe.invalid', '') !== undefined

/** Statuses that say the account cannot serve now (as a real call's would): the probe failed. */
const FAILED_STATUSES = new Set([401, 403, 408, 429])

export class Prober {
  readonly #timers = new Map<string, NodeJS.Timeout>()
  readonly #inFlight = new Map<string, { controller: AbortController; done: Promise<void> }>()
  #stopped = false

  constructor(
    private readonly breakers: Breakers,
    private readonly http: Http,
    /** the account as the registry holds it now (undefined: deleted) */
    private readonly account: (id: string) => UpstreamAccount | undefined,
    private readonly log: (line: string) => void = () => {},
  ) {
    breakers.onOpen = (id) => this.opened(id)
  }

  /** Probes armed or in flight (for tests and shutdown). */
  get pending(): number {
    return this.#timers.size + this.#inFlight.size
  }

  /** An account's breaker opened: its probe is armed for the end of the cool-down, where its vendor has one. */
  opened(id: string): void {
    if (this.#stopped) return
    const upstream = this.account(id)
    if (upstream === undefined || modelListCall(upstream.vendor, upstream.baseUrl, upstream.apiKey) === undefined) {
      this.breakers.setBackground(id, false)
      return
    }
    this.breakers.setBackground(id, true)
    this.#arm(id, this.breakers.options.coolDownMs)
  }

  /** The account's probe, `ms` from now (one timer per account). */
  #arm(id: string, ms: number): void {
    clearTimeout(this.#timers.get(id))
    const timer = setTimeout(() => {
      this.#timers.delete(id)
      this.#start(id)
    }, ms)
    timer.unref()
    this.#timers.set(id, timer)
  }

  /** Clears every armed probe and cuts those in flight (their trial released), then waits for them to end. */
  async stop(): Promise<void> {
    this.#stopped = true
    for (const timer of this.#timers.values()) clearTimeout(timer)
    this.#timers.clear()
    const running = [...this.#inFlight.values()]
    for (const probe of running) probe.controller.abort()
    await Promise.all(running.map((probe) => probe.done))
  }

  #start(id: string): void {
    if (this.#stopped || this.#inFlight.has(id)) return
    // A timer may fire a fraction of a millisecond before the clock says the cool-down is over: armed again for the
    // rest. The clock is read before the probe is begun, not after a refusal: by then the cool-down may be over, and
    // the account would stay open with no probe armed, skipped for good.
    const left = this.breakers.coolDownLeft(id)
    if (left > 0) return this.#arm(id, Math.max(1, Math.ceil(left)))
    // Closed meanwhile, or a request's trial under way (its verdict closes the breaker or opens it, arming a probe).
    if (!this.breakers.beginProbe(id)) return
    const controller = new AbortController()
    const done = this.#probe(id, controller.signal)
      .then(({ verdict, why }) => {
        this.breakers.endProbe(id, controller.signal.aborted ? 'unknown' : verdict, controller.signal.aborted ? 'gateway closing' : why)
        if (!controller.signal.aborted) this.log(`[gatehouse] breaker of upstream ${id}: background probe ${verdict === 'answered' ? 'answered, closed' : verdict === 'failed' ? `failed (${why}), open for another cool-down` : `could not tell (${why}), the next request is the trial`}`)
      })
      .finally(() => this.#inFlight.delete(id))
    this.#inFlight.set(id, { controller, done })
  }

  async #probe(id: string, stop: AbortSignal): Promise<{ verdict: 'answered' | 'failed' | 'unknown'; why: string }> {
    // The account as it is now: its secret or base URL may have changed while it was open.
    const upstream = this.account(id)
    const call = upstream && modelListCall(upstream.vendor, upstream.baseUrl, upstream.apiKey)
    if (call === undefined) return { verdict: 'unknown', why: 'no model list' }
    let target: URL
    try {
      target = new URL(call.spec.url)
    } catch {
      return { verdict: 'unknown', why: 'not a valid URL' }
    }
    if (baseUrlProblem(target) !== undefined) return { verdict: 'unknown', why: 'address refused' }
    const deadline = withDeadline(stop, this.breakers.options.probeTimeoutMs)
    try {
      const response = await this.http.send(call.spec, deadline.signal)
      abandonBody(response)
      const status = response.statusCode
      if (status < 300) return { verdict: 'answered', why: `status ${status}` }
      if (status >= 500 || FAILED_STATUSES.has(status)) return { verdict: 'failed', why: `status ${status}` }
      return { verdict: 'unknown', why: `status ${status}` }
    } catch (err) {
      return { verdict: 'failed', why: transportFailure(err) }
    } finally {
      deadline.clear()
    }
  }
}
