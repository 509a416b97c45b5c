/**
 * The mask editor's drawing state behind its three stacked canvases: the view transform, the coverage
 * buffer of the committed history plus the stroke being drawn, an image-sized overlay canvas mirroring
 * that buffer, and the pointer. Redraws are coalesced to one per animation frame, per layer.
 */
import { overlayColorsFor, paintSegment, paintStroke, rasterizeStrokes, unionRect, type MaskOp, type MaskTool, type OverlayColors, type Point, type Rect, type StrokeOp } from './mask-ops'
import { meanColor, renderCursorLayer, renderImageLayer, renderMaskLayer, writeOverlayRegion, type Surface } from './render-mask'
import { fitView, imageToScreen, panBy, screenToImage, zoomAt, type View } from './viewport'

export interface StageLayers {
  image: HTMLCanvasElement
  mask: HTMLCanvasElement
  cursor: HTMLCanvasElement
}

/** What the stage reads from the brush settings at each draw. */
export interface StageBrush {
  tool: MaskTool
  /** diameter in image pixels */
  size: number
  opacity: number
}

type Layer = keyof StageLayers

export class MaskStage {
  view: View = { scale: 1, x: 0, y: 0 }
  /** the view is the fitted one, and follows resizes until the user zooms or pans */
  fitted = true
  private surface: Surface = { width: 0, height: 0, dpr: 1 }
  private coverage: Uint8Array
  private rasterOf: readonly MaskOp[] | null = null
  private readonly overlay: HTMLCanvasElement
  private readonly overlayCtx: CanvasRenderingContext2D
  /** the hatch colours, chosen to stand out from this image */
  readonly overlayColors: OverlayColors
  private stroke: StrokeOp | null = null
  private cursor: { x: number; y: number } | null = null
  /** the box being dragged for "select object", corners in image pixels */
  private box: { from: Point; to: Point } | null = null
  private dirty = new Set<Layer>()
  private frame = 0

  constructor(
    private readonly layers: StageLayers,
    private readonly image: CanvasImageSource,
    readonly width: number,
    readonly height: number,
    private readonly brush: () => StageBrush,
    private readonly onView: (view: View) => void,
  ) {
    this.coverage = new Uint8Array(width * height)
    this.overlay = document.createElement('canvas')
    this.overlay.width = width
    this.overlay.height = height
    this.overlayCtx = this.overlay.getContext('2d', { willReadFrequently: false })!
    this.overlayColors = overlayColorsFor(meanColor(image))
  }

  /** The canvases' CSS size changed: resize their backing stores (device pixels) and keep a fitted view fitted. */
  resize(width: number, height: number, dpr: number): void {
    this.surface = { width, height, dpr }
    for (const canvas of Object.values(this.layers)) {
      canvas.width = Math.max(1, Math.round(width * dpr))
      canvas.height = Math.max(1, Math.round(height * dpr))
    }
    if (this.fitted) this.setView(fitView(this.width, this.height, width, height), true)
    this.redraw('image', 'mask', 'cursor')
  }

  /** Shows the history `ops` (re-rasterized unless the buffer already holds exactly these). */
  setOps(ops: readonly MaskOp[]): void {
    if (ops === this.rasterOf) return
    this.coverage = rasterizeStrokes(ops, this.width, this.height)
    // A stroke under way (say, an undo pressed mid-drag) stays on screen until it is committed.
    if (this.stroke) paintStroke(this.coverage, this.width, this.height, this.stroke)
    this.rasterOf = ops
    this.refreshOverlay({ x: 0, y: 0, width: this.width, height: this.height })
  }

  /** Declares that `ops` (the history with the stroke just committed) is what the buffer holds. */
  adoptOps(ops: readonly MaskOp[]): void {
    this.rasterOf = ops
  }

