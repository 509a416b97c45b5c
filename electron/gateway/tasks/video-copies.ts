import type { KeptCopy } from '../../../shared/kept-copy.js'
import { copyFailure, copyTracker } from '../media/copy-tracker.js'
import { mediaItemOf } from '../media/media-item.js'
import type { Services } from '../services.js'
import type { MediaRow } from '../store/media.js'
import type { VideoTaskRow } from '../store/tasks.js'
import { videoMediaId } from './video-download.js'
import { videoRuntime } from './video-runtime.js'
import type { StoredVideoResult } from './video-settle.js'

const linksOf = (task: VideoTaskRow): string[] => (JSON.parse(task.result ?? '{"videos":[]}') as StoredVideoResult).videos


/** A download of a succeeded task's videos begins (again): each copy not yet kept is saving, or retrying after a failure. */
export function videoCopiesStarting(services: Services, task: VideoTaskRow, saved: ReadonlySet<string>): void {
  const copies = copyTracker(services)
  linksOf(task).forEach((url, index) => {
    if (saved.has(videoMediaId(task.id, index))) return
    const copy = copies.get(task.id, index)
    if (!copy) copies.start(task.id, index, 'video', url, task.updated_at)
    else if (copy.state === 'failed') copies.apply(task.id, index, { type: 'retry' })
  })
}

/** The download ended: kept copies are kept; the others failed, why, and when the next try is due (null: none). */
export async function videoCopiesSettled(services: Services, task: VideoTaskRow, err: unknown, retryAt: number | null): Promise<void> {
  const copies = copyTracker(services)
  const saved = new Map((await services.store.media.byRequest(task.id)).map((m) => [m.id, m]))
  linksOf(task).forEach((_url, index) => {
    const media = saved.get(videoMediaId(task.id, index))
    if (media) copies.apply(task.id, index, { type: 'kept', media: mediaItemOf(media) })
    else if (err !== undefined) copies.apply(task.id, index, { type: 'failed', reason: copyFailure(err), retryAt })
  })
}

/**
 * The copies of a task's videos: kept ones from the media store; the others as this process tracks them, or, after a
 * restart, from the task (a download still due is saving; none due is a failure whose reason went with the process).
 */
export function videoCopies(services: Services, task: VideoTaskRow, media: MediaRow[]): KeptCopy[] {
  if (task.status !== 'succeeded') return []
  const copies = copyTracker(services)
  const saved = new Map(media.map((m) => [m.id, m]))
  return linksOf(task).map((url, index) => {
    const kept = saved.get(videoMediaId(task.id, index))
    const tracked = copies.get(task.id, index)
    const base: KeptCopy = tracked ?? copies.start(task.id, index, 'video', url, task.updated_at)
    if (kept) return { ...base, state: 'kept', media: mediaItemOf(kept), reason: undefined, retryAt: undefined }
    if (tracked) return tracked
    return task.next_poll_at !== null ? base : { ...base, state: 'failed', reason: { code: 'unknown' }, retryAt: null }
  })
}

/** Retry in the app: the task's download is due now, its tries counted afresh. False when nothing is left to keep. */
export async function retryVideoCopies(services: Services, task: VideoTaskRow): Promise<boolean> {
  const media = await services.store.media.byRequest(task.id)
  if (!videoCopies(services, task, media).some((c) => c.state === 'failed')) return false
  await services.store.tasks.video.schedule(task.id, Date.now(), 0)
  videoRuntime(services).wake()
  return true
}
