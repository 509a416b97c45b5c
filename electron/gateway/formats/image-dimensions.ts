/**
 * Image width and height read from the file HEADER only (no pixel decode): PNG (IHDR), JPEG (SOFn),
 * GIF, WebP (VP8, VP8L, VP8X) and BMP. The format is found from the magic bytes, never from the
 * MIME type a client claims. Anything else (SVG, TIFF, AVIF, HEIC, corrupt data) gives `undefined`:
 * the caller forwards such images unchecked and lets the upstream decide.
 */
import { dataUrlBytes } from './data-url.js'

export interface ImageSize {
  format: 'png' | 'jpeg' | 'gif' | 'webp' | 'bmp'
  width: number
  height: number
}

/** The header ended before the size was found (JPEG with large metadata segments, or a cut file). */
export const TRUNCATED = 'truncated' as const

/** The size from a file's leading bytes; `TRUNCATED` when more bytes are needed, `undefined` when unknown. */
export function readImageSize(buf: Uint8Array): ImageSize | typeof TRUNCATED | undefined {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength)
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return png(b)
  if (startsWith(b, [0xff, 0xd8, 0xff])) return jpeg(b)
  if (b.length >= 6 && (b.toString('latin1', 0, 6) === 'GIF87a' || b.toString('latin1', 0, 6) === 'GIF89a')) return gif(b)
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return webp(b)
  if (startsWith(b, [0x42, 0x4d])) return bmp(b)
  return b.length < 12 ? TRUNCATED : undefined
}

function startsWith(b: Buffer, magic: number[]): boolean {
  return b.length >= magic.length && magic.every((byte, i) => b[i] === byte)
}

/** PNG: the first chunk is IHDR; width and height are big-endian uint32 at 16 and 20. */
function png(b: Buffer): ImageSize | typeof TRUNCATED | undefined {
  if (b.length < 24) return TRUNCATED
  if (b.toString('latin1', 12, 16) !== 'IHDR') return undefined
  return { format: 'png', width: b.readUInt32BE(16), height: b.readUInt32BE(20) }
}

/** GIF: the logical screen size, little-endian uint16 at 6 and 8. */
function gif(b: Buffer): ImageSize | typeof TRUNCATED {
  if (b.length < 10) return TRUNCATED
  return { format: 'gif', width: b.readUInt16LE(6), height: b.readUInt16LE(8) }
}

/** BMP: BITMAPCOREHEADER (12 bytes) has uint16 sizes; later headers int32, height negative when top-down. */
function bmp(b: Buffer): ImageSize | typeof TRUNCATED | undefined {
  if (b.length < 26) return TRUNCATED
  const dibSize = b.readUInt32LE(14)
  if (dibSize === 12) return { format: 'bmp', width: b.readUInt16LE(18), height: b.readUInt16LE(20) }
  if (dibSize < 40) return undefined
  return { format: 'bmp', width: Math.abs(b.readInt32LE(18)), height: Math.abs(b.readInt32LE(22)) }
}

/** WebP: the first chunk after `RIFF....WEBP` is VP8 (lossy), VP8L (lossless) or VP8X (extended). */
function webp(b: Buffer): ImageSize | typeof TRUNCATED | undefined {
  if (b.length < 16) return TRUNCATED
  const chunk = b.toString('latin1', 12, 16)
  if (b.length < (chunk === 'VP8L' ? 25 : 30)) return TRUNCATED
  if (chunk === 'VP8 ') {
    // 3-byte frame tag, start code 9d 01 2a, then 14-bit width and height (2 bits of scale each).
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return undefined
    return { format: 'webp', width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff }
  }
  if (chunk === 'VP8L') {
    // Signature 0x2f, then 14 bits width-1 and 14 bits height-1, little-endian bit order.
    if (b[20] !== 0x2f) return undefined
    const bits = b.readUInt32LE(21)
    return { format: 'webp', width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 }
  }
  if (chunk === 'VP8X') {
    // Flags (1 byte) and 3 reserved bytes, then 24-bit canvas width-1 and height-1.
    return { format: 'webp', width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 }
  }
  return undefined
}

/**
 * JPEG: walks the marker segments to the first start-of-frame (SOF0..SOF15 except DHT C4, JPG C8
 * and DAC CC), whose payload is precision (1 byte), height and width (big-endian uint16).
 */
function jpeg(b: Buffer): ImageSize | typeof TRUNCATED | undefined {
  let i = 2
  for (;;) {
    while (i < b.length && b[i] !== 0xff) i++ // tolerate stray bytes between segments
    while (i < b.length && b[i] === 0xff) i++ // fill bytes
    if (i >= b.length) return TRUNCATED
    const marker = b[i++]
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue // no length field
    if (marker === 0xd9 || marker === 0xda) return undefined // end of image / start of scan before any frame
    if (i + 2 > b.length) return TRUNCATED
    const length = b.readUInt16BE(i)
    if (length < 2) return undefined
    const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc
    if (isSof) {
      if (i + 7 > b.length) return TRUNCATED
      const height = b.readUInt16BE(i + 3)
      const width = b.readUInt16BE(i + 5)
      // A height of 0 means "defined later by a DNL marker": not readable from the header.
      return height === 0 ? undefined : { format: 'jpeg', width, height }
    }
    i += length
  }
}

/** Header bytes read first; a JPEG whose frame header lies beyond them (big EXIF/ICC segments) is decoded whole. */
const HEADER_PREFIX_BYTES = 64 * 1024

/** Size of the image in a `data:` URL from its header; `undefined` when the URL is not a data URL or the format is unknown. */
export function dataUrlImageSize(url: string): ImageSize | undefined {
  const prefix = dataUrlBytes(url, HEADER_PREFIX_BYTES)
  if (!prefix) return undefined
  const size = readImageSize(prefix.bytes)
  if (size !== TRUNCATED) return size
  if (prefix.complete) return undefined
  const whole = readImageSize(dataUrlBytes(url)!.bytes)
  return whole === TRUNCATED ? undefined : whole
}
