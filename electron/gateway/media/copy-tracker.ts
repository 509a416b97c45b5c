import { linkExpiry, reduceCopy, savingCopy, type CopyEvent, type CopyReason, type KeptCopy } from '../../../shared/kept-copy.js'

/** The most copies remembered (the oldest are forgotten first): far more than the results of a day's work. */
const MAX_COPIES = 5_000

/**
 * The states of the copies this process is keeping (shared/kept-copy.ts), by request and result. In memory: after a
 * restart a video's state is read again from its task, an image's from its kept media (or its link alone).
 */
export class CopyTracker {
  private readonly copies = new Map<string, KeptCopy>()

  /** A copy starts being saved (or is saved again after a restart). */
  start(requestId: string, index: number, kind: KeptCopy['kind'], sourceUrl: string | null, issuedAt: number): KeptCopy {
    const copy = savingCopy(requestId, index, kind, sourceUrl, sourceUrl === null ? null : linkExpiry(sourceUrl, issuedAt))
    this.put(copy)
    return copy
  }

  /** Applies an event to a known copy; undefined when the copy is not known. */
  apply(requestId: string, index: number, event: CopyEvent): KeptCopy | undefined {
    const copy = this.copies.get(keyOf(requestId, index))
    if (!copy) return undefined
    const next = reduceCopy(copy, event)
    this.put(next)
    return next
  }

  get(requestId: string, index: number): KeptCopy | undefined {
    return this.copies.get(keyOf(requestId, index))
  }

  /** The request's copies, by index. */
  list(requestId: string): KeptCopy[] {
    return [...this.copies.values()].filter((c) => c.requestId === requestId).sort((a, b) => a.index - b.index)
  }

  private put(copy: KeptCopy): void {
    const key = keyOf(copy.requestId, copy.index)
    this.copies.delete(key)
    this.copies.set(key, copy)
    if (this.copies.size > MAX_COPIES) this.copies.delete(this.copies.keys().next().value!)
  }
}

const keyOf = (requestId: string, index: number) => `${requestId}\u0000${index}`

const trackers = new WeakMap<object, CopyTracker>()

/** The tracker of one gateway (keyed by its services object, so that gateways in one process keep apart). */
export function copyTracker(owner: object): CopyTracker {
  let tracker = trackers.get(owner)
  if (!tracker) trackers.set(owner, (tracker = new CopyTracker()))
  return tracker
}

/**
 * Why a download failed, as words the app can say in both languages: from the download's own refusals
 * (upstreams/http.ts, tasks/video-download.ts, media-files.ts) and the transport's errors.
 */
export function copyFailure(err: unknown): CopyReason {
  const e = err as { name?: string; code?: string; message?: string } | undefined
  const message = String(e?.message ?? err)
  const status = /answered HTTP (\d{3})/.exec(message)
  if (status) return { code: 'vendor_status', detail: status[1] }
  const limit = /larger than (\d+) bytes/.exec(message)
  if (limit) return { code: 'too_large', detail: limit[1] }
  if (/redirects|private or reserved|http\(s\) link/i.test(message)) return { code: 'link_refused' }
  if (/is not (a|an) /.test(message)) return { code: 'not_media' }
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError' || /timeout|timed out/i.test(`${e?.code ?? ''} ${message}`)) return { code: 'timeout' }
  if (/^(ECONN|ENOTFOUND|EAI_|EHOSTUNREACH|ENETUNREACH|UND_ERR_SOCKET|UND_ERR_CONNECT)/.test(e?.code ?? '') || /socket|ECONNRE|ENOTFOUND/.test(message)) return { code: 'unreachable' }
  if (/ENOSPC|EACCES|EROFS|EIO/.test(`${e?.code ?? ''} ${message}`)) return { code: 'storage' }
  return { code: 'unknown' }
}
