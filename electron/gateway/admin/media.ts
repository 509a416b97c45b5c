import { join } from 'node:path'
import type { Transform } from 'node:stream'
import { MAX_BODY_BYTES, checkDeclaredLength, clientGone, tooLarge, watchUpload } from '../client/body.js'
import type { RequestContext } from '../context.js'
import { newRequestId } from '../context.js'
import { gatewayError } from '../errors.js'
import { sendJson } from '../respond.js'
import { sniffingStream, sniffMedia } from '../formats/media-sniff.js'
import { mediaItemOf } from '../media/media-item.js'
import { mediaHeaders, sendStored } from '../media/send-file.js'
import type { Services } from '../services.js'
import type { MediaRow } from '../store/media.js'
import { notFound, queryOf, segment } from './admin-io.js'

const EXT: Record<string, string> = {
  'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif', 'video/mp4': 'mp4', 'video/webm': 'webm', 'video/quicktime': 'mov',
}

/** Longest `request` value: request and task ids are far shorter. */
const MAX_REQUEST_CHARS = 200

/** The `request` query value: the request or task the media belongs to. Data only, never part of a path. */
export function requestParam(ctx: RequestContext): string {
  const request = queryOf(ctx).get('request')
  if (!request) throw gatewayError('invalid_request', 'missing_field', { field: 'request' }, { param: 'request' })
  if (request.length > MAX_REQUEST_CHARS || /\p{Cc}/u.test(request)) {
    throw gatewayError('invalid_request', 'invalid_field', { field: 'request', detail: { en: `must be at most ${MAX_REQUEST_CHARS} characters without control characters`, zh: `最多 ${MAX_REQUEST_CHARS} 个字符，且不含控制字符` } }, { param: 'request' })
  }
  return request
}

/** GET /admin/v1/media?request=: what was kept of a request's (or task's) images and videos. */
export async function listMedia(ctx: RequestContext, services: Services): Promise<void> {
  sendJson(ctx.res, 200, (await services.store.media.byRequest(requestParam(ctx))).map(mediaItemOf))
}

const notMedia = () => gatewayError('invalid_request', 'invalid_field', { field: 'body', detail: { en: 'is not a PNG, JPEG, WebP, GIF, MP4, WebM or QuickTime file', zh: '不是 PNG、JPEG、WebP、GIF、MP4、WebM 或 QuickTime 文件' } }, { param: 'body' })

/**
 * POST /admin/v1/media?request=: keeps an image or video the app received inline (b64_json), so its history
 * holds a reference instead of megabytes of base64. The body is streamed to `services.media`, capped like every
 * body; its magic bytes decide its type. The path is a gateway-made id: nothing the client sends is part of it.
 */
export async function uploadMedia(ctx: RequestContext, services: Services): Promise<void> {
  const request = requestParam(ctx)
  const mimeType = (ctx.req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase()
  if (!EXT[mimeType]) throw gatewayError('invalid_request', 'invalid_field', { field: 'content-type', detail: `must be one of ${Object.keys(EXT).join(', ')}` }, { param: 'content-type' })
  checkDeclaredLength(ctx.req)
  const id = `med_${newRequestId().slice(4)}`
  const sniff = sniffingStream(sniffMedia, notMedia)
  const path = await saveUpload(ctx, sniff, (check) => services.media.write(() => join('media', 'app', `${id}.${EXT[sniff.type()!]}`), check, MAX_BODY_BYTES))
  const type = sniff.type()!
  const row: MediaRow = { id, request_id: request, kind: type.startsWith('video/') ? 'video' : 'image', source_url: null, path, mime_type: type, created_at: Date.now() }
  await services.store.media.insert(row)
  sendJson(ctx.res, 201, mediaItemOf(row))
}

/** GET /admin/v1/media/{id}: the bytes, streamed, seekable. */
export async function getMedia(ctx: RequestContext, services: Services, params: string[]): Promise<void> {
  const id = segment(params[0], 'media')
  // A session's download ends with the session (signed out, expired); the desktop's admin token has no end.
  const session = await services.admin.session(ctx.req, true)
  if (session) services.sessionDownloads.track(ctx, session.id, () => services.admin.sessionEndsAt(session.id))
  const media = await services.store.media.get(id)
  const file = media ? await services.media.read(media.path) : undefined
  if (!media || !file) throw notFound('media', id)
  await sendStored(ctx, file, { ...mediaHeaders(media.mime_type), 'cache-control': 'private, max-age=31536000, immutable' })
}

/**
 * Streams the request body through `check` (which may refuse it) into `write`: capped at 60 MB and bounded in
 * time (408) like every body. A refused, cut or late body fails with its own error, and `write` stores nothing.
 */
async function saveUpload<T>(ctx: RequestContext, check: Transform, write: (body: Transform) => Promise<T>): Promise<T> {
  const { req } = ctx
  let failure: unknown
  const fail = (err: unknown) => {
    if (failure !== undefined) return
    failure = err
    stopTimers()
    req.unpipe(check)
    req.pause()
    check.destroy(err as Error)
  }
  const stopTimers = watchUpload(req, ctx.timeouts, fail)
  let size = 0
  req.on('data', (chunk: Buffer) => {
    size += chunk.length
    if (size > MAX_BODY_BYTES) fail(tooLarge())
  })
  req.once('close', () => {
    if (!req.complete) fail(clientGone())
  })
  check.once('error', fail)
  req.pipe(check)
  try {
    const result = await write(check)
    if (failure !== undefined) throw failure
    return result
  } catch (err) {
    fail(err)
    throw failure
  } finally {
    stopTimers()
  }
}
