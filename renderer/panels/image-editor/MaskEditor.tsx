import { useCallback, useEffect, useRef, useState, type PointerEvent as ReactPointerEvent, type RefObject } from 'react'
import { MaskStage } from '../../canvas/mask-stage'
import { wheelFactor, type View } from '../../canvas/viewport'
import { useT } from '../../i18n'
import { useAppStore } from '../../stores/app-store'
import type { ReferenceImage } from './image-types'
import { runMaskAction } from './mask-actions'
import { isTypingTarget, maskShortcut } from './mask-keys'
import { applyObjectSelect, applyWand, boxBetween } from './mask-select'
import { MaskToolbar } from './MaskToolbar'
import { MASK_KEYBOARD_STRINGS } from './mask-keyboard-strings'
import { useKeyboardPainting } from './use-keyboard-painting'

type ScreenPoint = { x: number; y: number }
type Drag = { kind: 'paint' } | { kind: 'pan'; x: number; y: number } | { kind: 'box'; start: ScreenPoint; last: ScreenPoint } | null

/** A drag shorter than this (CSS px) is a click: "select object" then seeds from the point, not a box. */
const CLICK_SLOP = 4

const local = (e: { clientX: number; clientY: number }, el: Element) => {
  const box = el.getBoundingClientRect()
  return { x: e.clientX - box.left, y: e.clientY - box.top }
}

/** Loads the reference as a decoded image element (null until it is ready). */
function useDecodedImage(url: string): HTMLImageElement | null {
  const [image, setImage] = useState<HTMLImageElement | null>(null)
  useEffect(() => {
    let live = true
    const img = new Image()
    img.src = url
    img.decode().then(() => live && setImage(img), () => live && setImage(null))
    return () => {
      live = false
    }
  }, [url])
  return image
}

/** The reference's pixels at its natural size, read once when a selection tool first needs them. */
function useReferencePixels(image: HTMLImageElement | null, width: number, height: number): () => ImageData | null {
  const cache = useRef<ImageData | null>(null)
  useEffect(() => {
    cache.current = null
  }, [image, width, height])
  return useCallback(() => {
    if (!image) return null
    if (!cache.current) {
      const canvas = document.createElement('canvas')
      canvas.width = width
      canvas.height = height
      const ctx = canvas.getContext('2d', { willReadFrequently: true })!
      ctx.drawImage(image, 0, 0, width, height)
      cache.current = ctx.getImageData(0, 0, width, height)
    }
    return cache.current
  }, [image, width, height])
}

/**
 * Mask painting over the first reference image, on three stacked canvases (image, mask overlay, brush
 * cursor; the cursor canvas takes the pointer). Strokes are kept in image pixels (MaskStage converts
 * through the view), so zoom and pan never change the mask.
 */
export function MaskEditor({ reference }: { reference: ReferenceImage }) {
  const image = useDecodedImage(reference.url)
  const ops = useAppStore((s) => s.imageMask.history.done)
  const brush = useAppStore((s) => s.imageBrush)
  const stageBox = useRef<HTMLDivElement>(null)
  const imageCanvas = useRef<HTMLCanvasElement>(null)
  const maskCanvas = useRef<HTMLCanvasElement>(null)
  const cursorCanvas = useRef<HTMLCanvasElement>(null)
  const [stage, setStage] = useState<MaskStage | null>(null)
  const [view, setView] = useState<View | null>(null)
  const brushRef = useRef(brush)
  brushRef.current = brush
  const space = useRef(false)
  const hovering = useRef(false)

  useEffect(() => {
    if (!image || !imageCanvas.current || !maskCanvas.current || !cursorCanvas.current || !stageBox.current) return
    const layers = { image: imageCanvas.current, mask: maskCanvas.current, cursor: cursorCanvas.current }
    const created = new MaskStage(layers, image, reference.width, reference.height, () => brushRef.current, setView)
    const box = stageBox.current
    const observer = new ResizeObserver(() => created.resize(box.clientWidth, box.clientHeight, window.devicePixelRatio || 1))
    observer.observe(box)
    created.resize(box.clientWidth, box.clientHeight, window.devicePixelRatio || 1)
    created.setOps(useAppStore.getState().imageMask.history.done)
    setStage(created)
    return () => {
      observer.disconnect()
      created.dispose()
      setStage(null)
    }
  }, [image, reference.width, reference.height])

  useEffect(() => stage?.setOps(ops), [stage, ops])
  useEffect(() => stage?.brushChanged(), [stage, brush])
  useWheelZoom(cursorCanvas, stage)
  useShortcuts(stage, space, hovering)
  const pixels = useReferencePixels(image, reference.width, reference.height)
  const pointer = usePointerInput(stage, space, pixels)
  const keyboard = useKeyboardPainting(stage, reference.width, reference.height, pixels)
  const t = useT(MASK_KEYBOARD_STRINGS)

  return (
    <div className="mask-editor" data-testid="mask-editor">
      <MaskToolbar stage={stage} view={view} />
      <div ref={stageBox} className="mask-stage" onPointerEnter={() => (hovering.current = true)} onPointerLeave={() => (hovering.current = false)}>
        <canvas ref={imageCanvas} className="mask-layer" data-testid="mask-image-layer" />
        <canvas ref={maskCanvas} className="mask-layer" data-testid="mask-overlay-layer" />
        <canvas
          ref={cursorCanvas}
          className="mask-layer mask-input"
          data-testid="mask-canvas"
          data-image-width={reference.width}
          data-image-height={reference.height}
          data-scale={view?.scale}
          data-offset-x={view?.x}
          data-offset-y={view?.y}
          data-ops={ops.length}
          data-cursor-x={keyboard.cursor?.x}
          data-cursor-y={keyboard.cursor?.y}
          data-pen={keyboard.cursor ? (keyboard.cursor.down ? 'down' : 'up') : undefined}
          tabIndex={0}
          role="application"
          aria-label={t('maskCanvasLabel')}
          aria-describedby="mask-keyboard-help"
          {...pointer}
          {...keyboard.handlers}
          onContextMenu={(e) => e.preventDefault()}
          onMouseDown={(e) => e.button === 1 && e.preventDefault()}
        />
      </div>
      <p id="mask-keyboard-help" className="muted small">{t('maskKeyboardHint')}</p>
    </div>
  )
}

