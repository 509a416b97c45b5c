/**
 * A circuit breaker per upstream account, in this process's memory (each team replica keeps its own):
 *
 *   CLOSED ── `failures` failures in a row ──▶ OPEN ── `coolDownMs` later, one request is let through ──▶ HALF-OPEN
 *     ▲                                          ▲                                                           │
 *     └──────────── the trial answers ───────────┼──────────────────── the trial fails ───────────────────────┘
 *
 * OPEN: the failover loop skips the account at once. HALF-OPEN: the next real request that reaches the account is
 * its single trial (every other request skips it meanwhile); its outcome closes or reopens the breaker. A trial
 * that ends with no verdict (the client left, or its own request was refused) lets the next request try.
 * A healthy account is never in the map: its bookkeeping costs one failed lookup per attempt.
 */

export interface BreakerOptions {
  /** failures in a row that open the breaker */
  failures: number
  /** how long it stays open before one trial request is let through */
  coolDownMs: number
}

export type BreakerState = 'closed' | 'open' | 'half-open'

/** What a request may do with an account: use it, use it as the half-open trial, or skip it. */
export type Admission = 'use' | 'trial' | 'skip'

interface Entry {
  state: BreakerState
  /** failures in a row while closed */
  failures: number
  /** when it last opened (the clock's milliseconds) */
  openedAt: number
  /** half-open: a trial is under way */
  trial: boolean
}

export class Breakers {
  readonly #accounts = new Map<string, Entry>()

  constructor(readonly options: BreakerOptions, private readonly now: () => number = () => performance.now()) {}

  state(id: string): BreakerState {
    const entry = this.#accounts.get(id)
    if (entry === undefined) return 'closed'
    if (entry.state === 'open' && this.now() - entry.openedAt >= this.options.coolDownMs) return 'half-open'
    return entry.state
  }

  /** Whether a request may call the account now; `trial` makes it the half-open trial, whose verdict must follow. */
  admit(id: string): Admission {
    const entry = this.#accounts.get(id)
    if (entry === undefined || entry.state === 'closed') return 'use'
    if (entry.state === 'open') {
      if (this.now() - entry.openedAt < this.options.coolDownMs) return 'skip'
      entry.state = 'half-open'
    }
    if (entry.trial) return 'skip'
    entry.trial = true
    return 'trial'
  }

  /** Every account of a request is open: the one opened longest ago is tried anyway, as a trial. */
  force(id: string): void {
    const entry = this.#accounts.get(id)
    if (entry === undefined) return
    entry.state = 'half-open'
    entry.trial = true
  }

  /** The account answered: closed, its count of failures cleared. */
  success(id: string): void {
    if (this.#accounts.size > 0) this.#accounts.delete(id)
  }

  /** The account failed: one more in a row; the `failures`-th (or a failed trial) opens the breaker. */
  failure(id: string): void {
    let entry = this.#accounts.get(id)
    if (entry === undefined) {
      entry = { state: 'closed', failures: 0, openedAt: 0, trial: false }
      this.#accounts.set(id, entry)
    }
    if (entry.state === 'closed' && ++entry.failures < this.options.failures) return
    entry.state = 'open'
    entry.openedAt = this.now()
    entry.trial = false
  }

  /** A trial that ended with no verdict: the next request may try the account. */
  release(id: string): void {
    const entry = this.#accounts.get(id)
    if (entry?.trial) entry.trial = false
  }

  /** Every account closed, their counts cleared (a test's fresh start on a gateway shared by a file's tests). */
  reset(): void {
    this.#accounts.clear()
  }

  /** When the account last opened (undefined when closed): the loop tries the one opened longest ago when all are. */
  openedAt(id: string): number | undefined {
    const entry = this.#accounts.get(id)
    return entry === undefined || entry.state === 'closed' ? undefined : entry.openedAt
  }
}
