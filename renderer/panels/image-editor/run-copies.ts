/**
 * A linked image's copy in the gateway, followed from its card: what each answer of GET /admin/v1/media-copies
 * changes in the run's image, and whether to ask again. Pure (no store, no React).
 */
import type { KeptCopy } from '../../../shared/kept-copy'
import { copyUnderWay } from '../../components/kept-copy-view'
import type { RunImage } from './image-types'

/** How long after the answer a copy the gateway has not recorded is taken as not being made (the link is all there is). */
export const UNRECORDED_AFTER_MS = 15_000

/** Whether the card should follow the image's copy: a linked image whose copy may still change. */
export const followsCopy = (image: RunImage): boolean =>
  image.sourceUrl !== undefined && (image.copy ? copyUnderWay(image.copy) : image.keep === 'pending')

/** The image as the gateway's record of its copy says: its state, and the copy's address once kept. */
export function withCopy(image: RunImage, copy: KeptCopy): RunImage {
  const keep = copy.state === 'kept' ? 'kept' : copy.state === 'failed' ? 'failed' : 'pending'
  return { ...image, copy, keep, ...(copy.media ? { mediaId: copy.media.id, url: copy.media.url } : {}) }
}

/**
 * One answer of the copies list, for image `index` of a run that ended at `finishedAt`: the image's next state, and
 * whether to ask again. A copy the gateway never recorded (an image task's results, or a gateway restarted since)
 * leaves the vendor link alone once UNRECORDED_AFTER_MS have passed.
 */
export function copyStep(image: RunImage, index: number, copies: readonly KeptCopy[], finishedAt: number, now: number): { image: RunImage; again: boolean } {
  const copy = copies.find((c) => c.index === index)
  if (copy) {
    const next = withCopy(image, copy)
    return { image: next, again: followsCopy(next) }
  }
  if (now - finishedAt < UNRECORDED_AFTER_MS) return { image, again: true }
  const { copy: _gone, ...rest } = image
  return { image: { ...rest, keep: 'link' }, again: false }
}
