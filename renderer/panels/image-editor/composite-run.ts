/**
 * Compositing a masked edit's results in the page: decode the result and the reference (drawn at the
 * result's size), put the reference back outside the mask (composite.ts), encode the composite as PNG.
 */
import { compositeEdit, type CompositeStats } from '../../canvas/composite'
import type { SentMask } from './submission'

/**
 * A result image decoded through an <img>: the page's CSP lets images load from blob: and the gateway, while
 * script fetches may only reach the gateway (connect-src 'self'), so a blob URL cannot be fetched.
 */
async function loadImage(src: string): Promise<ImageBitmap> {
  const img = new Image()
  img.src = src
  await img.decode()
  return createImageBitmap(img)
}

/** The pixels of an image drawn at width x height (the reference is stretched to the result's size, as the vendor does). */
async function pixelsOf(source: Blob | string, width?: number, height?: number): Promise<ImageData> {
  const bitmap = typeof source === 'string' ? await loadImage(source) : await createImageBitmap(source)
  try {
    const w = width ?? bitmap.width
    const h = height ?? bitmap.height
    const canvas = new OffscreenCanvas(w, h)
    const ctx = canvas.getContext('2d', { willReadFrequently: true })!
    ctx.imageSmoothingQuality = 'high'
    ctx.drawImage(bitmap, 0, 0, w, h)
    return ctx.getImageData(0, 0, w, h)
  } finally {
    bitmap.close()
  }
}

/** The composite of one result (`resultSrc`: a blob URL or a gateway media link) as a PNG, with its figures. */
export async function compositeResult(resultSrc: string, reference: Blob, mask: SentMask, feather: number): Promise<{ png: Blob; stats: CompositeStats }> {
  const result = await pixelsOf(resultSrc)
  const ref = await pixelsOf(reference, result.width, result.height)
  const { pixels, stats } = compositeEdit(result.data, ref.data, result.width, result.height, mask, feather)
  const canvas = new OffscreenCanvas(result.width, result.height)
  canvas.getContext('2d')!.putImageData(new ImageData(pixels, result.width, result.height), 0, 0)
  return { png: await canvas.convertToBlob({ type: 'image/png' }), stats }
}
