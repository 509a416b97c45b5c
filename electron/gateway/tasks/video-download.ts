import { randomBytes } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { sniffingStream, sniffVideo } from '../media-sniff.js'
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../private-files.js'
import type { Services } from '../services.js'
import type { MediaRow } from '../store/media.js'
import type { VideoTaskRow } from '../store/tasks.js'
import type { StoredVideoResult } from './video-settle.js'
import type { VideoPollOptions } from './video-runtime.js'

const EXT: Record<string, string> = { 'video/mp4': 'mp4', 'video/webm': 'webm', 'video/quicktime': 'mov' }

/** Where video `index` of a task is kept, relative to the data dir. */
export const videoPath = (taskId: string, index: number, mimeType: string): string =>
  join('media', 'videos', `${taskId}-${index}.${EXT[mimeType] ?? 'mp4'}`)

/** A saved video's media row id. */
export const videoMediaId = (taskId: string, index: number): string => `${taskId}-${index}`

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

/**
 * Streams one video to `<dataDir>/media/videos/<task>-<n>.<ext>` (through a temp file, so a half-written file
 * never shows). The link goes through the link guard; the bytes must be an MP4, WebM or QuickTime video,
 * whatever the vendor's Content-Type says, and the saved type is the one the bytes show.
 */
async function saveOne(services: Services, task: VideoTaskRow, index: number, url: string, opts: VideoPollOptions, signal: AbortSignal): Promise<MediaRow> {
  const res = await services.http.fetchLink(url, { accept: 'video/*, */*' }, AbortSignal.any([signal, AbortSignal.timeout(opts.downloadTimeoutMs)]))
  const type = String(res.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase()
  const declared = Number(res.headers['content-length'] ?? 0)
  const refusal = res.statusCode >= 300 ? `answered HTTP ${res.statusCode}`
    : type.startsWith('text/') || type.includes('json') ? `is not a video (content type "${type}")`
      : declared > opts.maxVideoBytes ? `is larger than ${opts.maxVideoBytes} bytes` : undefined
  if (refusal) {
    await res.body.dump()
    throw new Error(refusal)
  }
  const temp = join(services.dataDir, 'media', 'videos', `${task.id}-${index}.${randomBytes(4).toString('hex')}.part`)
  const cap = byteCap(opts.maxVideoBytes)
  const sniff = sniffingStream(sniffVideo, () => new Error('is not an MP4, WebM or QuickTime video'))
  let path: string
  try {
    await pipeline(res.body, cap, sniff, createWriteStream(temp, { mode: PRIVATE_FILE_MODE }))
    path = videoPath(task.id, index, sniff.type()!)
    await rename(temp, join(services.dataDir, path))
  } catch (err) {
    await rm(temp, { force: true })
    throw err
  }
  return { id: videoMediaId(task.id, index), request_id: task.id, kind: 'video', source_url: url, path, mime_type: sniff.type()!, created_at: Date.now() }
}

/**
 * Keeps a copy of every video of a succeeded task (vendor links expire: Ark and DashScope in 24 h), recorded in
 * `media` against the task id. Videos already saved are skipped; true when every one is saved.
 */
export async function saveTaskVideos(services: Services, task: VideoTaskRow, opts: VideoPollOptions, signal: AbortSignal): Promise<boolean> {
  const result = JSON.parse(task.result ?? '{"videos":[]}') as StoredVideoResult
  const saved = new Set((await services.store.media.byRequest(task.id)).map((m) => m.id))
  await ensurePrivateDir(join(services.dataDir, 'media', 'videos'))
  const outcomes = await Promise.allSettled(result.videos.map(async (url, index) => {
    if (saved.has(videoMediaId(task.id, index))) return
    await services.store.media.insert(await saveOne(services, task, index, url, opts, signal))
  }))
  const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected')
  if (failed) throw failed.reason
  return true
}