  /** Starts a stroke at a screen point (CSS px) with the current tool (brush or eraser); radius in image pixels. */
  beginStroke(sx: number, sy: number): void {
    const { tool, size } = this.brush()
    if (tool !== 'brush' && tool !== 'eraser') return
    const p = this.toImage(sx, sy)
    this.stroke = { kind: 'stroke', tool, radius: size / 2, points: [p] }
    this.refreshOverlay(paintSegment(this.coverage, this.width, this.height, p, p, size / 2, tool === 'brush' ? 1 : 0))
  }

  /** Extends the stroke through screen points (CSS px), painting each new segment at once. */
  extendStroke(points: Array<{ x: number; y: number }>): void {
    const stroke = this.stroke
    if (!stroke) return
    let dirty: Rect | undefined
    for (const { x, y } of points) {
      const p = this.toImage(x, y)
      const last = stroke.points[stroke.points.length - 1]
      if (p[0] === last[0] && p[1] === last[1]) continue
      stroke.points.push(p)
      dirty = unionRect(dirty, paintSegment(this.coverage, this.width, this.height, last, p, stroke.radius, stroke.tool === 'brush' ? 1 : 0))
    }
    this.refreshOverlay(dirty)
  }

  /** Ends the stroke; returns it for the history (null when none was under way). */
  endStroke(): StrokeOp | null {
    const stroke = this.stroke
    this.stroke = null
    return stroke
  }

  get drawing(): boolean {
    return this.stroke !== null
  }

  setCursor(cursor: { x: number; y: number } | null): void {
    this.cursor = cursor
    this.redraw('cursor')
  }

  /** Shows (or, with null, hides) the box dragged for "select object"; corners are screen points (CSS px). */
  setBox(from: { x: number; y: number } | null, to?: { x: number; y: number }): void {
    this.box = from && to ? { from: this.toImage(from.x, from.y), to: this.toImage(to.x, to.y) } : null
    this.redraw('cursor')
  }

  /** A screen point (CSS px) in image pixels. */
  toImage(sx: number, sy: number): Point {
    return screenToImage(this.view, sx, sy)
  }

  /** Zooms by `factor` about a screen point (the centre when omitted). */
  zoom(factor: number, sx = this.surface.width / 2, sy = this.surface.height / 2): void {
    this.setView(zoomAt(this.view, factor, sx, sy), false)
  }

  pan(dx: number, dy: number): void {
    this.setView(panBy(this.view, dx, dy), false)
  }

  fit(): void {
    this.setView(fitView(this.width, this.height, this.surface.width, this.surface.height), true)
  }

  /** Redraws the layers that depend on brush settings (opacity, size, tool). */
  brushChanged(): void {
    this.redraw('mask', 'cursor')
  }

  dispose(): void {
    cancelAnimationFrame(this.frame)
  }

  private setView(view: View, fitted: boolean): void {
    this.view = view
    this.fitted = fitted
    this.onView(view)
    this.redraw('image', 'mask', 'cursor')
  }

  private refreshOverlay(rect: Rect | undefined): void {
    if (!rect) return
    writeOverlayRegion(this.overlayCtx, this.coverage, this.width, rect, this.overlayColors)
    this.redraw('mask')
  }

  private redraw(...layers: Layer[]): void {
    for (const l of layers) this.dirty.add(l)
    if (this.frame) return
    this.frame = requestAnimationFrame(() => {
      this.frame = 0
      this.draw()
    })
  }

  private draw(): void {
    const size = { width: this.width, height: this.height }
    const brush = this.brush()
    const ctx = (layer: Layer) => this.layers[layer].getContext('2d')!
    if (this.dirty.has('image')) renderImageLayer(ctx('image'), this.image, size, this.view, this.surface)
    if (this.dirty.has('mask')) renderMaskLayer(ctx('mask'), this.overlay, size, this.view, this.surface, brush.opacity)
    if (this.dirty.has('cursor')) {
      const box = this.box && { from: imageToScreen(this.view, ...this.box.from), to: imageToScreen(this.view, ...this.box.to) }
      renderCursorLayer(ctx('cursor'), this.cursor, (brush.size / 2) * this.view.scale, brush.tool, this.surface, box)
    }
    this.dirty.clear()
  }
}
