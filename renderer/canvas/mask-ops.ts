/**
 * Mask operations on a coverage buffer: one byte per image pixel, 1 = painted (the area to edit), 0 = kept.
 * Everything is in image pixel coordinates, so the view's zoom and pan never change the mask, and
 * nothing is anti-aliased: an edit mask is a hard in-or-out decision per pixel (spec §4.2 mask).
 */

/** A point in image pixels (x right, y down; pixel (i, j) spans [i, i+1) x [j, j+1)). */
export type Point = readonly [number, number]

/** The painting tools. */
export type PaintTool = 'brush' | 'eraser'

/** Every tool of the mask editor: painting, the magic wand, and "select object". */
export type MaskTool = PaintTool | 'wand' | 'object'

/** A brush or eraser stroke: a round tip of `radius` image pixels dragged through `points`. */
export interface StrokeOp {
  kind: 'stroke'
  tool: PaintTool
  radius: number
  points: Point[]
}

/** A selection (magic wand or object) added to or taken from the mask: `bits` covers `rect`, 1 = selected. */
export interface RegionOp {
  kind: 'region'
  mode: 'add' | 'subtract'
  rect: Rect
  bits: Uint8Array
}

/** One undoable step of the mask history. */
export type MaskOp = StrokeOp | RegionOp | { kind: 'clear' } | { kind: 'invert' }

/** A pixel rectangle inside the image (x, y inclusive; width and height at least 1). */
export interface Rect {
  x: number
  y: number
  width: number
  height: number
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v))

/** The smallest rectangle holding both (either may be undefined). */
export function unionRect(a: Rect | undefined, b: Rect | undefined): Rect | undefined {
  if (!a) return b
  if (!b) return a
  const x = Math.min(a.x, b.x)
  const y = Math.min(a.y, b.y)
  return { x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y }
}

function setPixelAt(coverage: Uint8Array, width: number, height: number, p: Point, value: 0 | 1): void {
  const x = Math.floor(p[0])
  const y = Math.floor(p[1])
  if (x >= 0 && y >= 0 && x < width && y < height) coverage[y * width + x] = value
}

/**
 * Sets every pixel whose centre lies within `radius` of the segment a-b (a capsule: the union of the
 * round tip stamped all along the segment, so no gaps however fast the pointer moved) to `value`.
 * The pixels under both ends are always set, so a tip narrower than a pixel still paints.
 * Returns the rectangle that may have changed, or undefined when the capsule misses the image.
 */
export function paintSegment(coverage: Uint8Array, width: number, height: number, a: Point, b: Point, radius: number, value: 0 | 1): Rect | undefined {
  const r = Math.max(radius, 0.5)
  const x0 = clamp(Math.floor(Math.min(a[0], b[0]) - r), 0, width)
  const x1 = clamp(Math.ceil(Math.max(a[0], b[0]) + r), 0, width)
  const y0 = clamp(Math.floor(Math.min(a[1], b[1]) - r), 0, height)
  const y1 = clamp(Math.ceil(Math.max(a[1], b[1]) + r), 0, height)
  if (x0 >= x1 || y0 >= y1) return undefined
  const dx = b[0] - a[0]
  const dy = b[1] - a[1]
  const len2 = dx * dx + dy * dy
  const r2 = r * r
  for (let y = y0; y < y1; y++) {
    const cy = y + 0.5
    const row = y * width
    for (let x = x0; x < x1; x++) {
      const cx = x + 0.5
      const t = len2 === 0 ? 0 : clamp(((cx - a[0]) * dx + (cy - a[1]) * dy) / len2, 0, 1)
      const ex = a[0] + t * dx - cx
      const ey = a[1] + t * dy - cy
      if (ex * ex + ey * ey <= r2) coverage[row + x] = value
    }
  }
  setPixelAt(coverage, width, height, a, value)
  setPixelAt(coverage, width, height, b, value)
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 }
}

/** Paints one stroke (brush sets, eraser clears); returns the rectangle that may have changed. */
export function paintStroke(coverage: Uint8Array, width: number, height: number, stroke: StrokeOp): Rect | undefined {
  const value = stroke.tool === 'brush' ? 1 : 0
  const { points } = stroke
  if (points.length === 1) return paintSegment(coverage, width, height, points[0], points[0], stroke.radius, value)
  let dirty: Rect | undefined
  for (let i = 1; i < points.length; i++) dirty = unionRect(dirty, paintSegment(coverage, width, height, points[i - 1], points[i], stroke.radius, value))
  return dirty
}

/**
 * A whole-image selection as a region step: cropped to the selection's bounding box (so the history holds
 * only that much), or undefined when nothing is selected.
 */
