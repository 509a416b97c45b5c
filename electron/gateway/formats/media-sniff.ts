/**
 * What a file is, from its magic bytes: a vendor's or a client's Content-Type is a claim, not a fact. Only
 * raster images and videos are ever stored or served as media; SVG (markup that can carry scripts) and
 * anything else unknown sniff as nothing.
 */
import { Transform } from 'node:stream'

export type RasterType = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif'
export type VideoType = 'video/mp4' | 'video/webm' | 'video/quicktime'

/** Bytes enough to tell every type below apart. */
export const SNIFF_BYTES = 12

const RASTER_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/webp', 'image/gif']
const VIDEO_TYPES: readonly string[] = ['video/mp4', 'video/webm', 'video/quicktime']

/** A type the gateway may serve inline (a browser renders it without running anything). */
export const isInlineMediaType = (mimeType: string): boolean => RASTER_TYPES.includes(mimeType) || VIDEO_TYPES.includes(mimeType)

const latin1 = (b: Uint8Array, start: number, end: number) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1', start, end)

const startsWith = (b: Uint8Array, magic: readonly number[]) => b.length >= magic.length && magic.every((byte, i) => b[i] === byte)

/** PNG, JPEG, WebP or GIF from the leading bytes; undefined for anything else. */
export function sniffRaster(b: Uint8Array): RasterType | undefined {
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png'
  if (startsWith(b, [0xff, 0xd8, 0xff])) return 'image/jpeg'
  if (b.length >= 12 && latin1(b, 0, 4) === 'RIFF' && latin1(b, 8, 12) === 'WEBP') return 'image/webp'
  if (b.length >= 6 && (latin1(b, 0, 6) === 'GIF87a' || latin1(b, 0, 6) === 'GIF89a')) return 'image/gif'
  return undefined
}

// Atoms a QuickTime file may open with when it has no `ftyp` (files older than the ISO format).
const QUICKTIME_ATOMS = ['moov', 'mdat', 'wide', 'free', 'skip']

/** MP4, QuickTime (ISO base media, by its `ftyp` brand) or WebM (EBML header); undefined for anything else. */
export function sniffVideo(b: Uint8Array): VideoType | undefined {
  if (startsWith(b, [0x1a, 0x45, 0xdf, 0xa3])) return 'video/webm'
  if (b.length < 12) return undefined
  const box = latin1(b, 4, 8)
  if (box === 'ftyp') return latin1(b, 8, 12) === 'qt  ' ? 'video/quicktime' : 'video/mp4'
  return QUICKTIME_ATOMS.includes(box) ? 'video/quicktime' : undefined
}

/** A raster image or a video, whichever the bytes are. */
export const sniffMedia = (b: Uint8Array): RasterType | VideoType | undefined => sniffRaster(b) ?? sniffVideo(b)

/** A stream that passes bytes through once their first SNIFF_BYTES were recognised by `sniff`. */
export type SniffingStream = Transform & { type(): string | undefined }

/**
 * Holds back the first SNIFF_BYTES, asks `sniff` what they are, and fails the stream with `refused()` when it
 * does not know: nothing unrecognised reaches the file being written.
 */
export function sniffingStream(sniff: (head: Buffer) => string | undefined, refused: () => Error): SniffingStream {
  let head: Buffer | undefined = Buffer.alloc(0)
  let type: string | undefined
  const decide = (stream: Transform): Error | null => {
    type = sniff(head!)
    if (!type) return refused()
    stream.push(head)
    head = undefined
    return null
  }
  const stream: Transform = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (!head) return done(null, chunk)
      head = Buffer.concat([head, chunk])
      done(head.length >= SNIFF_BYTES ? decide(stream) : null)
    },
    flush(done) {
      done(head ? decide(stream) : null)
    },
  })
  return Object.assign(stream, { type: () => type })
}
