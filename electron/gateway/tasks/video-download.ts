import { join } from 'node:path'
import { pipeline } from 'node:stream'
import { sniffingStream, sniffVideo } from '../formats/media-sniff.js'
import type { Services } from '../services.js'
import type { MediaRow } from '../store/media.js'
import { withDeadline } from '../upstreams/http.js'
import type { VideoTaskRow } from '../store/tasks.js'
import type { StoredVideoResult } from './video-settle.js'
import type { VideoPollOptions } from './video-runtime.js'

const EXT: Record<string, string> = { 'video/mp4': 'mp4', 'video/webm': 'webm', 'video/quicktime': 'mov' }

/** Where video `index` of a task is kept (its `services.media` path). */
export const videoPath = (taskId: string, index: number, mimeType: string): string =>
  join('media', 'videos', `${taskId}-${index}.${EXT[mimeType] ?? 'mp4'}`)

/** A saved video's media row id. */
export const videoMediaId = (taskId: string, index: number): string => `${taskId}-${index}`

/**
 * Streams one video to `media/videos/<task>-<n>.<ext>` (`services.media`: a half-written one never shows). The
 * link goes through the link guard; the bytes must be an MP4, WebM or QuickTime video, whatever the vendor's
 * Content-Type says, and the saved type is the one the bytes show.
 */
async function saveOne(services: Services, task: VideoTaskRow, index: number, url: string, opts: VideoPollOptions, signal: AbortSignal): Promise<MediaRow> {
  const download = withDeadline(signal, opts.downloadTimeoutMs)
  try {
    return await saveFrom(services, task, index, url, opts, download.signal)
  } finally {
    download.clear()
  }
}

async function saveFrom(services: Services, task: VideoTaskRow, index: number, url: string, opts: VideoPollOptions, signal: AbortSignal): Promise<MediaRow> {
  const res = await services.http.fetchLink(url, { accept: 'video/*, */*' }, signal)
  const type = String(res.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase()
  const declared = Number(res.headers['content-length'] ?? 0)
  const refusal = res.statusCode >= 300 ? `answered HTTP ${res.statusCode}`
    : type.startsWith('text/') || type.includes('json') ? `is not a video (content type "${type}")`
      : declared > opts.maxVideoBytes ? `is larger than ${opts.maxVideoBytes} bytes` : undefined
  if (refusal) {
    await res.body.dump()
    throw new Error(refusal)
  }
  const sniff = sniffingStream(sniffVideo, () => new Error('is not an MP4, WebM or QuickTime video'))
  // pipeline() ties the two: an aborted download fails the write, a failed write stops the download.
  const video = pipeline(res.body, sniff, () => {})
  const path = await services.media.write(() => videoPath(task.id, index, sniff.type()!), video, opts.maxVideoBytes)
  return { id: videoMediaId(task.id, index), request_id: task.id, kind: 'video', source_url: url, path, mime_type: sniff.type()!, created_at: Date.now() }
}

/**
 * Keeps a copy of every video of a succeeded task (vendor links expire: Ark and DashScope in 24 h), recorded in
 * `media` against the task id. Videos already saved are skipped; true when every one is saved.
 */
export async function saveTaskVideos(services: Services, task: VideoTaskRow, opts: VideoPollOptions, signal: AbortSignal): Promise<boolean> {
  const result = JSON.parse(task.result ?? '{"videos":[]}') as StoredVideoResult
  const saved = new Set((await services.store.media.byRequest(task.id)).map((m) => m.id))
  const outcomes = await Promise.allSettled(result.videos.map(async (url, index) => {
    if (saved.has(videoMediaId(task.id, index))) return
    await services.store.media.insert(await saveOne(services, task, index, url, opts, signal))
  }))
  const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected')
  if (failed) throw failed.reason
  return true
}
