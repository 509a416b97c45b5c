/**
 * How an error is shown next to the action it belongs to: a title in the chosen language (from the error's
 * code, never from the server's text), the server's or vendor's own text as a quoted detail, the upstream
 * account that failed (from the request log), and what the user can do about it.
 */
import type { Language, RequestLogEntry } from '../../shared/admin'
import { translate } from '../i18n'
import { ERROR_TITLES, type ErrorTitle } from './error-strings'

/** An error as the panels keep it: status null when no HTTP answer carried it (network, a stream's error event). */
export interface ErrorFacts {
  status: number | null
  code: string
  message: string
  /** the gateway's x-request-id, the key of its request-log row */
  requestId?: string | null
}

export type ErrorAction = 'retry' | 'account' | 'budget'

export interface ErrorView {
  /** the HTTP status, the request log's when it knows it (a failed task's or a stream's error carries none) */
  status: number | null
  title: string
  /** the text that came with the error, shown as a quote */
  detail: string | null
  /** the upstream account the failure came from */
  account: string | null
  actions: ErrorAction[]
}

/** Client-side codes (no HTTP answer): the panels set them. */
const CLIENT_CODES: Record<string, ErrorTitle> = {
  network_error: 'network', stream_ended_early: 'stream_interrupted', task_interrupted: 'interrupted',
}

const BY_CODE: Record<string, ErrorTitle> = {
  insufficient_quota: 'insufficient_quota', missing_api_key: 'auth', invalid_api_key: 'auth', api_key_expired: 'auth',
  model_not_found: 'model_not_found', request_too_large: 'request_too_large',
  user_concurrency_limit: 'busy', apikey_concurrency_limit: 'busy', upstream_error: 'upstream_error',
  upstream_unavailable: 'upstream_unavailable', upstream_timeout: 'upstream_timeout', stream_interrupted: 'stream_interrupted',
  internal_error: 'internal', idempotency_key_reused: 'idempotency',
}

const BY_STATUS: Record<number, ErrorTitle> = {
  401: 'auth', 402: 'insufficient_quota', 404: 'not_found', 413: 'request_too_large', 429: 'busy', 500: 'internal',
  502: 'upstream_error', 503: 'upstream_unavailable', 504: 'upstream_timeout',
}

function titleOf(e: ErrorFacts, account: string | null): ErrorTitle {
  const known = CLIENT_CODES[e.code] ?? BY_CODE[e.code]
  if (known) return known
  if (e.status === null) return account ? 'task_failed' : 'stream_interrupted'
  if (BY_STATUS[e.status]) return BY_STATUS[e.status]
  // A 4xx whose request reached an account is the vendor's refusal (its own code passed through); else the gateway's.
  if (e.status >= 400 && e.status < 500) return account ? 'vendor_refused' : 'refused'
  return 'generic'
}

/** The presentation of one error, given the request-log row of its request (when it was found) and whether the action can be retried. */
export function presentError(
  error: ErrorFacts,
  log: Pick<RequestLogEntry, 'upstream' | 'status'> | null | undefined,
  language: Language,
  canRetry: boolean,
): ErrorView {
  const account = log?.upstream ?? null
  // The log has the status a task's or an SSE error event's body does not carry (a vendor's refusal is its 4xx).
  const e = log && log.status >= 400 ? { ...error, status: log.status } : error
  const title = translate(ERROR_TITLES, language, titleOf(e, account), { status: e.status ?? '' })
  const actions: ErrorAction[] = []
  if (canRetry) actions.push('retry')
  if (account) actions.push('account')
  if (e.status === 402 || e.code === 'insufficient_quota') actions.push('budget')
  const detail = e.message.trim() === '' ? null : e.message.trim()
  return { status: e.status, title, detail, account, actions }
}
