/**
 * The retry delay a vendor asks for on an error answer, in milliseconds, from (first found wins):
 * - `Retry-After-Ms` (milliseconds; OpenAI's and Anthropic's SDKs read it),
 * - `Retry-After` (RFC 9110 §10.2.3: delay-seconds, or an HTTP date; Anthropic sends it on 429 and 529),
 * - the body's `google.rpc.RetryInfo` `retryDelay` in `error.details` (Gemini: `"34.4s"`, a protobuf Duration).
 * OpenAI's `x-ratelimit-reset-*` say when a quota window refills, not when to retry: not read (spec §8).
 */
/** Response headers as undici gives them: lower-case names, a repeated header as an array. */
type Headers = Record<string, string | string[] | undefined>

/** Longer than any vendor asks: a value past it is taken as this (a bad date must not hold an account for years). */
export const MAX_RETRY_DELAY_MS = 24 * 3600_000

const clamp = (ms: number): number => Math.min(Math.max(0, ms), MAX_RETRY_DELAY_MS)

function header(headers: Headers | undefined, name: string): string | undefined {
  const value = headers?.[name]
  return (Array.isArray(value) ? value[0] : value)?.trim() || undefined
}

/** `Retry-After`: a non-negative decimal number of seconds, or an HTTP date (its distance from `nowMs`). */
export function parseRetryAfter(value: string, nowMs: number): number | undefined {
  if (/^\d+(\.\d+)?$/.test(value)) return clamp(Number(value) * 1000)
  // An HTTP date names its weekday and zone (IMF-fixdate, RFC 850, asctime); Date.parse reads all three.
  if (!/[a-z]/i.test(value)) return undefined
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : clamp(at - nowMs)
}

/** A protobuf Duration in JSON: decimal seconds with an `s` (`"34.4s"`, `"23s"`, `"0.5s"`). */
export function parseDuration(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined
  const match = /^(\d+(?:\.\d+)?)s$/.exec(value.trim())
  return match ? clamp(Number(match[1]) * 1000) : undefined
}

/** Gemini's RetryInfo in `error.details` (or in the array-wrapped `[{"error":…}]` some streams send). */
function bodyRetryDelay(text: string): number | undefined {
  // Parsed only when it can hold one: error bodies are small, but most have no retry delay.
  if (!text.includes('retryDelay')) return undefined
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return undefined
  }
  const error = (Array.isArray(body) ? body[0] : body) as { error?: { details?: unknown } } | undefined
  const details = error?.error?.details
  if (!Array.isArray(details)) return undefined
  for (const detail of details as Array<Record<string, unknown> | null>) {
    if (typeof detail?.['@type'] === 'string' && detail['@type'].endsWith('google.rpc.RetryInfo')) {
      const delay = parseDuration(detail.retryDelay)
      if (delay !== undefined) return delay
    }
  }
  return undefined
}

/** The delay an error answer asks for before the same account is tried again; undefined when it names none. */
export function retryDelayOf(headers: Headers | undefined, text: string, nowMs = Date.now()): number | undefined {
  const ms = header(headers, 'retry-after-ms')
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms)) return clamp(Number(ms))
  const after = header(headers, 'retry-after')
  const fromHeader = after === undefined ? undefined : parseRetryAfter(after, nowMs)
  return fromHeader ?? bodyRetryDelay(text)
}