export function regionOp(selected: Uint8Array, width: number, height: number, mode: RegionOp['mode']): RegionOp | undefined {
  let [x0, y0, x1, y1] = [width, height, -1, -1]
  for (let y = 0; y < height; y++) {
    const row = y * width
    for (let x = 0; x < width; x++) {
      if (!selected[row + x]) continue
      if (x < x0) x0 = x
      if (x > x1) x1 = x
      if (y < y0) y0 = y
      y1 = y
    }
  }
  if (x1 < 0) return undefined
  const rect = { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 }
  const bits = new Uint8Array(rect.width * rect.height)
  for (let y = 0; y < rect.height; y++) bits.set(selected.subarray((y0 + y) * width + x0, (y0 + y) * width + x1 + 1), y * rect.width)
  return { kind: 'region', mode, rect, bits }
}

/** Adds the region's selected pixels to the mask, or takes them out. */
function applyRegion(coverage: Uint8Array, width: number, op: RegionOp): Rect {
  const value = op.mode === 'add' ? 1 : 0
  const { x, y, width: w, height: h } = op.rect
  for (let j = 0; j < h; j++) for (let i = 0; i < w; i++) if (op.bits[j * w + i]) coverage[(y + j) * width + x + i] = value
  return op.rect
}

/** Applies one history step to the buffer in place; returns the rectangle that may have changed. */
export function applyMaskOp(coverage: Uint8Array, width: number, height: number, op: MaskOp): Rect | undefined {
  if (op.kind === 'stroke') return paintStroke(coverage, width, height, op)
  if (op.kind === 'region') return applyRegion(coverage, width, op)
  if (op.kind === 'clear') coverage.fill(0)
  else for (let i = 0; i < coverage.length; i++) coverage[i] ^= 1
  return width > 0 && height > 0 ? { x: 0, y: 0, width, height } : undefined
}

/**
 * The coverage of a whole history, replayed from an empty mask (1 = painted). `invert` flips the
 * result once more, for callers that keep inversion as a flag rather than as a history step.
 */
export function rasterizeStrokes(ops: readonly MaskOp[], width: number, height: number, invert = false): Uint8Array {
  const coverage = new Uint8Array(width * height)
  for (const op of ops) applyMaskOp(coverage, width, height, op)
  if (invert) applyMaskOp(coverage, width, height, { kind: 'invert' })
  return coverage
}

/** How many pixels are painted. */
export function countPainted(coverage: Uint8Array): number {
  let n = 0
  for (let i = 0; i < coverage.length; i++) n += coverage[i]
  return n
}

/**
 * The mask as RGBA pixels for a PNG: painted pixels are fully transparent (alpha 0: the region to edit),
 * every other pixel opaque black (alpha 255). Spec §4.2: "transparent areas mark what to edit".
 */
export function maskToRgba(coverage: Uint8Array, width: number, height: number): Uint8ClampedArray<ArrayBuffer> {
  const rgba = new Uint8ClampedArray(width * height * 4)
  for (let i = 0; i < width * height; i++) rgba[i * 4 + 3] = coverage[i] ? 0 : 255
  return rgba
}

/** The two colours of the overlay's hatch (RGB). */
export type OverlayColors = readonly [readonly [number, number, number], readonly [number, number, number]]

/** Width in image pixels of each stripe of the hatch. */
export const HATCH_STRIPE = 4

/**
 * RGBA pixels of `rect` for the on-screen overlay: painted pixels hatched in diagonal stripes of the two colours
 * (so the painted area shows on any image, a red one included), opaque; the rest transparent.
 */
export function overlayRgba(coverage: Uint8Array, width: number, rect: Rect, colors: OverlayColors): Uint8ClampedArray<ArrayBuffer> {
  const rgba = new Uint8ClampedArray(rect.width * rect.height * 4)
  let o = 0
  for (let y = rect.y; y < rect.y + rect.height; y++) {
    for (let x = rect.x; x < rect.x + rect.width; x++, o += 4) {
      if (!coverage[y * width + x]) continue
      const color = colors[Math.floor((x + y) / HATCH_STRIPE) % 2]
      rgba[o] = color[0]
      rgba[o + 1] = color[1]
      rgba[o + 2] = color[2]
      rgba[o + 3] = 255
    }
  }
  return rgba
}

/** Candidate overlay colours: magenta, cyan, lime, yellow. */
const PALETTE = [[230, 40, 90], [0, 200, 255], [80, 230, 40], [255, 220, 0]] as const

const luminance = ([r, g, b]: readonly [number, number, number]) => 0.2126 * r + 0.7152 * g + 0.0722 * b

/**
 * The hatch colours for an image of average colour `mean`: the palette colour farthest from it, striped with black
 * or white, whichever stands out more from that colour.
 */
export function overlayColorsFor(mean: readonly [number, number, number]): OverlayColors {
  const distance = (c: readonly [number, number, number]) => (c[0] - mean[0]) ** 2 + (c[1] - mean[1]) ** 2 + (c[2] - mean[2]) ** 2
  const primary = [...PALETTE].sort((a, b) => distance(b) - distance(a))[0]
  return [primary, luminance(primary) > 128 ? [0, 0, 0] : [255, 255, 255]]
}
