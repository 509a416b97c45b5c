import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../private-files.js'
import type { Services } from '../services.js'
import type { GeneratedImage } from '../upstreams/images/types.js'

const EXT: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif' }

/**
 * Seedream-style answers are signed links that expire after 24 hours (spec §8): keep a copy of each image
 * in `<dataDir>/media/images`, recorded against the request, so the gallery can show it later. Runs after
 * the answer was sent. The download goes through the link guard and keeps only a raster image (by its bytes);
 * a refused or failed download is logged and leaves the link as the only copy.
 */
export async function saveLinkedImages(services: Services, requestId: string, images: GeneratedImage[], log: (line: string) => void): Promise<void> {
  const dir = join(services.dataDir, 'media', 'images')
  try {
    await ensurePrivateDir(dir)
  } catch (err) {
    log(`[gatehouse] ${requestId}: cannot keep images in ${dir}: ${(err as Error).message}`)
    return
  }
  await Promise.all(
    images.map(async (image, index) => {
      if (!image.url) return
      try {
        const { bytes, mimeType } = await services.http.download(image.url, 100_000_000, AbortSignal.timeout(120_000))
        const path = join('media', 'images', `${requestId}-${index}.${EXT[mimeType]}`)
        await writeFile(join(services.dataDir, path), bytes, { mode: PRIVATE_FILE_MODE })
        await services.store.media.insert({ id: `${requestId}-${index}`, request_id: requestId, kind: 'image', source_url: image.url, path, mime_type: mimeType, created_at: Date.now() })
      } catch (err) {
        log(`[gatehouse] ${requestId}: could not keep image ${index}: ${(err as Error).message}`)
      }
    }),
  )
}
