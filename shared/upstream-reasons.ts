/**
 * Why a request failed at the vendor, as the chat-type error body's `error.upstream.reason` names it (the gateway
 * sets it; the app words each reason and its fix from it). Absent when the gateway refused the request itself.
 */
export const UPSTREAM_REASONS = [
  /** the vendor refused the account's key (HTTP 401/403) */
  'key_refused',
  /** the vendor said too many requests (HTTP 429) */
  'rate_limited',
  /** the vendor said it is overloaded (HTTP 503/529) */
  'overloaded',
  /** the vendor could not be reached (connection refused or reset) */
  'unreachable',
  /** the vendor did not answer in time */
  'timeout',
  /** the vendor answered with a server error (other 5xx) */
  'vendor_error',
  /** the vendor's answer could not be read (malformed or empty) */
  'bad_answer',
  /** the vendor's content check refused the input or the output */
  'moderation',
  /** the vendor refused the request itself (another 4xx, its own code passed through) */
  'vendor_refused',
  /** no account was tried */
  'no_account',
] as const

export type UpstreamReason = (typeof UPSTREAM_REASONS)[number]

/** What the chat-type error body carries as `error.upstream`. */
export interface UpstreamNote {
  reason: UpstreamReason
  /** the vendor's HTTP status, when it answered */
  status: number | null
  /** the vendor's own words, when it said any */
  message: string | null
}

/**
 * Vendor codes of a content check (docs/vendors: OpenAI `moderation_blocked`, Ark `*SensitiveContentDetected`,
 * DashScope `DataInspectionFailed` / `data_inspection_failed`, Kling 1301, MiniMax 1026/1027).
 */
const MODERATION_CODES = new Set(['moderation_blocked', 'content_filter', 'content_policy_violation', '1301', '1026', '1027', 'DataInspectionFailed', 'data_inspection_failed', 'InvalidParameter.DataInspection'])

/** Whether a vendor's error or failed task code is a content check's refusal. */
export function isModerationCode(code: string | null | undefined): boolean {
  if (!code) return false
  return MODERATION_CODES.has(code) || /SensitiveContent/i.test(code)
}
