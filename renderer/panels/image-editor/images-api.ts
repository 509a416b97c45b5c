/**
 * The image calls: one submission awaited the way the model allows (a polled task, the images SSE or
 * a plain answer), and keeping results in the gateway's media store.
 */
import type { MediaItem } from '../../../shared/admin'
import { isRetryableStatus } from '../../../shared/error-codes'
import { admin } from '../../api/admin'
import { callGateway, callGatewayJson, readEvents, uploadToGateway } from '../../api/gateway'
import { ApiError } from '../../api/http'
import { pollDelay, readTask, reduceImageStream, type StreamState } from './image-results'
import type { Delivery, ImageEndpoint } from './model-options'
import { submitHeaders } from './request-build'

/** Where a submission is: `waiting` carries the task id once the 202 arrived and the task's last status. */
export type Progress =
  | { phase: 'submitting' }
  | { phase: 'uploading'; percent: number }
  | { phase: 'waiting'; taskId: string; status: string }
  | { phase: 'generating' }

export interface Submission {
  group: string
  endpoint: ImageEndpoint
  delivery: Delivery
  body: Record<string, unknown> | FormData
  onProgress(p: Progress): void
  /** known as soon as the answer's headers arrive (spec §7: every response carries x-request-id) */
  onRequestId(id: string): void
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Sends the request and resolves with the images JSON; throws ApiError for error answers and failed tasks. */
export async function submitImages(s: Submission): Promise<unknown> {
  const headers: Record<string, string> = { ...submitHeaders(s.delivery) }
  const isForm = s.body instanceof FormData
  // fetch sets the multipart boundary itself.
  if (!isForm) headers['content-type'] = 'application/json'
  s.onProgress({ phase: 'submitting' })
  const path = `/v1/images/${s.endpoint}`
  const body = isForm ? (s.body as FormData) : JSON.stringify(s.body)
  // Reference images can be large: an upload shows how far it has got. A streamed answer is read as it arrives,
  // which only fetch can do.
  const res = s.delivery === 'stream'
    ? await callGateway(s.group, path, { method: 'POST', headers, body })
    : await uploadToGateway(s.group, path, headers, body, (f) => s.onProgress({ phase: 'uploading', percent: Math.floor(f * 100) }))
  s.onRequestId(res.headers.get('x-request-id') ?? '')
  if (res.status === 202) return pollTask(s.group, (await res.json()) as { task_id: string; status_url?: string }, s.onProgress)
  s.onProgress({ phase: 'generating' })
  if ((res.headers.get('content-type') ?? '').includes('text/event-stream')) return readImageStream(res)
  return res.json()
}

async function readImageStream(res: Response): Promise<unknown> {
  let state: StreamState = { done: false }
  await readEvents(res, (event) => {
    state = reduceImageStream(state, event)
  })
  if (state.error) throw state.error
  if (state.body === undefined) throw new ApiError(502, 'stream_interrupted', 'The image stream ended without the images.')
  return state.body
}

/** Polls GET /v1/images/tasks?task_id= with backoff until the task ends (polling holds no concurrency, spec §8). */
async function pollTask(group: string, task: { task_id: string; status_url?: string }, onProgress: (p: Progress) => void): Promise<unknown> {
  const url = task.status_url ?? `/v1/images/tasks?task_id=${encodeURIComponent(task.task_id)}`
  onProgress({ phase: 'waiting', taskId: task.task_id, status: 'running' })
  let failures = 0
  for (let attempt = 0; ; attempt++) {
    let view: unknown
    try {
      view = await callGatewayJson<unknown>(group, url)
      failures = 0
    } catch (err) {
      // Spec §7 rule 5: the task exists and resubmitting would bill again, so a passing failure is polled through.
      if (!isPassing(err) || ++failures > MAX_POLL_FAILURES) throw err
      await sleep(pollDelay(attempt))
      continue
    }
    const poll = readTask(view)
    if (poll.state === 'succeeded') return poll.body
    if (poll.state === 'failed') throw poll.error
    onProgress({ phase: 'waiting', taskId: task.task_id, status: poll.status })
    await sleep(pollDelay(attempt))
  }
}

const MAX_POLL_FAILURES = 5
// Network failures (fetch throws TypeError) and retryable statuses (spec §7 rule 3).
const isPassing = (err: unknown): boolean => (err instanceof ApiError ? isRetryableStatus(err.status) : err instanceof TypeError)

/** Resumes polling a task submitted earlier (after the app was reopened). */
export const resumeTask = (group: string, taskId: string, onProgress: (p: Progress) => void): Promise<unknown> => pollTask(group, { task_id: taskId }, onProgress)

/** Keeps an inline image in the gateway's media store, so the history holds a link instead of the bytes. */
export const keepImage = (requestId: string, blob: Blob): Promise<MediaItem> => admin.uploadMedia(requestId, blob)
