/** Types of the images panel's state: the models, reference images and mask, runs (past and under way) and their results. */
import type { CompositeStats } from '../../canvas/composite'
import type { History } from '../../canvas/history'
import type { MaskOp, MaskTool } from '../../canvas/mask-ops'
import type { UpstreamNote } from '../../../shared/upstream-reasons'
import type { KeptCopy } from '../../../shared/kept-copy'
import type { ImageModelOption } from './model-options'

export type ImageMode = 'generate' | 'edit'

/** The image models of the group the panel works in, with their controls. */
export interface ImageModels {
  group: string | null
  options: ImageModelOption[]
  loading: boolean
  error: unknown
}

/** The mask painted over the first reference image: its history, reset when that image changes. */
export interface MaskState {
  refId: string | null
  history: History<MaskOp>
}

/** A reference image picked, dropped or pasted (not saved: it is the user's file). */
export interface ReferenceImage {
  id: string
  file: File
  /** object URL for display; revoked when the image is removed */
  url: string
  /** natural pixel size, the size of the edit mask */
  width: number
  height: number
}

export interface BrushSettings {
  tool: MaskTool
  /** diameter in image pixels */
  size: number
  /** overlay opacity 0..1 */
  opacity: number
}

/** Settings of the magic wand and "select object" (this session only). */
export interface SelectSettings {
  /** the wand's colour tolerance, 0..255 (largest channel difference from the clicked pixel) */
  tolerance: number
  /** whether a selection is added to the mask or taken from it */
  mode: 'add' | 'subtract'
  /** "select object" is working (OpenCV loading or GrabCut running) */
  busy: boolean
  /** why the last "select object" failed */
  error: string | null
}

/**
 * One result image. `url` is the gateway's copy (`/admin/v1/media/{id}`), which outlives vendor links;
 * `sourceUrl` the vendor link (expires after 24 hours, spec §8). `keep` says whether a copy exists yet.
 */
export interface RunImage {
  mimeType: string
  mediaId?: string
  url?: string
  sourceUrl?: string
  revisedPrompt?: string
  keep: 'pending' | 'kept' | 'link' | 'failed'
  keepError?: string
  /** a linked image: the gateway's record of its copy (saving, kept, failed and why, retrying) */
  copy?: KeptCopy
  /** for a masked edit: the result with the reference put back outside the mask */
  composite?: ResultComposite
}

/** A masked result's composite: its gateway copy once kept, and how many pixels outside the mask changed. */
export interface ResultComposite {
  state: 'pending' | 'kept' | 'failed'
  mediaId?: string
  url?: string
  stats?: CompositeStats
  error?: string
}

/** An error answer as saved with its run (status, code, message: what ErrorNote shows). */
export interface RunError {
  status: number
  code: string
  message: string
  /** the request-log row of the failure: the request's id, or the task's for a task that failed */
  requestId?: string
  /** why the vendor failed, as the gateway said (`error.upstream`) */
  upstream?: UpstreamNote
}

/** One submission and its outcome; saved in the history. */
export interface ImageRun {
  id: string
  group: string
  createdAt: number
  mode: ImageMode
  model: string
  prompt: string
  /** the body fields sent besides model and prompt (n, size, tiers …) */
  params: Record<string, string | number | boolean>
  references: number
  masked: boolean
  status: 'running' | 'succeeded' | 'failed'
  phase?: 'submitting' | 'uploading' | 'waiting' | 'generating' | 'saving'
  /** how much of a multipart upload has gone, 0..100 */
  uploadPercent?: number
  taskId?: string
  taskStatus?: string
  requestId?: string
  finishedAt?: number
  images: RunImage[]
  error?: RunError
  /** the app closed before the answer came and there was no task to poll */
  interrupted?: boolean
  /** show the model's raw output instead of the composite (masked edits) */
  showRaw?: boolean
}
