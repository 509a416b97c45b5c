/**
 * HTTP statuses of the error types and codes vendors put in the error events of their streams, which carry no
 * status of their own: Anthropic's error types (../../../docs/vendors/anthropic.md), OpenAI's types and codes.
 */
const STATUS_BY_NAME: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  invalid_api_key: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  rate_limit_exceeded: 429,
  insufficient_quota: 429,
  resource_exhausted: 429,
  api_error: 500,
  server_error: 500,
  internal: 500,
  unavailable: 503,
  timeout_error: 504,
  overloaded_error: 529,
}

/** The status an error event stands for: its numeric code, else its code or type by name, else 502. */
export function streamErrorStatus(error: unknown): number {
  const { code, status, type } = (error && typeof error === 'object' ? error : {}) as { code?: unknown; status?: unknown; type?: unknown }
  for (const value of [code, status]) if (typeof value === 'number' && Number.isInteger(value) && value >= 400 && value <= 599) return value
  for (const value of [code, status, type]) {
    const known = typeof value === 'string' ? STATUS_BY_NAME[value.toLowerCase()] : undefined
    if (known !== undefined) return known
  }
  return 502
}
