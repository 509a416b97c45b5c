/**
 * The mask editor's selection tools turned into history steps: the magic wand (at once, on the page) and
 * "select object" (in the worker). Either adds the selection to the mask or takes it out, per the mode.
 */
import { magicWand } from '../../canvas/magic-wand'
import { regionOp } from '../../canvas/mask-ops'
import { selectObjectInWorker } from '../../canvas/select-client'
import type { ObjectHint } from '../../canvas/select-object'
import { useAppStore } from '../../stores/app-store'

/** The magic wand at an image point: one region step, or none when the click missed the image. */
export function applyWand(pixels: ImageData, point: readonly [number, number]): void {
  const s = useAppStore.getState()
  const selected = magicWand(pixels.data, pixels.width, pixels.height, point[0], point[1], s.imageSelect.tolerance)
  const op = regionOp(selected, pixels.width, pixels.height, s.imageSelect.mode)
  if (op) s.commitMaskOp(op)
}

/**
 * "Select object" from a click or a box: GrabCut in the worker, then one region step, unless the first
 * reference changed meanwhile (the mask then belongs to another image). One selection at a time.
 */
export async function applyObjectSelect(pixels: ImageData, hint: ObjectHint): Promise<void> {
  const s = useAppStore.getState()
  if (s.imageSelect.busy) return
  const { refId } = s.imageMask
  const { mode } = s.imageSelect
  s.setSelect({ busy: true, error: null })
  try {
    const bits = await selectObjectInWorker(pixels.data, pixels.width, pixels.height, hint)
    const now = useAppStore.getState()
    if (now.imageMask.refId !== refId) return
    const op = regionOp(bits, pixels.width, pixels.height, mode)
    if (op) now.commitMaskOp(op)
  } catch (err) {
    useAppStore.getState().setSelect({ error: err instanceof Error ? err.message : String(err) })
  } finally {
    useAppStore.getState().setSelect({ busy: false })
  }
}

/** The box between two image points (either corner first). */
export function boxBetween(a: readonly [number, number], b: readonly [number, number]): NonNullable<ObjectHint['box']> {
  return { x: Math.min(a[0], b[0]), y: Math.min(a[1], b[1]), width: Math.abs(b[0] - a[0]), height: Math.abs(b[1] - a[1]) }
}
