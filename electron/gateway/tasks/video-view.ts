import { nanoToUsd } from '../money/money.js'
import type { MediaRow } from '../store/media.js'
import type { VideoTaskRow } from '../store/tasks.js'
import { shownTaskError } from './task-error.js'
import { videoMediaId } from './video-download.js'
import { storedRequest, type StoredVideoResult } from './video-settle.js'

/** Where a video task is polled. */
export const videoStatusUrl = (id: string): string => `/v1/video/tasks/${id}`

/** The saved copy of video `index`, fetched with the same key. */
export const videoContentUrl = (id: string, index: number): string =>
  `/v1/video/tasks/${id}/content${index === 0 ? '' : `?index=${index}`}`

const seconds = (ms: number): number => Math.floor(ms / 1000)
const parsed = <T>(text: string | null): T | undefined => (text ? (JSON.parse(text) as T) : undefined)

/** The task as GET /v1/video/tasks/{task_id} shows it (shared/schemas/video.ts `videoTaskObject`). */
export function videoTaskView(task: VideoTaskRow, media: MediaRow[], redact: (text: string) => string): Record<string, unknown> {
  const { price, images: _images, ...request } = storedRequest(task)
  const result = parsed<StoredVideoResult>(task.result)
  const saved = new Map(media.map((m) => [m.id, m]))
  return {
    task_id: task.id,
    object: 'video.task',
    status: task.status,
    progress: task.status === 'succeeded' ? 100 : task.progress,
    vendor_status: task.vendor_status,
    model: task.model,
    created_at: seconds(task.created_at),
    updated_at: seconds(task.updated_at),
    status_url: videoStatusUrl(task.id),
    request: { ...request, max_seconds: price?.maxSeconds },
    reserved: task.settled ? 0 : nanoToUsd(task.reserved_nano),
    ...(result ? {
      result: {
        videos: result.videos.map((url, index) => {
          const copy = saved.get(videoMediaId(task.id, index))
          return copy ? { url, content_url: videoContentUrl(task.id, index), mime_type: copy.mime_type } : { url }
        }),
        ...(result.seconds !== undefined ? { seconds: result.seconds } : {}),
      },
      usage: { seconds: result.billed_seconds, cost: nanoToUsd(task.cost_nano) },
    } : {}),
    ...(task.error ? { error: shownTaskError(task.error, redact) } : {}),
  }
}

/** DashScope's task words for the normalized states. */
const NATIVE_STATUS: Record<VideoTaskRow['status'], string> = {
  queued: 'PENDING', running: 'RUNNING', succeeded: 'SUCCEEDED', failed: 'FAILED', canceled: 'CANCELED',
}

/** DashScope's time format (`2025-09-29 14:18:52.331`), in UTC. */
const nativeTime = (ms: number): string => new Date(ms).toISOString().replace('T', ' ').slice(0, 23)

/**
 * A task as DashScope's native `GET /api/v1/tasks/{task_id}` answers it, built from the stored task; `task_id` is
 * the gateway's. A task the key does not own (or that does not exist) is `UNKNOWN` with HTTP 200, as DashScope does.
 * @see ../../../docs/vendors/dashscope.md §1
 */
export function nativeTaskView(requestId: string, task: VideoTaskRow | undefined, taskId: string, redact: (text: string) => string): Record<string, unknown> {
  if (!task) return { request_id: requestId, output: { task_id: taskId, task_status: 'UNKNOWN' } }
  const output: Record<string, unknown> = { task_id: task.id, task_status: NATIVE_STATUS[task.status], submit_time: nativeTime(task.created_at) }
  const ended = task.settled === 1
  if (ended) output.end_time = nativeTime(task.updated_at)
  const error = shownTaskError(task.error, redact)
  if (error) Object.assign(output, { code: error.code, message: error.message })
  const result = parsed<StoredVideoResult>(task.result)
  if (task.status !== 'succeeded' || !result) return { request_id: requestId, output }
  output.video_url = result.videos[0]
  const usage = { video_duration: result.billed_seconds, duration: result.billed_seconds, video_count: result.videos.length }
  return { request_id: requestId, output, usage }
}

/** The native create answer. */
export const nativeCreated = (requestId: string, task: VideoTaskRow): Record<string, unknown> =>
  ({ request_id: requestId, output: { task_id: task.id, task_status: NATIVE_STATUS[task.status] } })
