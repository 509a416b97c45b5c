/**
 * The task list: the gateway's tasks (GET /admin/v1/tasks?kind=video: every key's, so tasks made from SDKs show too)
 * merged with the panel's saved notes and its submissions still without a task; and when to poll.
 */
import type { TaskSummary } from '../../../shared/admin'
import { isRetryable } from './submissions'
import type { Submission, TaskNote, VideoRow, VideoTaskEntry, VideoTaskView } from './video-types'

const ENDED = new Set(['succeeded', 'failed', 'canceled'])
const FAILED = new Set(['failed', 'canceled'])

/** The admin list as task entries. */
export const entriesFromSummaries = (list: TaskSummary[]): VideoTaskEntry[] =>
  list.map((t) => ({ id: t.id, group: t.group, view: t.detail as VideoTaskView, idempotencyKey: t.idempotencyKey }))

/** Replaces the known tasks with the admin list, keeping polled answers that are newer than the list's. */
export function mergeEntries(known: Record<string, VideoTaskEntry>, fresh: VideoTaskEntry[], now: number): Record<string, VideoTaskEntry> {
  const next: Record<string, VideoTaskEntry> = {}
  for (const e of fresh) {
    const old = known[e.id]
    if (!old || old.view.updated_at <= e.view.updated_at) next[e.id] = e
    // A newer polled answer is kept, with the key only the list knows.
    else next[e.id] = e.idempotencyKey === undefined || old.idempotencyKey === e.idempotencyKey ? old : { ...old, idempotencyKey: e.idempotencyKey }
  }
  // A task just submitted may be newer than the list that was being fetched.
  for (const [id, e] of Object.entries(known)) if (!(id in next) && now / 1000 - e.view.created_at < 60) next[id] = e
  return next
}

const firstVideo = (v: VideoTaskView) => v.result?.videos[0]

/** Whether the task has ended (succeeded, failed or canceled). */
export const hasEnded = (v: VideoTaskView): boolean => ENDED.has(v.status)

/** A task is polled until it ended and, when it succeeded, until the gateway's saved copy is there. */
export function needsPoll(v: VideoTaskView): boolean {
  if (!ENDED.has(v.status)) return true
  return v.status === 'succeeded' && firstVideo(v) !== undefined && firstVideo(v)!.content_url === undefined
}

/** Whether a poll answer changed what the row shows. */
export const changed = (a: VideoTaskView | undefined, b: VideoTaskView): boolean =>
  !a || a.status !== b.status || a.progress !== b.progress || firstVideo(a)?.content_url !== firstVideo(b)?.content_url

/** The wait before the next poll: 2 s after a change, then longer while nothing moves, at most 5 s; errors back off to 15 s. */
export function nextDelay(previous: number, outcome: 'changed' | 'same' | 'error'): number {
  if (outcome === 'changed') return 2_000
  if (outcome === 'error') return Math.min(Math.max(previous, 2_000) * 2, 15_000)
  return Math.min(Math.round(Math.max(previous, 2_000) * 1.5), 5_000)
}

function taskRow(e: VideoTaskEntry, note: TaskNote | undefined): VideoRow {
  const v = e.view
  const video = firstVideo(v)
  const request = v.request ?? {}
  return {
    id: e.id, kind: 'task', status: v.status, group: e.group, model: v.model,
    prompt: note?.prompt ?? request.prompt,
    params: note?.params ?? { duration: request.duration, resolution: request.resolution, aspect_ratio: request.aspect_ratio },
    images: note?.images ?? [],
    progress: v.status === 'succeeded' ? 100 : (v.progress ?? null),
    createdAt: v.created_at * 1000,
    // A task's failure is logged under the task's id.
    error: v.error ? { status: null, code: v.error.code, message: v.error.message, requestId: e.id } : null,
    contentUrl: video?.content_url, vendorUrl: video?.url, cost: v.usage?.cost, seconds: v.usage?.seconds ?? v.result?.seconds,
    fromApp: note !== undefined,
    retry: FAILED.has(v.status) && note !== undefined && note.retriedBy === undefined ? 'new-key' : null,
  }
}

const SUBMISSION_STATUS: Record<Submission['state'], string> = { pending: 'submitting', failed: 'submit_failed', interrupted: 'interrupted' }

function submissionRow(s: Submission): VideoRow {
  const { model, prompt, images, duration, resolution, aspect_ratio } = s.body
  return {
    id: s.id, kind: 'submission', status: SUBMISSION_STATUS[s.state], group: s.group, model, prompt,
    params: { duration, resolution, aspect_ratio }, images: images ?? [], progress: null, createdAt: s.createdAt,
    error: s.error, fromApp: true, retry: isRetryable(s) ? 'same-key' : null,
  }
}

/**
 * The rows, newest first: submissions without a task, then tasks with what the notes add. A task the gateway
 * stored for a submission still listed (sent with its Idempotency-Key: a rejected one is kept as a failed task)
 * is that submission's own card, not a second one.
 */
export function videoRows(tasks: Record<string, VideoTaskEntry>, notes: Record<string, TaskNote>, submissions: Submission[]): VideoRow[] {
  const submitted = new Set(submissions.map((s) => s.idempotencyKey))
  const own = (e: VideoTaskEntry) => typeof e.idempotencyKey === 'string' && submitted.has(e.idempotencyKey)
  const rows = [...submissions.map(submissionRow), ...Object.values(tasks).filter((e) => !own(e)).map((e) => taskRow(e, notes[e.id]))]
  return rows.sort((a, b) => b.createdAt - a.createdAt)
}

/** Notes of tasks the gateway no longer lists (deleted data, or past the list's limit) are dropped, except recent ones. */
export function pruneNotes(notes: Record<string, TaskNote>, listed: Set<string>, now: number, keepMs = 7 * 86_400_000): Record<string, TaskNote> {
  return Object.fromEntries(Object.entries(notes).filter(([id, n]) => listed.has(id) || now - n.submittedAt < keepMs))
}
