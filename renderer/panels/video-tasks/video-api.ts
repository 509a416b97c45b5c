/** The video panel's calls: models with their catalog data, submissions, polls, the saved video, kept pictures. */
import { admin } from '../../api/admin'
import { callGateway, callGatewayJson, listModels } from '../../api/gateway'
import { ApiError, requestJson } from '../../api/http'
import { fileToDataUrl } from '../../components/image-input'
import { dataUrlToBlob } from './data-url'
import { videoOption, type PricingEntry, type VideoModelOption } from './video-options'
import type { Submission, SubmissionError, VideoImage, VideoRow, VideoTaskView } from './video-types'

/** The group's video models (GET /v1/models) with what the public catalog says about each. */
export async function fetchVideoModels(group: string): Promise<VideoModelOption[]> {
  const [models, pricing] = await Promise.all([listModels(group), requestJson<{ data: PricingEntry[] }>('/api/v1/models/pricing')])
  const byId = new Map(pricing.data.map((e) => [e.model, e]))
  return models.filter((m) => m.type === 'video').map((m) => videoOption(m, byId.get(m.id)))
}

/** An error as data that survives a restart: the gateway's answer, or no answer (status null). */
export function toSubmissionError(err: unknown): SubmissionError {
  if (err instanceof ApiError) return { status: err.status, code: err.code, message: err.message, requestId: err.requestId, upstream: err.upstream }
  return { status: null, code: 'network_error', message: err instanceof Error ? err.message : String(err) }
}

/**
 * POST /v1/video/generate with the submission's Idempotency-Key: 202 with a new task, or 200 with the task this
 * key (or the same body within 10 minutes) already made.
 */
export function sendSubmission(s: Submission): Promise<VideoTaskView> {
  return callGatewayJson<VideoTaskView>(s.group, '/v1/video/generate', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': s.idempotencyKey },
    body: JSON.stringify(s.body),
  })
}

/** GET /v1/video/tasks/{id} as the group's app key (holds no concurrency slot). */
export const pollTask = (group: string, id: string): Promise<VideoTaskView> =>
  callGatewayJson<VideoTaskView>(group, `/v1/video/tasks/${encodeURIComponent(id)}`)

/** 404 `task_not_found`: the task belongs to another key (made from an SDK, or before the app key was replaced). */
export const isForeignTask = (err: unknown): boolean => err instanceof ApiError && err.status === 404 && err.code === 'task_not_found'

/**
 * The saved video as a blob. The content endpoint needs the key in a header, which `<video src>` cannot send, so it
 * is fetched; a task of another key is read from the admin media store instead.
 */
export async function fetchVideo(row: Pick<VideoRow, 'id' | 'group' | 'contentUrl' | 'fromApp'>, signal: AbortSignal): Promise<Blob> {
  if (row.fromApp && row.contentUrl) {
    try {
      return await (await callGateway(row.group, row.contentUrl, { signal })).blob()
    } catch (err) {
      if (!isForeignTask(err)) throw err
    }
  }
  const items = await admin.media(row.id)
  const video = items.find((m) => m.kind === 'video')
  if (!video) throw new ApiError(404, 'video_content_not_available', `No saved video for task ${row.id}.`)
  return admin.mediaBlob(video.url, signal)
}

/** Keeps the submission's pictures in the media store under the task, so its note holds addresses, not megabytes. */
export async function keepImages(taskId: string, images: VideoImage[]): Promise<VideoImage[]> {
  return Promise.all(images.map(async (image) => {
    if (!image.url.startsWith('data:')) return image
    const item = await admin.uploadMedia(taskId, dataUrlToBlob(image.url))
    return { role: image.role, url: item.url }
  }))
}

/** The note's pictures as data URLs again (a retry sends them inline). */
export async function inlineImages(images: VideoImage[]): Promise<VideoImage[]> {
  return Promise.all(images.map(async (image) =>
    image.url.startsWith('data:') ? image : { role: image.role, url: await fileToDataUrl(await admin.mediaBlob(image.url)) }))
}
