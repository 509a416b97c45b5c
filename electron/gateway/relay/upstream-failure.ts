import type { MessageParam } from '../../../shared/messages.js'
import { isModerationCode, type UpstreamNote, type UpstreamReason } from '../../../shared/upstream-reasons.js'
import { gatewayError, type GatewayError } from '../errors.js'
import type { TransportFailure } from '../upstreams/http.js'

/** Why one upstream attempt did not produce an answer, so that the next account is tried. */
export type UpstreamFailure =
  | { kind: 'status'; status: number; error: GatewayError; retryAfterMs?: number }
  | { kind: 'transport'; reason: Exclude<TransportFailure, 'aborted'> }
  | { kind: 'empty' }
  | { kind: 'malformed' }

/** Failover on connect errors, timeouts, 429 and 5xx, and on an account whose credentials are refused. */
export const isFailoverStatus = (status: number): boolean =>
  status === 401 || status === 403 || status === 408 || status === 429 || status >= 500

const TRANSPORT_DETAIL: Record<Exclude<TransportFailure, 'aborted'>, MessageParam> = {
  connect: { en: 'connection refused', zh: '连接被拒绝' },
  timeout: { en: 'timed out', zh: '超时' },
  reset: { en: 'connection reset', zh: '连接被重置' },
}

/** Why the last attempt failed, in the message's words of each language (codes such as HTTP 401 stay as they are). */
function detail(failure: UpstreamFailure): MessageParam {
  switch (failure.kind) {
    case 'status': return failure.status === 401 || failure.status === 403
      ? { en: `account credentials refused, HTTP ${failure.status}`, zh: `服务商拒绝了账户凭据，HTTP ${failure.status}` }
      : `HTTP ${failure.status}`
    case 'transport': return TRANSPORT_DETAIL[failure.reason]
    case 'empty': return { en: 'empty stream', zh: '空的流' }
    case 'malformed': return { en: 'malformed answer', zh: '无法解析的回答' }
  }
}

/** The reason a vendor's error answer names (its status after the adapter's reading, and its code). */
export function reasonOfVendorError(status: number, code: string): UpstreamReason {
  if (status === 401 || status === 403) return 'key_refused'
  if (status === 429) return 'rate_limited'
  if (status === 503 || status === 529) return 'overloaded'
  if (status >= 500) return 'vendor_error'
  return isModerationCode(code) ? 'moderation' : 'vendor_refused'
}

/** What the client is told of the last failure (`error.upstream`): the vendor's reason, status and words. */
function noteOf(failure: UpstreamFailure | undefined): UpstreamNote {
  if (failure === undefined) return { reason: 'no_account', status: null, message: null }
  switch (failure.kind) {
    case 'status': return failure.error.upstream ?? { reason: reasonOfVendorError(failure.status, failure.error.code), status: failure.status, message: failure.error.message }
    case 'transport': return { reason: failure.reason === 'timeout' ? 'timeout' : 'unreachable', status: null, message: null }
    case 'empty':
    case 'malformed': return { reason: 'bad_answer', status: null, message: null }
  }
}

/** The delay a 503 after failover suggests when no vendor named one (spec §7 rule 3's first delay). */
export const DEFAULT_RETRY_AFTER_MS = 2000

/**
 * Spec §7: after failover is exhausted, 504 when the last account timed out, 503 when overloaded, else 502. The 503
 * carries `Retry-After` (whole seconds, rounded up) and `Retry-After-Ms` (rule 4): `retryAfterMs`, the soonest an
 * account said it may be tried again, else DEFAULT_RETRY_AFTER_MS.
 */
export function exhausted(failure: UpstreamFailure | undefined, retryAfterMs?: number): GatewayError {
  const error = exhaustedError(failure, retryAfterMs)
  error.upstream = noteOf(failure)
  return error
}

function exhaustedError(failure: UpstreamFailure | undefined, retryAfterMs?: number): GatewayError {
  if (failure === undefined) return gatewayError('upstream_error', 'upstream_error', { detail: { en: 'no account answered', zh: '没有账户回答' } })
  if (failure.kind === 'transport' && failure.reason === 'timeout') return gatewayError('upstream_timeout', 'upstream_timeout')
  if (failure.kind === 'status' && (failure.status === 429 || failure.status === 503 || failure.status === 529)) {
    const ms = Math.ceil(retryAfterMs ?? DEFAULT_RETRY_AFTER_MS)
    // The last failure rides along as the cause: a model's fallbacks tell rate limiting (429) from an outage by it.
    return gatewayError('upstream_unavailable', 'upstream_unavailable', {}, { headers: { 'retry-after': String(Math.ceil(ms / 1000)), 'retry-after-ms': String(ms) }, cause: failure })
  }
  return gatewayError('upstream_error', 'upstream_error', { detail: detail(failure) })
}

/** The error frame text for a stream that broke after it started. */
export const interrupted = (reason: string): GatewayError => gatewayError('stream_interrupted', 'stream_interrupted', { detail: reason })
