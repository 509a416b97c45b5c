/**
 * A circuit breaker per upstream account, in this process's memory (each team replica keeps its own):
 *
 *   CLOSED ── `failures` failures in a row ──▶ OPEN ── `coolDownMs` later ──▶ HALF-OPEN: one trial
 *     ▲                                          ▲                              │ (a background probe, or the next
 *     │                                          └────── the trial fails ───────┤  real request where no probe
 *     └──────────────────────────────────────────────── the trial answers ──────┘  exists)
 *
 * OPEN: the failover loop skips the account at once. HALF-OPEN: a single trial, whose verdict closes or reopens
 * the breaker. Where the account's vendor has a free authenticated call (a model list), the gateway probes it in
 * the background (relay/probe.ts) and requests keep skipping the account until the probe answered: no client
 * request pays for a dead account. Elsewhere, the next real request that reaches the account is the trial (every
 * other request skips it meanwhile). A probe's answer closes the breaker on probation (the next real failure
 * reopens it at once, since a model list answering does not prove the model does); a probe that cannot tell (its
 * endpoint missing at that base URL) hands the trial to the next real request. A trial that ends with no verdict
 * (the client left, its own request was refused, the gateway closed) lets the next one try.
 * A healthy account has no entry in the map: its bookkeeping costs one failed lookup per attempt.
 */

export interface BreakerOptions {
  /** failures in a row that open the breaker */
  failures: number
  /** how long it stays open before one trial (a background probe, or a request) */
  coolDownMs: number
  /** the longest a background probe waits for the vendor's answer */
  probeTimeoutMs: number
}

export type BreakerState = 'closed' | 'open' | 'half-open'

/** What a request may do with an account: use it, use it as the half-open trial, or skip it. */
export type Admission = 'use' | 'trial' | 'skip'

/** One change of an account's breaker, as the admin API shows it. */
export interface BreakerTransition {
  /** Date.now() of the change */
  at: number
  from: BreakerState
  to: BreakerState
  /** why: `5 failures in a row`, `probe answered`, `probe failed: status 503`, `trial request`, … */
  why: string
}

/** How many transitions each account keeps for the admin API. */
export const TRANSITIONS_KEPT = 10

interface Entry {
  state: BreakerState
  /** failures in a row while closed */
  failures: number
  /** when it last opened (the clock's milliseconds) */
  openedAt: number
  /** half-open: a trial (a request's, or a probe) is under way */
  trial: boolean
  /** the trial under way is a background probe */
  probing: boolean
  /** a background prober looks after this account while it is open: requests skip it even after the cool-down */
  background: boolean
  /** closed by a probe's answer: the next real failure reopens it at once */
  probation: boolean
}

export class Breakers {
  readonly #accounts = new Map<string, Entry>()
  readonly #history = new Map<string, BreakerTransition[]>()
  /** hears every account that opens (the background prober schedules its probe) */
  onOpen: ((id: string) => void) | undefined

  constructor(
    readonly options: BreakerOptions,
    private readonly now: () => number = () => performance.now(),
    private readonly wall: () => number = Date.now,
  ) {}

  state(id: string): BreakerState {
    const entry = this.#accounts.get(id)
    if (entry === undefined) return 'closed'
    if (entry.state === 'open' && this.now() - entry.openedAt >= this.options.coolDownMs) return 'half-open'
    return entry.state
  }

  /** The account's last changes, oldest first (at most TRANSITIONS_KEPT). */
  transitions(id: string): readonly BreakerTransition[] {
    return this.#history.get(id) ?? []
  }

  /** Whether a background probe is under way for the account. */
  probing(id: string): boolean {
    return this.#accounts.get(id)?.probing === true
  }

  /** Whether a request may call the account now; `trial` makes it the half-open trial, whose verdict must follow. */
  admit(id: string): Admission {
    const entry = this.#accounts.get(id)
    if (entry === undefined || entry.state === 'closed') return 'use'
    // A prober looks after it: no request pays for the trial.
    if (entry.background) return 'skip'
    if (entry.state === 'open') {
      if (this.now() - entry.openedAt < this.options.coolDownMs) return 'skip'
      this.#move(id, entry, 'half-open', 'trial request')
    }
    if (entry.trial) return 'skip'
    entry.trial = true
    return 'trial'
  }

  /**
   * Every account of a request is open: the one opened longest ago is tried anyway, as a trial. A request is then its
   * trial, not the prober: one that ends with no verdict leaves the next request to try (its failure arms a probe).
   */
  force(id: string): void {
    const entry = this.#accounts.get(id)
    if (entry === undefined) return
    if (entry.state !== 'half-open') this.#move(id, entry, 'half-open', 'every account open: trial request')
    entry.trial = true
    entry.background = false
  }

