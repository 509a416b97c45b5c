import { createReadStream } from 'node:fs'
import type { RequestContext } from '../context.js'
import type { StoredFile } from './media-files.js'
import { isInlineMediaType } from '../formats/media-sniff.js'
import { drained } from '../respond.js'

/**
 * Headers of every media file served: no script runs in it even when opened directly (CSP sandbox), the
 * browser never guesses another type (nosniff), and anything but a raster image or a video is a download.
 */
export function mediaHeaders(mimeType: string): Record<string, string> {
  return {
    'content-type': mimeType,
    'content-security-policy': 'sandbox',
    'x-content-type-options': 'nosniff',
    ...(isInlineMediaType(mimeType) ? {} : { 'content-disposition': 'attachment' }),
  }
}

/** `bytes=a-b`, `bytes=a-`, `bytes=-n` of a file of `size` bytes; undefined for anything else (the whole file). */
export function byteRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  const m = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim())
  if (!m || (m[1] === '' && m[2] === '')) return undefined
  const start = m[1] === '' ? Math.max(0, size - Number(m[2])) : Number(m[1])
  const end = m[1] === '' || m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1)
  return start > end || start >= size ? 'unsatisfiable' : { start, end }
}

/** Streams a file (never read whole into memory), with Range support so players can seek. */
export const sendFile = (ctx: RequestContext, path: string, size: number, headers: Record<string, string>): Promise<void> =>
  sendStored(ctx, { size, stream: (start, end) => createReadStream(path, { start, end }) }, headers)

/** Streams kept bytes (a file, or media in the database) as they are read, with Range support so players can seek. */
export async function sendStored(ctx: RequestContext, file: StoredFile, headers: Record<string, string>): Promise<void> {
  const { req, res } = ctx
  // Ended by the gateway before a byte went (its key revoked, its session signed out): the client hears why.
  if (ctx.abort.endedBy !== undefined) throw ctx.abort.endedBy
  const { size } = file
  const range = byteRange(req.headers.range, size)
  if (range === 'unsatisfiable') {
    res.writeHead(416, { 'content-range': `bytes */${size}` }).end()
    return
  }
  const { start, end } = range ?? { start: 0, end: size - 1 }
  res.writeHead(range ? 206 : 200, {
    ...headers, 'content-length': end - start + 1, 'accept-ranges': 'bytes',
    ...(range ? { 'content-range': `bytes ${start}-${end}/${size}` } : {}),
  })
  if (req.method === 'HEAD' || size === 0) {
    res.end()
    return
  }
  try {
    // By hand rather than pipeline(): a client that stops reading is cut after clientIdleMs (`drained`).
    for await (const chunk of file.stream(start, end)) {
      // Ended by the gateway or the client: not a byte more (a download cut short says it, having no error frame).
      if (ctx.abort.aborted) return void res.destroy()
      if (!res.write(chunk)) await drained(ctx)
      if (res.destroyed) return
    }
    res.end()
  } catch {
    res.destroy()
  }
}
