import { createWriteStream } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { MediaItem } from '../../../shared/admin.js'
import { ADMIN_PREFIX } from '../../../shared/admin.js'
import { MAX_BODY_BYTES, checkDeclaredLength, clientGone, tooLarge, watchUpload } from '../body.js'
import type { RequestContext } from '../context.js'
import { newRequestId } from '../context.js'
import { gatewayError } from '../errors.js'
import { sendJson } from '../respond.js'
import { fileSize, sendFile } from '../send-file.js'
import type { Services } from '../services.js'
import type { MediaRow } from '../store/media.js'
import { notFound, queryOf, segment } from './admin-io.js'

const EXT: Record<string, string> = {
  'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif', 'video/mp4': 'mp4', 'video/webm': 'webm', 'video/quicktime': 'mov',
}

const toItem = (m: MediaRow): MediaItem => ({
  id: m.id, requestId: m.request_id, kind: m.kind, mimeType: m.mime_type, url: `${ADMIN_PREFIX}/media/${encodeURIComponent(m.id)}`,
  sourceUrl: m.source_url, createdAt: m.created_at,
})

/** GET /admin/v1/media?request=: what was kept of a request's (or task's) images and videos. */
export async function listMedia(ctx: RequestContext, services: Services): Promise<void> {
  const request = queryOf(ctx).get('request')
  if (!request) throw gatewayError('invalid_request', 'missing_field', { field: 'request' }, { param: 'request' })
  sendJson(ctx.res, 200, services.store.media.byRequest(request).map(toItem))
}

/**
 * POST /admin/v1/media?request=: keeps an image or video the app received inline (b64_json), so its history
 * holds a reference instead of megabytes of base64. The body is streamed to disk, capped like every body.
 */
export async function uploadMedia(ctx: RequestContext, services: Services): Promise<void> {
  const request = queryOf(ctx).get('request')
  if (!request) throw gatewayError('invalid_request', 'missing_field', { field: 'request' }, { param: 'request' })
  const mimeType = (ctx.req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase()
  const ext = EXT[mimeType]
  if (!ext) throw gatewayError('invalid_request', 'invalid_field', { field: 'content-type', detail: `must be one of ${Object.keys(EXT).join(', ')}` }, { param: 'content-type' })
  checkDeclaredLength(ctx.req)
  const id = `${request}-app-${newRequestId().slice(4)}`
  const path = join('media', 'app', `${id}.${ext}`)
  await mkdir(join(services.dataDir, 'media', 'app'), { recursive: true })
  const file = join(services.dataDir, path)
  try {
    await saveUpload(ctx, file)
  } catch (err) {
    await rm(file, { force: true })
    throw err
  }
  const row: MediaRow = { id, request_id: request, kind: mimeType.startsWith('video/') ? 'video' : 'image', source_url: null, path, mime_type: mimeType, created_at: Date.now() }
  services.store.media.insert(row)
  sendJson(ctx.res, 201, toItem(row))
}

/** Streams the request body to `file`: capped at 60 MB and bounded in time (408) like every body. */
function saveUpload(ctx: RequestContext, file: string): Promise<void> {
  const { req } = ctx
  return new Promise((resolve, reject) => {
    const out = createWriteStream(file, { mode: 0o600 })
    let size = 0
    let failed = false
    const fail = (err: unknown) => {
      if (failed) return
      failed = true
      stopTimers()
      req.unpipe(out)
      req.pause()
      out.destroy()
      reject(err)
    }
    const stopTimers = watchUpload(req, ctx.timeouts, fail)
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) fail(tooLarge())
    })
    req.once('close', () => {
      if (!req.complete) fail(clientGone())
    })
    out.once('error', fail)
    out.once('finish', () => {
      stopTimers()
      if (!failed) resolve()
    })
    req.pipe(out)
  })
}

/** GET /admin/v1/media/{id}: the bytes, streamed, seekable. */
export async function getMedia(ctx: RequestContext, services: Services, params: string[]): Promise<void> {
  const id = segment(params[0], 'media')
  const media = services.store.media.get(id)
  const path = media ? join(services.dataDir, media.path) : undefined
  const size = path ? await fileSize(path) : undefined
  if (!media || size === undefined) throw notFound('media', id)
  await sendFile(ctx, path!, size, { 'content-type': media.mime_type, 'cache-control': 'private, max-age=31536000, immutable', 'x-content-type-options': 'nosniff' })
}
