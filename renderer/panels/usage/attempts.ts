/**
 * The words of a request's attempt records (the gateway's `outcome` and `next`, shared/admin.ts UpstreamAttempt) as the
 * usage panel's string keys, so the row detail reads in the app's language. Words the gateway adds later show as sent.
 */
import type { UpstreamAttempt } from '../../../shared/admin'

export type AttemptKey =
  | 'at_ok' | 'at_status' | 'at_timeout' | 'at_reset' | 'at_connect' | 'at_malformed' | 'at_empty' | 'at_aborted' | 'at_skipped' | 'at_error'
  | 'at_failedOver' | 'at_noneLeft' | 'at_retryAsked' | 'at_retryBackoff' | 'at_budgetSpent' | 'at_breakerOpened' | 'at_clientLeft' | 'at_ended'

/** A string key with its variables, or the gateway's own text when it names nothing known. */
export type AttemptWords = { key: AttemptKey; vars?: Record<string, string | number> } | { text: string }

const OUTCOMES: Record<string, AttemptKey> = {
  ok: 'at_ok', timeout: 'at_timeout', reset: 'at_reset', connect: 'at_connect', malformed: 'at_malformed', empty: 'at_empty',
  aborted: 'at_aborted', 'skipped: breaker open': 'at_skipped', error: 'at_error',
}

const NEXT: Record<string, AttemptKey> = {
  'failed over': 'at_failedOver', 'no account left': 'at_noneLeft', 'breaker opened': 'at_breakerOpened', 'client left': 'at_clientLeft',
  'ended: not an upstream failure': 'at_ended',
}

export function outcomeWords(outcome: string): AttemptWords {
  const status = /^status (\d{3})$/.exec(outcome)
  if (status) return { key: 'at_status', vars: { status: status[1] } }
  return OUTCOMES[outcome] ? { key: OUTCOMES[outcome] } : { text: outcome }
}

export function nextWords(next: string): AttemptWords {
  const retry = /^retry in (\d+) ms \((Retry-After|backoff)\)$/.exec(next)
  if (retry) return { key: retry[2] === 'Retry-After' ? 'at_retryAsked' : 'at_retryBackoff', vars: { ms: Number(retry[1]) } }
  if (next.startsWith('retry budget spent')) return { key: 'at_budgetSpent' }
  return NEXT[next] ? { key: NEXT[next] } : { text: next }
}

/** The calls a request made (skipped accounts are recorded, not called), as `x-gatehouse-attempts` counts them. */
export const callsOf = (attempts: readonly UpstreamAttempt[]): number => attempts.filter((a) => !a.outcome.startsWith('skipped')).length

/** A request served by its first call has nothing to show beyond its row; any retry, failover or skip has. */
export const worthShowing = (attempts: readonly UpstreamAttempt[]): boolean => attempts.length > 1 || (attempts.length === 1 && attempts[0].outcome !== 'ok')
