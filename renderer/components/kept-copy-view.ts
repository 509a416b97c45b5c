/**
 * What a result card says about its kept copy (shared/kept-copy.ts), as one state: the gateway's record of a linked
 * result when there is one, else what the app knows itself (an inline result it uploaded, or only a vendor link).
 * Pure, so that every card (images, videos) shows the same thing for the same facts.
 */
import { linkExpiry, type CopyReason, type KeptCopy } from '../../shared/kept-copy'

/** A copy as the card shows it: exactly one of these. */
export type CopyShown =
  | { state: 'saving' | 'retrying'; attempts: number; link?: string; linkUntil?: number }
  | { state: 'kept'; link?: string; linkUntil?: number }
  | { state: 'failed'; reason: ShownReason; retryAt: number | null; link?: string; linkUntil?: number; canRetry: boolean }
  | { state: 'linkOnly'; link: string; linkUntil: number }
  | { state: 'gone'; linkUntil?: number }

/** Why a copy failed: the gateway's reason, or the app's own upload of an inline result. */
export type ShownReason = CopyReason | { code: 'upload'; detail: string }

export interface CopyFacts {
  /** the gateway's record of the copy of a linked result */
  copy?: KeptCopy
  /** the vendor's link, if the result came as one */
  sourceUrl?: string
  /** when the answer came (a link that does not say when it expires lasts 24 h from then) */
  issuedAt: number
  /** the app's own state of the result: uploading an inline one, kept, failed, or left with its link alone */
  local: 'pending' | 'kept' | 'failed' | 'link'
  /** why the app's upload failed */
  localError?: string
}

const isWebLink = (url: string | undefined): url is string => url !== undefined && /^https?:\/\//i.test(url)

export function copyShown(f: CopyFacts, now: number): CopyShown {
  const linkUntil = f.copy?.linkExpiresAt ?? (isWebLink(f.sourceUrl) ? linkExpiry(f.sourceUrl, f.issuedAt) : undefined)
  const valid = isWebLink(f.sourceUrl) && linkUntil !== undefined && now < linkUntil
  const link = valid ? { link: f.sourceUrl, linkUntil } : linkUntil === undefined ? {} : { linkUntil }
  const { copy } = f
  if (copy) {
    switch (copy.state) {
      case 'kept': return { state: 'kept', ...link }
      case 'saving': case 'retrying': return { state: copy.state, attempts: copy.attempts, ...link }
      case 'failed': return { state: 'failed', reason: copy.reason ?? { code: 'unknown' }, retryAt: copy.retryAt ?? null, canRetry: valid, ...link }
    }
  }
  switch (f.local) {
    case 'kept': return { state: 'kept', ...link }
    case 'pending': return { state: 'saving', attempts: 1, ...link }
    case 'failed': return { state: 'failed', reason: { code: 'upload', detail: f.localError ?? '' }, retryAt: null, canRetry: false, ...link }
    case 'link': return valid ? { state: 'linkOnly', link: f.sourceUrl!, linkUntil: linkUntil! } : { state: 'gone', ...link }
  }
}

/** Whether the card should keep asking the gateway: the copy may still change by itself. */
export const copyUnderWay = (copy: KeptCopy | undefined): boolean =>
  copy === undefined || copy.state === 'saving' || copy.state === 'retrying' || (copy.state === 'failed' && copy.retryAt !== null && copy.retryAt !== undefined)
