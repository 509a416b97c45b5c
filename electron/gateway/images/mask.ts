import { readImageSize } from '../formats/image-dimensions.js'
import { gatewayError } from '../errors.js'
import type { ImageBytes } from '../contract/image-upstream.js'
import { wholeImage } from '../formats/whole-image.js'
import { checkImageHeader, checkPixels, imageHead, SHARP_INPUT } from './image-limits.js'

// libvips is loaded on the first mask, not at start: ~18 MB of memory a gateway that never edits images would hold.
let loading: Promise<typeof import('sharp')> | undefined
const sharpModule = async () => (await (loading ??= import('sharp'))).default

const unreadable = (param: string) => gatewayError('invalid_request', 'invalid_field', { field: param, detail: { en: 'is not a readable image', zh: '不是可读的图像' } }, { param })

/** The reference's size from its header, else from sharp's metadata (which reads the header, not the pixels). */
async function sizeOf(reference: ImageBytes): Promise<{ width: number; height: number }> {
  const fromHeader = readImageSize(imageHead(reference.chunks))
  if (fromHeader && typeof fromHeader === 'object') return fromHeader
  const sharp = await sharpModule()
  const { width, height } = await sharp(wholeImage(reference), SHARP_INPUT).metadata().catch(() => ({ width: undefined, height: undefined }))
  if (!width || !height) throw unreadable('image[0]')
  return { width, height }
}

/**
 * Spec §4.2: the mask is scaled to the first reference image's size and sent as a PNG with an alpha
 * channel (transparent pixels mark what to edit). A mask without alpha gets one: opaque everywhere.
 * The reference's size is checked against MAX_INPUT_PIXELS before anything is decoded, so a mask is never
 * scaled past it; nothing is decoded once the client has left; a mask that does not decode is a 400.
 */
export async function fitMask(mask: Buffer, reference: ImageBytes, signal: AbortSignal): Promise<{ png: Buffer; width: number; height: number }> {
  signal.throwIfAborted()
  const { width, height } = await sizeOf(reference)
  checkPixels({ width, height }, 'image[0]')
  checkImageHeader(mask, 'mask')
  signal.throwIfAborted()
  const sharp = await sharpModule()
  // Nearest-neighbour keeps the mask's edges hard: an edit region is in or out, never half-transparent.
  const png = await sharp(mask, SHARP_INPUT).resize(width, height, { fit: 'fill', kernel: 'nearest' }).ensureAlpha().png().toBuffer()
    .catch(() => {
      signal.throwIfAborted()
      throw unreadable('mask')
    })
  return { png, width, height }
}