/**
 * Pointer input on the cursor canvas: the left button paints (captured, so a stroke may leave the canvas),
 * clicks with the magic wand, or clicks or drags a box for "select object"; the middle or right button, or
 * the left one with Space held, pans.
 */
function usePointerInput(stage: MaskStage | null, space: RefObject<boolean>, pixels: () => ImageData | null) {
  const drag = useRef<Drag>(null)
  const onPointerDown = (e: ReactPointerEvent<HTMLCanvasElement>) => {
    if (!stage || drag.current) return
    const p = local(e, e.currentTarget)
    e.currentTarget.setPointerCapture(e.pointerId)
    if (e.button === 1 || e.button === 2 || (e.button === 0 && space.current)) {
      e.preventDefault()
      drag.current = { kind: 'pan', ...p }
    } else if (e.button === 0) {
      const { tool } = useAppStore.getState().imageBrush
      if (tool === 'wand') {
        const data = pixels()
        if (data) applyWand(data, stage.toImage(p.x, p.y))
      } else if (tool === 'object') {
        drag.current = { kind: 'box', start: p, last: p }
      } else {
        drag.current = { kind: 'paint' }
        stage.beginStroke(p.x, p.y)
      }
    }
  }
  const onPointerMove = (e: ReactPointerEvent<HTMLCanvasElement>) => {
    if (!stage) return
    const p = local(e, e.currentTarget)
    stage.setCursor(p)
    const d = drag.current
    if (d?.kind === 'pan') {
      stage.pan(p.x - d.x, p.y - d.y)
      drag.current = { kind: 'pan', ...p }
    } else if (d?.kind === 'box') {
      drag.current = { ...d, last: p }
      if (Math.hypot(p.x - d.start.x, p.y - d.start.y) >= CLICK_SLOP) stage.setBox(d.start, p)
    } else if (d?.kind === 'paint') {
      // Coalesced events carry the pointer's full path between frames, so fast strokes keep their shape.
      const events = e.nativeEvent.getCoalescedEvents?.() ?? []
      const canvas = e.currentTarget
      stage.extendStroke(events.length ? events.map((ev) => local(ev, canvas)) : [p])
    }
  }
  const onPointerUp = () => {
    const d = drag.current
    drag.current = null
    if (d?.kind === 'box' && stage) {
      stage.setBox(null)
      const data = pixels()
      if (!data) return
      const click = Math.hypot(d.last.x - d.start.x, d.last.y - d.start.y) < CLICK_SLOP
      const start = stage.toImage(d.start.x, d.start.y)
      void applyObjectSelect(data, click ? { point: start } : { box: boxBetween(start, stage.toImage(d.last.x, d.last.y)) })
      return
    }
    if (d?.kind !== 'paint' || !stage) return
    const stroke = stage.endStroke()
    if (!stroke) return
    useAppStore.getState().commitMaskOp(stroke)
    stage.adoptOps(useAppStore.getState().imageMask.history.done)
  }
  return {
    onPointerDown,
    onPointerMove,
    onPointerUp,
    // A cancelled box (the pointer taken away, say by a touch gesture) selects nothing.
    onPointerCancel: () => {
      if (drag.current?.kind === 'box') {
        drag.current = null
        stage?.setBox(null)
      }
      onPointerUp()
    },
    onPointerLeave: () => !drag.current && stage?.setCursor(null),
  }
}

/** Wheel zoom about the pointer; a native listener, because React's wheel listener is passive and cannot stop the page scrolling. */
function useWheelZoom(canvas: RefObject<HTMLCanvasElement | null>, stage: MaskStage | null) {
  useEffect(() => {
    const el = canvas.current
    if (!el || !stage) return
    const onWheel = (e: WheelEvent) => {
      e.preventDefault()
      const p = local(e, el)
      stage.zoom(wheelFactor(e.deltaY, e.deltaMode), p.x, p.y)
    }
    el.addEventListener('wheel', onWheel, { passive: false })
    return () => el.removeEventListener('wheel', onWheel)
  }, [canvas, stage])
}

/** The keyboard shortcuts (window-wide while the editor is shown, except in text fields) and Space for panning. */
function useShortcuts(stage: MaskStage | null, space: RefObject<boolean>, hovering: RefObject<boolean>) {
  useEffect(() => {
    const onKeyDown = (e: KeyboardEvent) => {
      if (isTypingTarget(e.target)) return
      if (e.key === ' ') {
        space.current = true
        // Space over the image pans; elsewhere it keeps its usual meaning (pressing a focused button).
        if (hovering.current) e.preventDefault()
        return
      }
      const action = maskShortcut(e)
      if (!action) return
      e.preventDefault()
      runMaskAction(action, stage)
    }
    const onKeyUp = (e: KeyboardEvent) => {
      if (e.key === ' ') space.current = false
    }
    window.addEventListener('keydown', onKeyDown)
    window.addEventListener('keyup', onKeyUp)
    return () => {
      window.removeEventListener('keydown', onKeyDown)
      window.removeEventListener('keyup', onKeyUp)
    }
  }, [stage, space, hovering])
}
