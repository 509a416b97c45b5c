/**
 * Mask painting from the keyboard, on the focused mask canvas: the arrow keys move a cursor drawn on the canvas
 * (Shift: bigger steps), Space paints a dab with the brush or eraser (or selects there with the magic wand and
 * "select object"), Enter puts the brush down so the arrows draw a stroke and lifts it again (committing the
 * stroke, as releasing the mouse does); Escape lifts it too.
 */
import { useRef, useState, type FocusEvent, type KeyboardEvent } from 'react'
import type { MaskStage } from '../../canvas/mask-stage'
import { imageToScreen } from '../../canvas/viewport'
import { useAppStore } from '../../stores/app-store'
import { cursorStep, moveCursor } from './mask-keys'
import { applyObjectSelect, applyWand } from './mask-select'

type Point = [number, number]

export interface KeyboardCursor {
  /** image pixels */
  x: number
  y: number
  /** the brush is down: the arrows draw */
  down: boolean
}

export function useKeyboardPainting(stage: MaskStage | null, width: number, height: number, pixels: () => ImageData | null) {
  const cursor = useRef<Point | null>(null)
  const down = useRef(false)
  const [shown, setShown] = useState<KeyboardCursor | null>(null)
  const screenOf = (p: Point) => {
    const [x, y] = imageToScreen(stage!.view, p[0] + 0.5, p[1] + 0.5)
    return { x, y }
  }
  const show = (p: Point) => {
    cursor.current = p
    stage?.setCursor(screenOf(p))
    setShown({ x: p[0], y: p[1], down: down.current })
  }
  const commit = () => {
    if (!stage) return
    const stroke = stage.endStroke()
    if (!stroke) return
    useAppStore.getState().commitMaskOp(stroke)
    stage.adoptOps(useAppStore.getState().imageMask.history.done)
  }
  const lift = () => {
    if (!down.current) return
    down.current = false
    commit()
  }
  /** Space: a dab of the brush or eraser, or a selection at the cursor. */
  const act = (p: Point, toggle: boolean) => {
    if (!stage) return
    const { tool } = useAppStore.getState().imageBrush
    if (tool === 'wand' || tool === 'object') {
      const data = pixels()
      if (!data) return
      if (tool === 'wand') applyWand(data, p)
      else void applyObjectSelect(data, { point: p })
      return
    }
    if (toggle && down.current) return lift()
    const s = screenOf(p)
    stage.beginStroke(s.x, s.y)
    if (toggle) {
      down.current = true
      return
    }
    commit()
  }
  const onKeyDown = (e: KeyboardEvent<HTMLCanvasElement>) => {
    if (!stage || e.altKey || e.ctrlKey || e.metaKey) return
    const p = cursor.current ?? [Math.floor(width / 2), Math.floor(height / 2)] as Point
    const size = useAppStore.getState().imageBrush.size
    const next = moveCursor(p, e.key, cursorStep(size, e.shiftKey), width, height)
    const handled = next !== undefined || e.key === ' ' || e.key === 'Enter' || (e.key === 'Escape' && down.current)
    if (!handled) return
    // These keys are the canvas's while it has focus: not the page's scrolling, nor the editor's Space-to-pan.
    e.preventDefault()
    e.stopPropagation()
    if (next) {
      show(next)
      if (down.current) {
        const s = screenOf(next)
        stage.extendStroke([s])
      }
    } else if (e.key === 'Escape') {
      lift()
      show(p)
    } else {
      act(p, e.key === 'Enter')
      show(p)
    }
  }
  const onFocus = () => show(cursor.current ?? [Math.floor(width / 2), Math.floor(height / 2)])
  const onBlur = (_e: FocusEvent<HTMLCanvasElement>) => {
    lift()
    stage?.setCursor(null)
    setShown(null)
  }
  return { handlers: { onKeyDown, onFocus, onBlur }, cursor: shown }
}
