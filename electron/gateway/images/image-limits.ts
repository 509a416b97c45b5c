/**
 * Bounds on the image work the gateway does itself (reading headers, fitting masks): a small file whose header
 * claims a huge size must be refused before anything is decoded, not after memory ran out.
 */
import { dataUrlImageSize, readImageSize } from '../formats/image-dimensions.js'
import { gatewayError } from '../errors.js'

/**
 * The most pixels (width x height) of any image the gateway reads: 100 megapixels (10000x10000). Every image
 * model's input is far smaller (the largest outputs are about 4096x4096, 16.8 megapixels), so no real
 * reference comes near it, while the memory one decode may take stays bounded (about 400 MB at RGBA).
 */
export const MAX_INPUT_PIXELS = 100_000_000

/** sharp's input options: libvips refuses to decode past MAX_INPUT_PIXELS, whatever the caller checked. */
export const SHARP_INPUT = { limitInputPixels: MAX_INPUT_PIXELS } as const

/** Header bytes enough for every format readImageSize knows (a JPEG's frame header may follow large EXIF data). */
const HEAD_BYTES = 64 * 1024

/** The leading bytes of an image held in pieces, joined only up to HEAD_BYTES. */
export function imageHead(chunks: readonly Buffer[]): Buffer {
  if (chunks.length === 0) return Buffer.alloc(0)
  if (chunks[0].length >= HEAD_BYTES || chunks.length === 1) return chunks[0]
  const head: Buffer[] = []
  let size = 0
  for (const chunk of chunks) {
    if (size >= HEAD_BYTES) break
    head.push(chunk)
    size += chunk.length
  }
  return Buffer.concat(head, size)
}

/** A 400 naming the image and its size when it has more than MAX_INPUT_PIXELS pixels. */
export function checkPixels(size: { width: number; height: number } | undefined, param: string): void {
  if (size && size.width * size.height > MAX_INPUT_PIXELS) {
    throw gatewayError('invalid_request', 'image_too_many_pixels', { field: param, width: size.width, height: size.height, max: MAX_INPUT_PIXELS }, { param })
  }
}

/** Checks the size an image's header claims (unknown formats pass: sharp's own limit still holds at decode). */
export function checkImageHeader(head: Uint8Array, param: string): void {
  const size = readImageSize(head)
  checkPixels(typeof size === 'object' ? size : undefined, param)
}

/** The same check for a reference given as a URL: data: URLs are read (a prefix only); links are checked once downloaded. */
export function checkReferenceHeader(url: string, param: string): void {
  checkPixels(dataUrlImageSize(url), param)
}
