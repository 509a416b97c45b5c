/**
 * Carrying out one run: send it, turn the answer into results, then keep each inline image in the gateway's
 * media store (uploaded once). Linked images the gateway copies itself: their cards follow the copy (run-copies.ts).
 * State changes go through `update`, so this file holds no store and no React.
 */
import { ApiError } from '../../api/http'
import { b64ToBlob, parseImagesBody } from './image-results'
import { keepImage, resumeTask, submitImages, type Progress, type Submission } from './images-api'
import type { ImageRun, RunError, RunImage } from './image-types'
import { runFailed, runSaved, runSucceeded } from './run-status'

export interface RunHooks {
  /** applies a change to the run with this id */
  update(fn: (run: ImageRun) => ImageRun): void
  /** shows an inline image at once (an object URL), before or without a gateway copy */
  showBlob(index: number, blob: Blob): void
}

/** An error as saved with a run. */
export function toRunError(err: unknown): RunError {
  if (err instanceof ApiError) return { status: err.status, code: err.code, message: err.message, ...(err.requestId ? { requestId: err.requestId } : {}), ...(err.upstream ? { upstream: err.upstream } : {}) }
  return { status: 0, code: 'network_error', message: err instanceof Error ? err.message : String(err) }
}

/** The run's fields for a progress report. */
export function progressPatch(p: Progress): Partial<ImageRun> {
  if (p.phase === 'waiting') return { phase: 'waiting', taskId: p.taskId, taskStatus: p.status }
  if (p.phase === 'uploading') return { phase: 'uploading', uploadPercent: p.percent }
  return { phase: p.phase }
}

const patchImage = (run: ImageRun, index: number, patch: Partial<RunImage>): ImageRun => ({
  ...run, images: run.images.map((img, i) => (i === index ? { ...img, ...patch } : img)),
})

/** Sends the submission and settles the run; never throws (a failure is saved with the run). */
export async function carryOut(submission: Omit<Submission, 'onProgress' | 'onRequestId'>, hooks: RunHooks): Promise<void> {
  let requestId = ''
  try {
    const body = await submitImages({
      ...submission,
      onProgress: (p) => hooks.update((r) => ({ ...r, ...progressPatch(p) })),
      onRequestId: (id) => {
        requestId = id
        hooks.update((r) => ({ ...r, requestId: id }))
      },
    })
    await settle(body, requestId, hooks)
  } catch (err) {
    failed(err, hooks)
  }
}

/** A task's failure is logged under the task's id (the gateway's request log row of the task). */
const withLogId = (error: RunError, run: ImageRun): RunError => (run.taskId && !error.requestId ? { ...error, requestId: run.taskId } : error)

/** The run failed with `err`, saved with the request-log row to look it up by. */
const failed = (err: unknown, hooks: RunHooks): void => hooks.update((r) => runFailed(r, withLogId(toRunError(err), r), Date.now()))

/** The answer of a task resumed after a restart, or of a fresh submission: results, then copies. */
export async function settle(body: unknown, requestId: string, hooks: RunHooks): Promise<void> {
  const items = parseImagesBody(body)
  if (items.length === 0) throw new ApiError(502, 'upstream_error', 'The answer held no images.')
  const blobs = items.map((item) => (item.b64 ? b64ToBlob(item.b64, item.mimeType) : undefined))
  blobs.forEach((blob, i) => blob && hooks.showBlob(i, blob))
  // A linked image is being copied by the gateway, which keeps its copy under the request's id (none: the link alone).
  const images: RunImage[] = items.map((item) => ({
    mimeType: item.mimeType, keep: item.url && !requestId ? 'link' : 'pending', ...(item.url ? { sourceUrl: item.url } : {}), ...(item.revisedPrompt ? { revisedPrompt: item.revisedPrompt } : {}),
  }))
  hooks.update((r) => runSucceeded(r, images, Date.now()))
  await keepInline(blobs, requestId, hooks)
  hooks.update(runSaved)
}

async function keepInline(blobs: Array<Blob | undefined>, requestId: string, hooks: RunHooks): Promise<void> {
  await Promise.all(
    blobs.map(async (blob, i) => {
      if (!blob) return
      try {
        const media = await keepImage(requestId, blob)
        hooks.update((r) => patchImage(r, i, { keep: 'kept', mediaId: media.id, url: media.url }))
      } catch (err) {
        hooks.update((r) => patchImage(r, i, { keep: 'failed', keepError: toRunError(err).message }))
      }
    }),
  )
}

/** Polls a task saved by an earlier session until it ends, then settles the run like a fresh answer. */
export async function resumeRun(group: string, taskId: string, requestId: string, hooks: RunHooks): Promise<void> {
  try {
    const body = await resumeTask(group, taskId, (p) => hooks.update((r) => ({ ...r, ...progressPatch(p) })))
    await settle(body, requestId, hooks)
  } catch (err) {
    failed(err, hooks)
  }
}
