/**
 * The bookkeeping that keeps retries from submitting a video twice. Every submission gets its Idempotency-Key
 * when it is made, and is saved before it is sent; a retry of the same submission sends the same key, so the
 * gateway answers the task it already made (spec §7 rule 5) instead of starting and billing another one. A task
 * that ran and failed is retried by a new submission with a new key.
 *
 *   pending ──answer with a task──▶ (removed; the task has a note)
 *      │ ──error / no answer──▶ failed ──retry (same key)──▶ pending
 *      └ app stopped while sending ──▶ interrupted ──retry (same key)──▶ pending
 */
import type { Submission, SubmissionError, TaskNote, VideoBody } from './video-types'

// Spec §7: 400, 401, 403, 404, 413 and 422 are never retried unchanged; 402 is, after topping up.
const FINAL_STATUSES = new Set([400, 401, 403, 404, 413, 422])

/** A new submission, its key made here so that it is saved together with the body before anything is sent. */
export function newSubmission(group: string, body: VideoBody, now: number, uuid: () => string, retryOf?: string): Submission {
  return { id: uuid(), idempotencyKey: uuid(), group, body, createdAt: now, state: 'pending', error: null, ...(retryOf ? { retryOf } : {}) }
}

/** The submission after an error answer (status) or no answer at all (status null). */
export const submissionFailed = (s: Submission, error: SubmissionError): Submission => ({ ...s, state: 'failed', error })

/** The submission sent again: same id, same key. */
export const submissionRetried = (s: Submission): Submission => ({ ...s, state: 'pending', error: null })

/** Whether sending the same submission again can help: no answer, unknown outcome, or a status worth retrying. */
export function isRetryable(s: Submission): boolean {
  if (s.state === 'interrupted') return true
  if (s.state !== 'failed' || !s.error) return false
  return s.error.status === null || !FINAL_STATUSES.has(s.error.status)
}

/**
 * The saved copy of the submissions: one still being sent when the app stops cannot be known to have reached the
 * gateway, so it comes back as `interrupted` (retry with the same key finds the task if it was made).
 */
export const savedSubmissions = (list: Submission[]): Submission[] =>
  list.map((s) => (s.state === 'pending' ? { ...s, state: 'interrupted' as const } : s))

/** The note kept for the task a submission made; images are given where they are kept (media addresses). */
export function noteOf(s: Submission, images: TaskNote['images'], now: number): TaskNote {
  const { model, prompt, duration, resolution, aspect_ratio } = s.body
  return {
    group: s.group, model, ...(prompt !== undefined ? { prompt } : {}), images, submittedAt: now,
    params: { ...(duration !== undefined ? { duration } : {}), ...(resolution ? { resolution } : {}), ...(aspect_ratio ? { aspect_ratio } : {}) },
  }
}

/** The body that retries a failed task from its note (sent with a new key). */
export function bodyFromNote(note: TaskNote, images: VideoBody['images']): VideoBody {
  return { model: note.model, ...(note.prompt !== undefined ? { prompt: note.prompt } : {}), ...(images?.length ? { images } : {}), ...note.params }
}
