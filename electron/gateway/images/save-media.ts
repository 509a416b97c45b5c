import { join } from 'node:path'
import type { Services } from '../services.js'
import type { GeneratedImage } from '../contract/image-upstream.js'

const EXT: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif' }

/** The largest linked image kept. */
const MAX_IMAGE_BYTES = 100_000_000

/**
 * Seedream-style answers are signed links that expire after 24 hours (spec §8): keep a copy of each image
 * as `media/images/<request>-<n>` (`services.media`), recorded against the request, so the gallery can show it
 * later. Runs after the answer was sent. The download goes through the link guard and keeps only a raster image
 * (by its bytes); a refused or failed download is logged and leaves the link as the only copy.
 */
export async function saveLinkedImages(services: Services, requestId: string, images: GeneratedImage[], log: (line: string) => void): Promise<void> {
  await Promise.all(
    images.map(async (image, index) => {
      if (!image.url) return
      try {
        const { bytes, mimeType } = await services.http.download(image.url, MAX_IMAGE_BYTES, AbortSignal.timeout(120_000))
        const path = await services.media.write(join('media', 'images', `${requestId}-${index}.${EXT[mimeType]}`), bytes, MAX_IMAGE_BYTES)
        await services.store.media.insert({ id: `${requestId}-${index}`, request_id: requestId, kind: 'image', source_url: image.url, path, mime_type: mimeType, created_at: Date.now() })
      } catch (err) {
        log(`[gatehouse] ${requestId}: could not keep image ${index}: ${(err as Error).message}`)
      }
    }),
  )
}
