import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { describe, expect, it } from 'vitest'
import { sniffingStream, sniffMedia, sniffRaster, sniffVideo } from '../../../electron/gateway/formats/media-sniff.js'
import { mediaHeaders } from '../../../electron/gateway/media/send-file.js'

const bytes = (...parts: Array<string | number[]>) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))))

const PNG = bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'rest of file')
const JPEG = bytes([0xff, 0xd8, 0xff, 0xe0], 'rest of file')
const WEBP = bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8 ')
const GIF = bytes('GIF89a', 'rest of file')
const MP4 = bytes([0, 0, 0, 0x18], 'ftypisom', 'rest')
const MOV = bytes([0, 0, 0, 0x14], 'ftypqt  ', 'rest')
const OLD_MOV = bytes([0, 0, 0, 0x08], 'wide', 'rest of file')
const WEBM = bytes([0x1a, 0x45, 0xdf, 0xa3], 'rest of file')
const SVG = bytes('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')
const SVG_BOM = bytes([0xef, 0xbb, 0xbf], '<?xml version="1.0"?><svg/>')
const HTML = bytes('<!doctype html><html>')

describe('sniffing by magic bytes', () => {
  it.each([
    ['PNG', PNG, 'image/png', undefined],
    ['JPEG', JPEG, 'image/jpeg', undefined],
    ['WebP', WEBP, 'image/webp', undefined],
    ['GIF', GIF, 'image/gif', undefined],
    ['MP4', MP4, undefined, 'video/mp4'],
    ['QuickTime', MOV, undefined, 'video/quicktime'],
    ['QuickTime without ftyp', OLD_MOV, undefined, 'video/quicktime'],
    ['WebM', WEBM, undefined, 'video/webm'],
    ['SVG', SVG, undefined, undefined],
    ['SVG with a BOM', SVG_BOM, undefined, undefined],
    ['HTML', HTML, undefined, undefined],
    ['nothing', Buffer.alloc(0), undefined, undefined],
  ])('%s', (_name, b, raster, video) => {
    expect(sniffRaster(b)).toBe(raster)
    expect(sniffVideo(b)).toBe(video)
    expect(sniffMedia(b)).toBe(raster ?? video)
  })
})

describe('sniffingStream', () => {
  const run = async (chunks: Buffer[]) => {
    const out: Buffer[] = []
    const sniff = sniffingStream(sniffMedia, () => new Error('refused'))
    const sink = async (source: AsyncIterable<Buffer>) => {
      for await (const c of source) out.push(c)
    }
    const error = await pipeline(Readable.from(chunks), sniff, sink).then(() => undefined, (e: Error) => e.message)
    return { error, type: sniff.type(), out: Buffer.concat(out) }
  }

  it('passes a video through whole, however it is split, and names its type', async () => {
    expect(await run([MP4.subarray(0, 3), MP4.subarray(3, 7), MP4.subarray(7)])).toEqual({ error: undefined, type: 'video/mp4', out: MP4 })
  })

  it('fails an SVG before any byte passes', async () => {
    expect(await run([SVG])).toEqual({ error: 'refused', type: undefined, out: Buffer.alloc(0) })
  })

  it('fails a body shorter than any magic number', async () => {
    expect((await run([Buffer.from('<s')])).error).toBe('refused')
  })
})

describe('mediaHeaders', () => {
  it.each([
    ['image/png', undefined],
    ['video/mp4', undefined],
    ['image/svg+xml', 'attachment'],
    ['application/octet-stream', 'attachment'],
  ])('%s: sandboxed, nosniff, disposition %s', (type, disposition) => {
    const headers = mediaHeaders(type)
    expect(headers).toMatchObject({ 'content-type': type, 'content-security-policy': 'sandbox', 'x-content-type-options': 'nosniff' })
    expect(headers['content-disposition']).toBe(disposition)
  })
})
