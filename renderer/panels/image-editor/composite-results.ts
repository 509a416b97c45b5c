/**
 * A finished masked edit's results with the reference put back outside the mask: each composite is shown at once
 * and kept in the media store; a result that cannot be read (say, only a vendor link) stays raw. State changes go
 * through the hooks, so this file holds no store and no React.
 */
import { mediaSrc } from '../../api/admin'
import { compositeResult } from './composite-run'
import type { ImageRun, ResultComposite } from './image-types'
import { toRunError } from './image-runs'
import { keepImage } from './images-api'
import { compositePatched } from './run-history'
import type { SentMask } from './submission'

export interface CompositeHooks {
  /** applies a change to the run */
  update(fn: (run: ImageRun) => ImageRun): void
  /** the object URL of result `index` shown this session, if it has one */
  resultBlob(index: number): string | undefined
  /** shows the composite of result `index` at once */
  showComposite(index: number, png: Blob): void
}

/** Composites the results of `run` once it has succeeded (nothing otherwise). */
export async function compositeResults(run: ImageRun | undefined, mask: SentMask, reference: Blob, feather: number, hooks: CompositeHooks): Promise<void> {
  if (!run || run.status !== 'succeeded') return
  const patch = (index: number, p: Partial<ResultComposite>) => hooks.update((r) => compositePatched(r, index, p))
  await Promise.all(
    run.images.map(async (image, i) => {
      const src = hooks.resultBlob(i) ?? (image.url ? mediaSrc(image.url) : undefined)
      if (!src) return
      patch(i, { state: 'pending' })
      try {
        const { png, stats } = await compositeResult(src, reference, mask, feather)
        hooks.showComposite(i, png)
        patch(i, { stats })
        const media = await keepImage(run.requestId ?? '', png)
        patch(i, { state: 'kept', mediaId: media.id, url: media.url })
      } catch (err) {
        patch(i, { state: 'failed', error: toRunError(err).message })
      }
    }),
  )
}