  /** The account answered: closed, its count of failures cleared. */
  success(id: string): void {
    if (this.#accounts.size === 0) return
    const entry = this.#accounts.get(id)
    if (entry === undefined) return
    if (entry.state !== 'closed') this.#move(id, entry, 'closed', entry.state === 'half-open' ? 'trial answered' : 'answered')
    this.#accounts.delete(id)
  }

  /** The account failed: one more in a row; the `failures`-th (or a failed trial) opens the breaker. */
  failure(id: string, why?: string): void {
    let entry = this.#accounts.get(id)
    if (entry === undefined) {
      entry = { state: 'closed', failures: 0, openedAt: 0, trial: false, probing: false, background: false, probation: false }
      this.#accounts.set(id, entry)
    }
    if (entry.state === 'closed' && ++entry.failures < this.options.failures) return
    const reason = entry.state === 'half-open' ? 'trial failed'
      : entry.state === 'open' ? 'failed while open'
        : entry.probation ? 'failed on probation' : `${entry.failures} failures in a row`
    this.#open(id, entry, why === undefined ? reason : `${reason}: ${why}`)
  }

  /** A trial that ended with no verdict: the next request may try the account. */
  release(id: string): void {
    const entry = this.#accounts.get(id)
    if (entry?.trial) entry.trial = false
  }

  /** A prober looks after the account while it is open (true), or leaves its trial to the next request (false). */
  setBackground(id: string, on: boolean): void {
    const entry = this.#accounts.get(id)
    if (entry !== undefined && entry.state !== 'closed') entry.background = on
  }

  /** The prober's turn: an open account past its cool-down becomes half-open with the probe as its trial. */
  beginProbe(id: string): boolean {
    const entry = this.#accounts.get(id)
    if (entry === undefined || entry.state === 'closed' || entry.trial) return false
    if (entry.state === 'open' && this.coolDownLeft(id) > 0) return false
    if (entry.state === 'open') this.#move(id, entry, 'half-open', 'background probe')
    entry.trial = true
    entry.probing = true
    return true
  }

  /**
   * The probe's verdict: `answered` closes the breaker on probation (its next real failure reopens it at once);
   * `failed` opens it for another cool-down; `unknown` (the probe could not tell, or was stopped) hands the trial
   * to the next request. A verdict that comes after a request already settled the account is dropped.
   */
  endProbe(id: string, verdict: 'answered' | 'failed' | 'unknown', why: string): void {
    const entry = this.#accounts.get(id)
    if (entry === undefined || !entry.probing) return
    entry.probing = false
    entry.trial = false
    if (verdict === 'answered') {
      this.#move(id, entry, 'closed', `probe answered (${why})`)
      entry.failures = this.options.failures - 1
      entry.background = false
      entry.probation = true
    } else if (verdict === 'failed') {
      this.#open(id, entry, `probe failed: ${why}`)
    } else {
      entry.background = false
    }
  }

  /** Every account closed, their counts cleared (a test's fresh start on a gateway shared by a file's tests). */
  reset(): void {
    this.#accounts.clear()
    this.#history.clear()
  }

  /** When the account last opened (undefined when closed): the loop tries the one opened longest ago when all are. */
  openedAt(id: string): number | undefined {
    const entry = this.#accounts.get(id)
    return entry === undefined || entry.state === 'closed' ? undefined : entry.openedAt
  }

  /** Milliseconds left of an open account's cool-down (0 when over, or not open). */
  coolDownLeft(id: string): number {
    const entry = this.#accounts.get(id)
    if (entry?.state !== 'open') return 0
    return Math.max(0, entry.openedAt + this.options.coolDownMs - this.now())
  }

  #open(id: string, entry: Entry, why: string): void {
    this.#move(id, entry, 'open', why)
    entry.openedAt = this.now()
    entry.trial = false
    entry.probing = false
    entry.probation = false
    this.onOpen?.(id)
  }

  #move(id: string, entry: Entry, to: BreakerState, why: string): void {
    const from = entry.state
    entry.state = to
    if (to === 'closed') entry.failures = 0
    let history = this.#history.get(id)
    if (history === undefined) this.#history.set(id, (history = []))
    history.push({ at: this.wall(), from, to, why })
    if (history.length > TRANSITIONS_KEPT) history.shift()
  }
}
