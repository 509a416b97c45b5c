/** A run's status transitions, as pure functions of the run: what each step of its life changes. */
import type { ImageRun, RunError, RunImage } from './image-types'

/** The run failed: the error is saved with it, and it shows no phase any more. */
export const runFailed = (run: ImageRun, error: RunError, now: number): ImageRun => ({ ...run, status: 'failed', phase: undefined, error, finishedAt: now })

/** The app closed before the answer came and there is no task to poll: failed, marked as cut off. */
export const runInterrupted = (run: ImageRun, now: number): ImageRun => ({ ...run, status: 'failed', phase: undefined, interrupted: true, finishedAt: now })

/** The answer held images: the run succeeded, and its images are being kept. */
export const runSucceeded = (run: ImageRun, images: RunImage[], now: number): ImageRun => ({ ...run, status: 'succeeded', phase: 'saving', images, finishedAt: now })

/** Every image has been kept (or could not be): the run shows no phase any more. */
export const runSaved = (run: ImageRun): ImageRun => ({ ...run, phase: undefined })

/** The desktop notice of a run that ended (nothing while it runs): which, for what, and how long it took. */
export function endedNotice(run: ImageRun | undefined, now: number): { kind: 'imageDone' | 'imageFailed'; model: string; prompt: string; elapsedMs: number } | undefined {
  if (!run || run.status === 'running') return undefined
  return { kind: run.status === 'succeeded' ? 'imageDone' : 'imageFailed', model: run.model, prompt: run.prompt, elapsedMs: (run.finishedAt ?? now) - run.createdAt }
}

/** Saved runs marked running that this session is not carrying out: a restart cut them off (those with a task can be resumed). */
export const unfinishedRuns = (runs: readonly ImageRun[], active: ReadonlySet<string>): ImageRun[] =>
  runs.filter((run) => run.status === 'running' && !active.has(run.id))
