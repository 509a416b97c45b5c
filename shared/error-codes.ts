/**
 * Every error code the gateway emits, with its HTTP status and error type.
 * Clients branch on status and code (spec §7); the code never changes with the language.
 */
export const ERROR_CODES = {
  invalid_request: { status: 400, type: 'invalid_request_error' },
  invalid_json: { status: 400, type: 'invalid_request_error' },
  model_deprecated: { status: 400, type: 'invalid_request_error' },
  unsupported_model_endpoint: { status: 400, type: 'invalid_request_error' },
  missing_api_key: { status: 401, type: 'authentication_error' },
  invalid_api_key: { status: 401, type: 'authentication_error' },
  api_key_expired: { status: 401, type: 'authentication_error' },
  // The key was deleted or disabled while the request ran: the request ends with it (a stream's error event).
  api_key_revoked: { status: 401, type: 'authentication_error' },
  insufficient_quota: { status: 402, type: 'insufficient_quota' },
  // The Host header is missing, repeated, or not `uri-host [":" port]` (RFC 9112 §3.2).
  invalid_host_header: { status: 400, type: 'invalid_request_error' },
  host_not_allowed: { status: 403, type: 'permission_error' },
  origin_not_allowed: { status: 403, type: 'permission_error' },
  model_not_found: { status: 404, type: 'not_found_error' },
  route_not_found: { status: 404, type: 'not_found_error' },
  task_not_found: { status: 404, type: 'not_found_error' },
  method_not_allowed: { status: 405, type: 'invalid_request_error' },
  // The request body stalled or took too long to arrive (timeouts.bodyIdleMs, timeouts.bodyMs).
  request_timeout: { status: 408, type: 'invalid_request_error' },
  request_too_large: { status: 413, type: 'request_too_large' },
  user_concurrency_limit: { status: 429, type: 'rate_limit_error' },
  apikey_concurrency_limit: { status: 429, type: 'rate_limit_error' },
  // A key's request bodies in flight past its byte budget (its concurrency cap × 60 MB), refused before reading.
  apikey_body_limit: { status: 429, type: 'rate_limit_error' },
  client_closed_request: { status: 499, type: 'client_closed_request' },
  internal_error: { status: 500, type: 'api_error' },
  upstream_error: { status: 502, type: 'upstream_error' },
  stream_interrupted: { status: 502, type: 'upstream_error' },
  upstream_unavailable: { status: 503, type: 'overloaded_error' },
  // The gateway already holds `limits.bodyBytes` of request bodies: a new one is refused before it is read.
  gateway_body_limit: { status: 503, type: 'overloaded_error' },
  upstream_timeout: { status: 504, type: 'timeout_error' },
  // An Idempotency-Key sent again with a different body (IETF idempotency-key draft: 422, never retry unchanged).
  idempotency_key_reused: { status: 422, type: 'invalid_request_error' },
  video_content_not_available: { status: 404, type: 'not_found_error' },
  // The admin API (desktop app and browser sign-in).
  admin_unauthorized: { status: 401, type: 'authentication_error' },
  not_found: { status: 404, type: 'not_found_error' },
  conflict: { status: 409, type: 'invalid_request_error' },
  // Team mode: the shared database did not answer when a concurrency slot was taken (retry shortly).
  shared_store_unavailable: { status: 503, type: 'overloaded_error' },
} as const satisfies Record<string, { status: number; type: string }>

export type ErrorCode = keyof typeof ERROR_CODES

/** The Messages protocol names its error types by status (Anthropic's table). */
export function messagesErrorType(status: number): string {
  switch (status) {
    case 400: return 'invalid_request_error'
    case 401: return 'authentication_error'
    case 402: return 'billing_error'
    case 403: return 'permission_error'
    case 404: return 'not_found_error'
    case 413: return 'request_too_large'
    case 429: return 'rate_limit_error'
    case 503: case 529: return 'overloaded_error'
    case 504: return 'timeout_error'
    default: return status >= 500 ? 'api_error' : 'invalid_request_error'
  }
}

/** Statuses a client may retry (spec §7 rules 2 and 3). */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status === 499 || status >= 500
}
