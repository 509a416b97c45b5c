import { join } from 'node:path'
import type { Services } from '../services.js'
import type { GeneratedImage } from '../contract/image-upstream.js'
import { copyFailure, copyTracker } from '../media/copy-tracker.js'
import type { MediaItem } from '../../../shared/admin.js'
import { mediaItemOf } from '../media/media-item.js'

const EXT: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif' }

/** The largest linked image kept. */
const MAX_IMAGE_BYTES = 100_000_000

/** The waits before the automatic retries of a failed image copy (then Retry in the app starts another). */
export const IMAGE_COPY_RETRIES_MS: readonly number[] = [2_000, 10_000, 30_000]

/** One try at keeping image `index` of a request: downloaded through the link guard, written, recorded. */
async function keepOnce(services: Services, requestId: string, index: number, url: string): Promise<MediaItem> {
  const { bytes, mimeType } = await services.http.download(url, MAX_IMAGE_BYTES, AbortSignal.timeout(120_000))
  const id = `${requestId}-${index}`
  const path = await services.media.write(join('media', 'images', `${id}.${EXT[mimeType]}`), bytes, MAX_IMAGE_BYTES)
  const row = { id, request_id: requestId, kind: 'image' as const, source_url: url, path, mime_type: mimeType, created_at: Date.now() }
  if (!(await services.store.media.get(id))) await services.store.media.insert(row)
  return mediaItemOf(row)
}

/**
 * Tries to keep one image, and again after each wait of `waits` while it fails (the copy's state says which try
 * failed, why, and when the next is due). Resolves when it is kept or the tries are spent; never throws.
 */
export async function keepLinkedImage(services: Services, requestId: string, index: number, url: string, waits: readonly number[], log: (line: string) => void): Promise<void> {
  const copies = copyTracker(services)
  for (let attempt = 0; ; attempt++) {
    try {
      copies.apply(requestId, index, { type: 'kept', media: await keepOnce(services, requestId, index, url) })
      return
    } catch (err) {
      const wait = waits[attempt]
      log(`[gatehouse] ${requestId}: could not keep image ${index} (attempt ${attempt + 1}): ${(err as Error).message}`)
      copies.apply(requestId, index, { type: 'failed', reason: copyFailure(err), retryAt: wait === undefined ? null : Date.now() + wait })
      if (wait === undefined) return
      await new Promise((resolve) => setTimeout(resolve, wait).unref())
      // Retry in the app may have started a try meanwhile: this one stands down.
      if (copies.get(requestId, index)?.state !== 'failed') return
      copies.apply(requestId, index, { type: 'retry' })
    }
  }
}

/**
 * Seedream-style answers are signed links that expire after 24 hours (spec §8): keep a copy of each image
 * as `media/images/<request>-<n>` (`services.media`), recorded against the request, so the gallery can show it
 * later. Runs after the answer was sent. The download goes through the link guard and keeps only a raster image
 * (by its bytes); a failed download is retried after each of IMAGE_COPY_RETRIES_MS, its state kept meanwhile
 * (media/copy-tracker.ts) for the app to show.
 */
export async function saveLinkedImages(services: Services, requestId: string, images: GeneratedImage[], log: (line: string) => void): Promise<void> {
  const copies = copyTracker(services)
  const now = Date.now()
  await Promise.all(
    images.map((image, index) => {
      if (!image.url) return undefined
      copies.start(requestId, index, 'image', image.url, now)
      return keepLinkedImage(services, requestId, index, image.url, IMAGE_COPY_RETRIES_MS, log)
    }),
  )
}

/**
 * Retry in the app: a failed image copy is tried once more now (its link still valid). False when there is no
 * failed copy to retry.
 */
export function retryImageCopy(services: Services, requestId: string, index: number, log: (line: string) => void): boolean {
  const copies = copyTracker(services)
  const copy = copies.get(requestId, index)
  if (!copy || copy.kind !== 'image' || copy.state !== 'failed' || !copy.sourceUrl) return false
  copies.apply(requestId, index, { type: 'retry' })
  void keepLinkedImage(services, requestId, index, copy.sourceUrl, [], log)
  return true
}
