/** The shapes the video panel works with: request bodies, the gateway's task object, local notes and submissions. */
import type { UpstreamNote } from '../../../shared/upstream-reasons'
import type { VIDEO_IMAGE_ROLES, VIDEO_STATUSES } from '../../../shared/schemas/video'

export type VideoImageRole = (typeof VIDEO_IMAGE_ROLES)[number]
export type VideoStatus = (typeof VIDEO_STATUSES)[number]

/** A picture sent with a submission: a data URL, or (in saved notes) the admin media address it was kept at. */
export interface VideoImage {
  role: VideoImageRole
  url: string
}

/** The body of POST /v1/video/generate as the panel sends it (shared/schemas/video.ts `videoGenerateRequest`). */
export interface VideoBody {
  model: string
  prompt?: string
  images?: VideoImage[]
  duration?: number
  resolution?: string
  aspect_ratio?: string
}

/** The task as GET /v1/video/tasks/{id} shows it (shared/schemas/video.ts `videoTaskObject`). */
export interface VideoTaskView {
  task_id: string
  status: VideoStatus | string
  progress?: number | null
  vendor_status?: string | null
  model: string
  /** Unix seconds */
  created_at: number
  updated_at: number
  status_url: string
  request?: { prompt?: string; duration?: number; resolution?: string; aspect_ratio?: string; max_seconds?: number }
  reserved: number
  result?: { videos: Array<{ url: string; content_url?: string; mime_type?: string }>; seconds?: number }
  usage?: { seconds?: number; cost?: number }
  error?: { code: string; message: string }
}

/** A task known to the panel: from the admin task list or a poll. */
export interface VideoTaskEntry {
  id: string
  group: string
  view: VideoTaskView
  /** the Idempotency-Key it was submitted with (from the admin list): matches it with the panel's submission */
  idempotencyKey?: string | null
}

/** What the panel remembers of a task it submitted (saved): what was asked, and whether it was retried. */
export interface TaskNote {
  group: string
  model: string
  prompt?: string
  params: Pick<VideoBody, 'duration' | 'resolution' | 'aspect_ratio'>
  images: VideoImage[]
  submittedAt: number
  /** the submission that retried this task after it failed (so it is retried once) */
  retriedBy?: string
}

/** An error answer or network failure, kept as plain data so it survives a restart. */
export interface SubmissionError {
  /** null: no answer (network) */
  status: number | null
  code: string
  message: string
  /** the gateway's x-request-id of the error answer (its request-log row names the account that failed) */
  requestId?: string | null
  /** why the vendor failed, as the gateway said (`error.upstream`) */
  upstream?: UpstreamNote | null
}

/**
 * A submission not (yet) answered with a task. `pending`: being sent; `failed`: answered with an error or not
 * reached; `interrupted`: the app stopped while it was being sent, so whether a task exists is unknown.
 */
export interface Submission {
  id: string
  /** sent as `Idempotency-Key`; a retry of this submission sends the same one */
  idempotencyKey: string
  group: string
  body: VideoBody
  createdAt: number
  state: 'pending' | 'failed' | 'interrupted'
  error: SubmissionError | null
  /** the failed task this submission retries */
  retryOf?: string
}

/** How a row may be retried: the same submission again (same key), or a new submission of a failed task (new key). */
export type RetryKind = 'same-key' | 'new-key' | null

/** One row of the task list: a task, or a submission still without a task. */
export interface VideoRow {
  id: string
  kind: 'task' | 'submission'
  /** a task status, or `submitting` / `submit_failed` / `interrupted` for submissions */
  status: string
  group: string
  model: string
  prompt?: string
  params: Pick<VideoBody, 'duration' | 'resolution' | 'aspect_ratio'>
  images: VideoImage[]
  progress: number | null
  /** ms since 1970 */
  createdAt: number
  error: SubmissionError | null
  /** the gateway's saved copy (GET with the group's key) */
  contentUrl?: string
  /** the vendor's link (may expire) */
  vendorUrl?: string
  cost?: number
  seconds?: number
  /** submitted from this app (a note exists) */
  fromApp: boolean
  retry: RetryKind
}
