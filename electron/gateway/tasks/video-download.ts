import { randomBytes } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { UpstreamResponse } from '../http.js'
import type { Services } from '../services.js'
import type { MediaRow } from '../store/media.js'
import type { VideoTaskRow } from '../store/tasks.js'
import type { StoredVideoResult } from './video-settle.js'
import type { VideoPollOptions } from './video-runtime.js'

const EXT: Record<string, string> = { 'video/mp4': 'mp4', 'video/webm': 'webm', 'video/quicktime': 'mov' }
const MAX_REDIRECTS = 3

/** Where video `index` of a task is kept, relative to the data dir. */
export const videoPath = (taskId: string, index: number, mimeType: string): string =>
  join('media', 'videos', `${taskId}-${index}.${EXT[mimeType] ?? 'mp4'}`)

/** A saved video's media row id. */
export const videoMediaId = (taskId: string, index: number): string => `${taskId}-${index}`

/** GET a vendor link (signed CDN links may redirect), streamed: the body is not read here. */
async function fetchVideo(services: Services, url: string, signal: AbortSignal): Promise<UpstreamResponse> {
  let target = url
  for (let hop = 0; ; hop++) {
    const res = await services.http.send({ method: 'GET', url: target, headers: { accept: 'video/*, */*' } }, signal)
    const location = res.headers.location
    if (res.statusCode < 300 || res.statusCode >= 400 || typeof location !== 'string' || hop === MAX_REDIRECTS) return res
    await res.body.dump()
    target = new URL(location, target).toString()
  }
}

/** Counts bytes as they pass and stops the stream past the cap. */
function byteCap(maxBytes: number): Transform & { bytes: () => number } {
  let size = 0
  const cap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length
      done(size > maxBytes ? new Error(`is larger than ${maxBytes} bytes`) : null, chunk)
    },
  })
  return Object.assign(cap, { bytes: () => size })
}

/** Streams one video to `<dataDir>/media/videos/<task>-<n>.<ext>` (through a temp file, so a half-written file never shows). */
async function saveOne(services: Services, task: VideoTaskRow, index: number, url: string, opts: VideoPollOptions, signal: AbortSignal): Promise<MediaRow> {
  const res = await fetchVideo(services, url, AbortSignal.any([signal, AbortSignal.timeout(opts.downloadTimeoutMs)]))
  const type = String(res.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase()
  const declared = Number(res.headers['content-length'] ?? 0)
  const refusal = res.statusCode >= 300 ? `answered HTTP ${res.statusCode}`
    : type.startsWith('text/') || type.includes('json') ? `is not a video (content type "${type}")`
      : declared > opts.maxVideoBytes ? `is larger than ${opts.maxVideoBytes} bytes` : undefined
  if (refusal) {
    await res.body.dump()
    throw new Error(refusal)
  }
  const mimeType = type.startsWith('video/') ? type : 'video/mp4'
  const path = videoPath(task.id, index, mimeType)
  const temp = join(services.dataDir, `${path}.${randomBytes(4).toString('hex')}.part`)
  const cap = byteCap(opts.maxVideoBytes)
  try {
    await pipeline(res.body, cap, createWriteStream(temp))
    await rename(temp, join(services.dataDir, path))
  } catch (err) {
    await rm(temp, { force: true })
    throw err
  }
  return { id: videoMediaId(task.id, index), request_id: task.id, kind: 'video', source_url: url, path, mime_type: mimeType, created_at: Date.now() }
}

/**
 * Keeps a copy of every video of a succeeded task (vendor links expire: Ark and DashScope in 24 h), recorded in
 * `media` against the task id. Videos already saved are skipped; true when every one is saved.
 */
export async function saveTaskVideos(services: Services, task: VideoTaskRow, opts: VideoPollOptions, signal: AbortSignal): Promise<boolean> {
  const result = JSON.parse(task.result ?? '{"videos":[]}') as StoredVideoResult
  const saved = new Set(services.store.media.byRequest(task.id).map((m) => m.id))
  await mkdir(join(services.dataDir, 'media', 'videos'), { recursive: true })
  const outcomes = await Promise.allSettled(result.videos.map(async (url, index) => {
    if (saved.has(videoMediaId(task.id, index))) return
    services.store.media.insert(await saveOne(services, task, index, url, opts, signal))
  }))
  const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected')
  if (failed) throw failed.reason
  return true
}
