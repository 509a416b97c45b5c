/**
 * A kept copy of a vendor's image or video: the gateway downloads each linked result into its media store, since the
 * vendor's link expires (Seedream, Ark and DashScope links after 24 hours). One state machine, shared by the gateway
 * (which records it) and the app (which shows it):
 *
 *   saving ──kept──▶ kept
 *     │
 *     └──failed──▶ failed(reason, vendor link valid until T, next automatic try at R or none) ──retry──▶ retrying
 *                                                                                                        │
 *                        failed ◀──failed── retrying ──kept──▶ kept ◀──────────────────────────────────────┘
 *
 * `kept` is final. A copy is in exactly one state; the app offers the vendor link while it is valid and Download
 * once kept.
 */
import type { MediaItem } from './admin.js'

export const COPY_STATES = ['saving', 'kept', 'failed', 'retrying'] as const
export type CopyState = (typeof COPY_STATES)[number]

/** Why a copy failed, as the app words it (in English and Chinese), with the detail it names. */
export const COPY_FAILURES = ['vendor_status', 'timeout', 'unreachable', 'not_media', 'too_large', 'link_refused', 'storage', 'unknown'] as const
export type CopyFailure = (typeof COPY_FAILURES)[number]

export interface CopyReason {
  code: CopyFailure
  /** what the words name: the HTTP status (`vendor_status`), the byte limit (`too_large`); absent otherwise */
  detail?: string
}

export interface KeptCopy {
  /** the request (image) or task (video) the result belongs to */
  requestId: string
  /** its place among the request's results */
  index: number
  kind: 'image' | 'video'
  state: CopyState
  /** the vendor's link (null when the result came inline) */
  sourceUrl: string | null
  /** ms since 1970 when the vendor's link stops working (from its signature, else 24 h after the answer); null: no link */
  linkExpiresAt: number | null
  /** download attempts started so far */
  attempts: number
  /** why the last attempt failed (`failed`, and `retrying` after a failure) */
  reason?: CopyReason
  /** ms since 1970 of the next automatic attempt of a failed copy; null: none is planned (Retry starts one) */
  retryAt?: number | null
  /** the copy, once kept */
  media?: MediaItem
}

export type CopyEvent =
  | { type: 'kept'; media: MediaItem }
  | { type: 'failed'; reason: CopyReason; retryAt: number | null }
  | { type: 'retry' }

/** A copy being saved for the first time. */
export function savingCopy(requestId: string, index: number, kind: KeptCopy['kind'], sourceUrl: string | null, linkExpiresAt: number | null): KeptCopy {
  return { requestId, index, kind, state: 'saving', sourceUrl, linkExpiresAt, attempts: 1 }
}

/** The next state of a copy; an event its state does not take leaves it as it was. */
export function reduceCopy(copy: KeptCopy, event: CopyEvent): KeptCopy {
  if (copy.state === 'kept') return copy
  switch (event.type) {
    case 'kept': {
      const { reason: _reason, retryAt: _retryAt, ...rest } = copy
      return { ...rest, state: 'kept', media: event.media }
    }
    case 'failed':
      return { ...copy, state: 'failed', reason: event.reason, retryAt: event.retryAt }
    case 'retry':
      return copy.state === 'failed' ? { ...copy, state: 'retrying', attempts: copy.attempts + 1, retryAt: null } : copy
  }
}

/** How long a vendor's result link lasts when it does not say (spec §8: Seedream, Ark and DashScope keep them 24 h). */
export const LINK_LIFETIME_MS = 24 * 3_600_000

/** `20251130T101500Z` (SigV4 and TOS dates) as ms since 1970. */
function compactDate(text: string): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text)
  return m ? Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]) : undefined
}

/**
 * When a signed vendor link stops working: from its signature (`X-Tos-Date` + `X-Tos-Expires`, `X-Amz-Date` +
 * `X-Amz-Expires`, OSS's `Expires` in seconds since 1970), else `LINK_LIFETIME_MS` after it was issued.
 */
export function linkExpiry(url: string, issuedAt: number): number {
  let query: URLSearchParams
  try {
    query = new URL(url).searchParams
  } catch {
    return issuedAt + LINK_LIFETIME_MS
  }
  const get = (name: string) => {
    for (const [k, v] of query) if (k.toLowerCase() === name) return v
    return undefined
  }
  for (const prefix of ['x-tos-', 'x-amz-']) {
    const date = compactDate(get(`${prefix}date`) ?? '')
    const seconds = Number(get(`${prefix}expires`))
    if (date !== undefined && Number.isFinite(seconds) && seconds > 0) return date + seconds * 1000
  }
  const expires = Number(get('expires'))
  if (Number.isInteger(expires) && expires > 1_000_000_000) return expires * 1000
  return issuedAt + LINK_LIFETIME_MS
}
