/** The run history (newest first, at most MAX_RUNS) and the session's object URLs of its images, as pure functions. */
import type { ImageRun, ResultComposite } from './image-types'

/** Most runs the history keeps. */
export const MAX_RUNS = 200

/** The history with a new run first. */
export const withNewRun = (runs: readonly ImageRun[], run: ImageRun): ImageRun[] => [run, ...runs].slice(0, MAX_RUNS)

/** The history with `fn` applied to the run `id`. */
export const withRunUpdated = (runs: readonly ImageRun[], id: string, fn: (run: ImageRun) => ImageRun): ImageRun[] =>
  runs.map((r) => (r.id === id ? fn(r) : r))

export const withoutRun = (runs: readonly ImageRun[], id: string): ImageRun[] => runs.filter((r) => r.id !== id)

/** The run with the composite of result `index` patched (pending until the patch says otherwise). */
export const compositePatched = (run: ImageRun, index: number, patch: Partial<ResultComposite>): ImageRun => ({
  ...run, images: run.images.map((img, i) => (i === index ? { ...img, composite: { state: 'pending', ...img.composite, ...patch } } : img)),
})

/** Keys of the session's object URLs: a result shown at once, its composite, and the reference a masked edit was sent with. */
export const resultBlobKey = (runId: string, index: number): string => `${runId}:${index}`
export const compositeBlobKey = (runId: string, index: number): string => `${runId}:${index}:composite`
export const referenceBlobKey = (runId: string): string => `${runId}:reference`

/** The object URLs with those of run `runId` taken out (`dropped`, to be revoked). */
export function withoutRunBlobs(blobUrls: Readonly<Record<string, string>>, runId: string): { kept: Record<string, string>; dropped: string[] } {
  const kept = { ...blobUrls }
  const dropped: string[] = []
  for (const key of Object.keys(kept)) {
    if (!key.startsWith(`${runId}:`)) continue
    dropped.push(kept[key])
    delete kept[key]
  }
  return { kept, dropped }
}
