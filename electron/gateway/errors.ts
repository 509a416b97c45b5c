import { ERROR_CODES, isRetryableStatus, messagesErrorType, type ErrorCode } from '../../shared/error-codes.js'
import { formatMessage, type Lang, type MessageId, type MessageParams } from '../../shared/messages.js'
import type { UpstreamNote } from '../../shared/upstream-reasons.js'

/** A message either from the catalog (translated at render time) or passed through verbatim (upstream text). */
export type ErrorMessage = { id: MessageId; params?: MessageParams } | { text: string }

/** The one error type of the gateway; rendered per protocol by `renderError`. */
export class GatewayError extends Error {
  readonly status: number
  readonly type: string
  /** The code sent to the client: the gateway's own, or an upstream's code passed through (`upstreamCode`). */
  readonly code: string
  readonly retryable: boolean
  headers?: Record<string, string>
  /** Why the vendor failed, when it did (set by the relay's attempt step): the chat-type body's `error.upstream`. */
  upstream?: UpstreamNote

  constructor(
    readonly kind: ErrorCode,
    readonly msg: ErrorMessage,
    opts: { status?: number; type?: string; param?: string; upstreamCode?: string; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super('id' in msg ? formatMessage(msg.id, 'en', msg.params) : msg.text, { cause: opts.cause })
    this.code = opts.upstreamCode ?? kind
    this.status = opts.status ?? ERROR_CODES[kind].status
    this.type = opts.type ?? ERROR_CODES[kind].type
    this.retryable = isRetryableStatus(this.status)
    this.param = opts.param
    this.headers = opts.headers
  }

  readonly param?: string

  /** The message in the client's language. */
  localized(lang: Lang): string {
    return 'id' in this.msg ? formatMessage(this.msg.id, lang, this.msg.params) : this.msg.text
  }
}

/** Shorthand for a catalog-message error. */
export function gatewayError(
  code: ErrorCode,
  id: MessageId,
  params?: MessageParams,
  opts?: ConstructorParameters<typeof GatewayError>[2],
): GatewayError {
  return new GatewayError(code, { id, params }, opts)
}

/** `dashscope`: DashScope's native video paths (/api/v1/services/aigc/…, /api/v1/tasks/…). */
export type Protocol = 'chat' | 'messages' | 'dashscope'

/**
 * The error body in the caller's protocol (spec §7); DashScope's native one is flat and names the request.
 * Every text that may come from an upstream (message, code, type, param) passes `redact` on its way out.
 */
export function errorBody(err: GatewayError, protocol: Protocol, lang: Lang, redact: (text: string) => string, requestId = ''): object {
  const message = redact(err.localized(lang))
  if (protocol === 'messages') {
    return { type: 'error', error: { type: messagesErrorType(err.status), message } }
  }
  if (protocol === 'dashscope') return { request_id: requestId, code: redact(err.code), message }
  const error = { message, type: redact(err.type), param: err.param === undefined ? null : redact(err.param), code: redact(err.code) }
  if (!err.upstream) return { error }
  const { reason, status, message: said } = err.upstream
  return { error: { ...error, upstream: { reason, status, message: said === null ? null : redact(said) } } }
}

/** Connection codes of a database that cannot be reached: PostgreSQL's class 08 and shutdown states, a socket's. */
const UNREACHABLE_CODES = new Set(['57P01', '57P02', '57P03', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE'])
const UNREACHABLE_MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/

/**
 * A team-mode store that cannot be reached (node-postgres's connection errors): the shared database is down or cut
 * off, which is a 503 the client may retry, not a fault of the gateway's. SQLite never throws these.
 */
function storeUnreachable(err: unknown): boolean {
  if (!(err instanceof Error)) return false
  const code = (err as { code?: unknown }).code
  if (typeof code === 'string' && (code.startsWith('08') || UNREACHABLE_CODES.has(code))) return true
  return UNREACHABLE_MESSAGES.test(err.message)
}

/**
 * Any thrown value as a GatewayError: an unreachable shared database a 503 `shared_store_unavailable` (with a retry
 * delay); other unknown errors an opaque 500 (no stack ever reaches a client).
 */
export function asGatewayError(err: unknown, requestId: string): GatewayError {
  if (err instanceof GatewayError) return err
  if (storeUnreachable(err)) {
    return gatewayError('shared_store_unavailable', 'shared_store_down', {}, { cause: err, headers: { 'retry-after': '1', 'retry-after-ms': '1000' } })
  }
  return gatewayError('internal_error', 'internal_error', { requestId }, { cause: err })
}
