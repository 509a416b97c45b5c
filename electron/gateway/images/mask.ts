import sharp from 'sharp'
import { readImageSize } from '../families/image-dimensions.js'
import { wholeImage, type ImageBytes } from '../upstreams/images/types.js'

/** The reference's size from its header (first piece), without joining or decoding a large upload. */
async function sizeOf(reference: ImageBytes): Promise<{ width: number; height: number }> {
  const fromHeader = readImageSize(reference.chunks[0] ?? Buffer.alloc(0))
  if (fromHeader && typeof fromHeader === 'object') return fromHeader
  const { width, height } = await sharp(wholeImage(reference)).metadata()
  if (!width || !height) throw new Error('the reference image has no readable size')
  return { width, height }
}

/**
 * Spec §4.2: the mask is scaled to the first reference image's size and sent as a PNG with an alpha
 * channel (transparent pixels mark what to edit). A mask without alpha gets one: opaque everywhere.
 */
export async function fitMask(mask: Buffer, reference: ImageBytes): Promise<{ png: Buffer; width: number; height: number }> {
  const { width, height } = await sizeOf(reference)
  // Nearest-neighbour keeps the mask's edges hard: an edit region is in or out, never half-transparent.
  const png = await sharp(mask).resize(width, height, { fit: 'fill', kernel: 'nearest' }).ensureAlpha().png().toBuffer()
  return { png, width, height }
}
