/** The reference images in their order, and the mask that belongs to the first: a new first image starts a new mask. */
import { emptyHistory } from '../../canvas/history'
import type { MaskState, ReferenceImage } from './image-types'

/** The mask state for the current first reference: kept when it is the same image, empty otherwise. */
export const maskFor = (mask: MaskState, refs: readonly ReferenceImage[]): MaskState =>
  mask.refId === (refs[0]?.id ?? null) ? mask : { refId: refs[0]?.id ?? null, history: emptyHistory() }

/** The references as they now stand, with the mask that belongs to them. */
export const withReferences = (mask: MaskState, imageReferences: ReferenceImage[]): { imageReferences: ReferenceImage[]; imageMask: MaskState } =>
  ({ imageReferences, imageMask: maskFor(mask, imageReferences) })

export const withoutReference = (refs: readonly ReferenceImage[], id: string): ReferenceImage[] => refs.filter((r) => r.id !== id)

/** The references with `id` first, or undefined when there is no such image. */
export function withReferenceFirst(refs: readonly ReferenceImage[], id: string): ReferenceImage[] | undefined {
  const ref = refs.find((r) => r.id === id)
  return ref && [ref, ...withoutReference(refs, id)]
}
