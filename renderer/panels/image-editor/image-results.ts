/**
 * Reading the gateway's image answers (spec §2.3): the images JSON, the async task record, the images
 * SSE, and matching linked images with the copies the gateway keeps.
 */
import { ERROR_CODES } from '../../../shared/error-codes'
import { ApiError, upstreamNoteOf } from '../../api/http'

/** One image of an answer: inline bytes (base64) or a vendor link. */
export interface ImageItem {
  b64?: string
  url?: string
  mimeType: string
  revisedPrompt?: string
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** `data[]` of an images JSON; `mime_type` defaults to PNG (GPT's default output_format). */
export function parseImagesBody(body: unknown): ImageItem[] {
  const data = isObj(body) && Array.isArray(body.data) ? body.data : []
  return data.filter(isObj).flatMap((d) => {
    const b64 = typeof d.b64_json === 'string' ? d.b64_json : undefined
    const url = typeof d.url === 'string' ? d.url : undefined
    if (!b64 && !url) return []
    return [{
      ...(b64 ? { b64 } : {}),
      ...(url ? { url } : {}),
      mimeType: typeof d.mime_type === 'string' ? d.mime_type : 'image/png',
      ...(typeof d.revised_prompt === 'string' ? { revisedPrompt: d.revised_prompt } : {}),
    }]
  })
}

/** Base64 image bytes as a Blob of `mimeType`. */
export function b64ToBlob(b64: string, mimeType: string): Blob {
  const binary = atob(b64)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return new Blob([bytes], { type: mimeType })
}

/** An error from a task record or an SSE error event, as the ApiError the UI shows (status from the code). */
export function errorFromBody(body: unknown, fallbackStatus = 502): ApiError {
  const err = isObj(body) && isObj(body.error) ? body.error : isObj(body) ? body : {}
  const code = typeof err.code === 'string' ? err.code : 'upstream_error'
  const status = (ERROR_CODES as Record<string, { status: number }>)[code]?.status ?? fallbackStatus
  return new ApiError(status, code, typeof err.message === 'string' ? err.message : code, null, upstreamNoteOf(err.upstream))
}

export type TaskPoll = { state: 'pending'; status: string } | { state: 'succeeded'; body: unknown } | { state: 'failed'; error: ApiError }

/** GET /v1/images/tasks?task_id= (electron/gateway/tasks/image-tasks.ts taskView): status, then result or error. */
export function readTask(view: unknown): TaskPoll {
  const status = isObj(view) && typeof view.status === 'string' ? view.status : 'running'
  if (status === 'succeeded') return { state: 'succeeded', body: isObj(view) ? view.result : undefined }
  if (status === 'failed') return { state: 'failed', error: errorFromBody(isObj(view) ? { error: view.error } : {}) }
  return { state: 'pending', status }
}

/** Delay before poll number `attempt` (0-based): 1 s, growing by half each time, at most 5 s. */
export const pollDelay = (attempt: number): number => Math.min(5000, Math.round(1000 * 1.5 ** attempt))

export type StreamState = { body?: unknown; error?: ApiError; done: boolean }

/**
 * The gateway images SSE (spec §4.2, §6 rule 3): keepalive comments (never events), the images JSON as the
 * last `data:` event, then `[DONE]`; a failure is `event: error` with the error body.
 */
export function reduceImageStream(state: StreamState, event: { event?: string; data: string }): StreamState {
  if (event.data === '[DONE]') return { ...state, done: true }
  let parsed: unknown
  try {
    parsed = JSON.parse(event.data)
  } catch {
    return state
  }
  if (event.event === 'error') return { ...state, error: errorFromBody(parsed), done: true }
  return { ...state, body: parsed }
}

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif' }

/** A file name for a downloaded result: `image-<time>-<n>.<ext>`. */
export function downloadName(createdAt: number, index: number, mimeType: string): string {
  const stamp = new Date(createdAt).toISOString().replace(/[:.]/g, '-').replace(/-\d{3}Z$/, '')
  return `image-${stamp}-${index + 1}.${EXTENSIONS[mimeType] ?? 'png'}`
}
