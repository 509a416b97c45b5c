/**
 * How an error is shown next to the action it belongs to, from the one table (error-strings.ts): the row is picked
 * by the error's code and the vendor's reason (the gateway's `error.upstream`), never by the server's text; the
 * title and the fix in the chosen language, the vendor's or gateway's own words quoted, the upstream account that
 * failed (from the request log) linked, and Retry.
 */
import type { Language, RequestLogEntry } from '../../shared/admin'
import { isModerationCode, type UpstreamNote, type UpstreamReason } from '../../shared/upstream-reasons'
import { ACCOUNT, ERROR_TABLE, SAID, type ErrorKind } from './error-strings'

/** An error as the panels keep it: status null when no HTTP answer carried it (network, a stream's error event). */
export interface ErrorFacts {
  status: number | null
  code: string
  message: string
  /** the gateway's x-request-id, the key of its request-log row */
  requestId?: string | null
  /** why the vendor failed, as the gateway's chat-type error body says (`error.upstream`) */
  upstream?: UpstreamNote | null
}

export type ErrorAction = 'retry' | 'account' | 'budget'

export interface ErrorView {
  kind: ErrorKind
  /** the HTTP status, the request log's when it knows it (a failed task's or a stream's error carries none) */
  status: number | null
  title: string
  /** what the user can do about it */
  fix: string
  /** the words that came with the error, shown as a quote: the vendor's own when it said any */
  detail: string | null
  /** the label of the quote */
  detailLabel: string
  /** the upstream account the failure came from */
  account: string | null
  actions: ErrorAction[]
}

/** Client-side codes (no HTTP answer): the panels set them. */
const CLIENT_CODES: Record<string, ErrorKind> = {
  network_error: 'network', stream_ended_early: 'stream_interrupted', task_interrupted: 'interrupted',
}

const BY_REASON: Record<UpstreamReason, ErrorKind> = {
  key_refused: 'key_refused', rate_limited: 'rate_limited', overloaded: 'overloaded', unreachable: 'unreachable', timeout: 'timeout',
  vendor_error: 'vendor_error', bad_answer: 'bad_answer', moderation: 'moderation', vendor_refused: 'vendor_refused', no_account: 'no_account',
}

const BY_CODE: Record<string, ErrorKind> = {
  insufficient_quota: 'budget', missing_api_key: 'auth', invalid_api_key: 'auth', api_key_expired: 'auth',
  model_not_found: 'model_not_found', request_too_large: 'request_too_large',
  user_concurrency_limit: 'busy', apikey_concurrency_limit: 'busy', apikey_body_limit: 'busy', upstream_error: 'vendor_error',
  upstream_unavailable: 'overloaded', upstream_timeout: 'timeout', stream_interrupted: 'stream_interrupted',
  internal_error: 'internal', idempotency_key_reused: 'idempotency',
}

/** Vendors' codes for a prompt longer than the model takes (electron/gateway/upstreams/context-length.ts). */
const VENDOR_CODES: Record<string, ErrorKind> = {
  context_length_exceeded: 'too_long', string_above_max_length: 'too_long', '1261': 'too_long',
}

const BY_STATUS: Record<number, ErrorKind> = {
  401: 'auth', 402: 'budget', 404: 'not_found', 413: 'request_too_large', 429: 'busy', 500: 'internal',
  502: 'vendor_error', 503: 'overloaded', 504: 'timeout',
}

function kindOf(e: ErrorFacts, account: string | null): ErrorKind {
  const client = CLIENT_CODES[e.code]
  if (client) return client
  // A content check's code is the vendor's, whatever status carried it: a failed task has none.
  if (isModerationCode(e.code) || e.upstream?.reason === 'moderation') return 'moderation'
  // A vendor code that names the fix wins over the reason it was refused with.
  if (VENDOR_CODES[e.code]) return VENDOR_CODES[e.code]
  if (e.upstream) return BY_REASON[e.upstream.reason]
  const known = BY_CODE[e.code]
  if (known) return known
  if (e.status === null) return account ? 'task_failed' : 'stream_interrupted'
  if (BY_STATUS[e.status]) return BY_STATUS[e.status]
  // A 4xx whose request reached an account is the vendor's refusal (its own code passed through); else the gateway's.
  if (e.status >= 400 && e.status < 500) return account ? 'vendor_refused' : 'refused'
  return 'generic'
}

const fill = (text: string, vars: Record<string, string>): string => text.replace(/\{(\w+)\}/g, (m, name: string) => vars[name] ?? m)

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
  const kind = kindOf(e, account)
  const row = ERROR_TABLE[kind]
  const words = row[language] ?? row.en
  const accountPhrase = account ? fill(ACCOUNT[language].named, { id: account }) : ACCOUNT[language].unnamed
  const vars = { account: accountPhrase, status: String(e.status ?? '') }
  const actions: ErrorAction[] = []
  if (canRetry) actions.push('retry')
  if (account) actions.push('account')
  if (row.fixAt === 'budget') actions.push('budget')
  const vendorWords = error.upstream?.message?.trim() || null
  const ownWords = e.message.trim() === '' ? null : e.message.trim()
  // A failed task's words and a passed-through refusal's are the vendor's own, as is `error.upstream.message`.
  const fromVendor = vendorWords !== null || (account !== null && !error.upstream && ownWords !== null && !e.code.startsWith('upstream_'))
  return {
    kind,
    status: e.status,
    title: fill(words.title, vars),
    fix: fill(words.fix, vars),
    detail: vendorWords ?? ownWords,
    detailLabel: fromVendor ? SAID[language].vendor : SAID[language].gateway,
    account,
    actions,
  }
}
