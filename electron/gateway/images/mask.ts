import sharp from 'sharp'

/**
 * Spec §4.2: the mask is scaled to the first reference image's size and sent as a PNG with an alpha
 * channel (transparent pixels mark what to edit). A mask without alpha gets one: opaque everywhere.
 */
export async function fitMask(mask: Buffer, reference: Buffer): Promise<{ png: Buffer; width: number; height: number }> {
  const { width, height } = await sharp(reference).metadata()
  if (!width || !height) throw new Error('the reference image has no readable size')
  // Nearest-neighbour keeps the mask's edges hard: an edit region is in or out, never half-transparent.
  const png = await sharp(mask).resize(width, height, { fit: 'fill', kernel: 'nearest' }).ensureAlpha().png().toBuffer()
  return { png, width, height }
}
