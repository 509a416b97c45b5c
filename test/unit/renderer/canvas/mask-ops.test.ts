import { describe, expect, it } from 'vitest'
import {
  applyMaskOp, countPainted, HATCH_STRIPE, maskToRgba, overlayColorsFor, overlayRgba, paintSegment, paintStroke, rasterizeStrokes, regionOp, unionRect, type MaskOp, type StrokeOp,
} from '../../../../renderer/canvas/mask-ops'

const W = 40
const H = 30
const at = (cov: Uint8Array, x: number, y: number) => cov[y * W + x]
const brush = (radius: number, ...points: Array<[number, number]>): StrokeOp => ({ kind: 'stroke', tool: 'brush', radius, points })
const eraser = (radius: number, ...points: Array<[number, number]>): StrokeOp => ({ kind: 'stroke', tool: 'eraser', radius, points })
/** Distance from pixel (x, y)'s centre to segment a-b. */
function distance(x: number, y: number, a: [number, number], b: [number, number]): number {
  const [cx, cy] = [x + 0.5, y + 0.5]
  const [dx, dy] = [b[0] - a[0], b[1] - a[1]]
  const len2 = dx * dx + dy * dy
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((cx - a[0]) * dx + (cy - a[1]) * dy) / len2))
  return Math.hypot(a[0] + t * dx - cx, a[1] + t * dy - cy)
}

describe('rasterizeStrokes: brush', () => {
  it('paints exactly the pixels whose centre is within the radius of a dab', () => {
    const cov = rasterizeStrokes([brush(5, [20, 15])], W, H)
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) expect(at(cov, x, y)).toBe(distance(x, y, [20, 15], [20, 15]) <= 5 ? 1 : 0)
    expect(countPainted(cov)).toBeGreaterThan(Math.PI * 4.5 * 4.5)
    expect(countPainted(cov)).toBeLessThan(Math.PI * 5.5 * 5.5)
  })

  it('fills the whole capsule of a segment, however long (no gaps between pointer events)', () => {
    const a: [number, number] = [2.5, 3.5]
    const b: [number, number] = [37.5, 26.5]
    const cov = rasterizeStrokes([brush(2, a, b)], W, H)
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) expect(at(cov, x, y)).toBe(distance(x, y, a, b) <= 2 ? 1 : 0)
  })

  it('joins the segments of a polyline', () => {
    const pts: Array<[number, number]> = [[5, 5], [30, 5], [30, 25]]
    const cov = rasterizeStrokes([brush(1.5, ...pts)], W, H)
    for (let x = 5; x < 30; x++) expect(at(cov, x, 4)).toBe(1)
    for (let y = 5; y < 25; y++) expect(at(cov, 29, y)).toBe(1)
    expect(at(cov, 15, 15)).toBe(0)
  })

  it('paints the pixel under the pointer even with a radius under half a pixel', () => {
    const cov = rasterizeStrokes([brush(0.1, [7.9, 8.2])], W, H)
    expect(countPainted(cov)).toBe(1)
    expect(at(cov, 7, 8)).toBe(1)
  })

  it('clips strokes at the image edges and ignores strokes entirely outside', () => {
    const edge = rasterizeStrokes([brush(4, [0, 0])], W, H)
    expect(at(edge, 0, 0)).toBe(1)
    expect(countPainted(edge)).toBeLessThan(Math.PI * 16)
    expect(countPainted(rasterizeStrokes([brush(3, [-20, -20], [-10, -5])], W, H))).toBe(0)
    expect(countPainted(rasterizeStrokes([brush(3, [100, 100])], W, H))).toBe(0)
  })
})

describe('rasterizeStrokes: eraser, clear, invert', () => {
  it('an eraser stroke clears what the brush painted, and only there', () => {
    const cov = rasterizeStrokes([brush(6, [5, 15], [35, 15]), eraser(2, [20, 0], [20, 29])], W, H)
    expect(at(cov, 10, 15)).toBe(1)
    expect(at(cov, 30, 15)).toBe(1)
    expect(at(cov, 20, 15)).toBe(0)
    expect(at(cov, 19, 12)).toBe(0)
  })

  it('clear empties the mask; a brush stroke after it paints again', () => {
    const ops: MaskOp[] = [brush(5, [10, 10]), { kind: 'clear' }, brush(1, [30, 20])]
    const cov = rasterizeStrokes(ops, W, H)
    expect(at(cov, 10, 10)).toBe(0)
    expect(at(cov, 30, 20)).toBe(1)
  })

  it('invert flips every pixel, as a history step or as the flag', () => {
    const plain = rasterizeStrokes([brush(5, [10, 10])], W, H)
    const step = rasterizeStrokes([brush(5, [10, 10]), { kind: 'invert' }], W, H)
    const flag = rasterizeStrokes([brush(5, [10, 10])], W, H, true)
    expect(countPainted(step)).toBe(W * H - countPainted(plain))
    expect(Array.from(flag)).toEqual(Array.from(step))
    for (let i = 0; i < plain.length; i++) expect(step[i]).toBe(1 - plain[i])
  })

  it('an eraser after invert cuts a hole into the inverted mask', () => {
    const cov = rasterizeStrokes([{ kind: 'invert' }, eraser(3, [20, 15])], W, H)
    expect(at(cov, 20, 15)).toBe(0)
    expect(at(cov, 0, 0)).toBe(1)
  })

  it('an empty history is an empty mask of the image size', () => {
    const cov = rasterizeStrokes([], 7, 5)
    expect(cov.length).toBe(35)
    expect(countPainted(cov)).toBe(0)
  })
})

describe('dirty rectangles', () => {
  it('paintStroke reports a rectangle holding every changed pixel', () => {
    const before = new Uint8Array(W * H)
    const after = new Uint8Array(W * H)
    const rect = paintStroke(after, W, H, brush(3, [8, 9], [14, 20], [25, 12]))!
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        if (after[y * W + x] === before[y * W + x]) continue
        expect(x >= rect.x && x < rect.x + rect.width && y >= rect.y && y < rect.y + rect.height).toBe(true)
      }
    }
  })

  it('applyMaskOp reports the whole image for clear and invert', () => {
    expect(applyMaskOp(new Uint8Array(W * H), W, H, { kind: 'invert' })).toEqual({ x: 0, y: 0, width: W, height: H })
  })

  it('paintSegment misses an image it does not touch', () => {
    expect(paintSegment(new Uint8Array(W * H), W, H, [-10, -10], [-9, -9], 1, 1)).toBeUndefined()
  })

  it('unionRect covers both', () => {
    expect(unionRect({ x: 1, y: 2, width: 3, height: 4 }, { x: 5, y: 0, width: 2, height: 2 })).toEqual({ x: 1, y: 0, width: 6, height: 6 })
    expect(unionRect(undefined, { x: 1, y: 1, width: 1, height: 1 })).toEqual({ x: 1, y: 1, width: 1, height: 1 })
  })
})

describe('maskToRgba', () => {
  it('is width x height RGBA: painted pixels alpha 0, all others alpha 255, colour black', () => {
    const w = 13
    const h = 9
    const cov = rasterizeStrokes([brush(2, [6, 4])], w, h)
    const rgba = maskToRgba(cov, w, h)
    expect(rgba.length).toBe(w * h * 4)
    for (let i = 0; i < w * h; i++) {
      expect(rgba[i * 4 + 3]).toBe(cov[i] ? 0 : 255)
      expect([rgba[i * 4], rgba[i * 4 + 1], rgba[i * 4 + 2]]).toEqual([0, 0, 0])
    }
    const alphas = new Set(Array.from({ length: w * h }, (_, i) => rgba[i * 4 + 3]))
    expect([...alphas].sort()).toEqual([0, 255])
  })
})

describe('overlayRgba', () => {
  it('colours painted pixels of the rectangle opaquely and leaves the rest transparent', () => {
    const cov = rasterizeStrokes([brush(0.4, [3.5, 2.5])], 8, 6)
    const rgba = overlayRgba(cov, 8, { x: 2, y: 1, width: 3, height: 3 }, [[10, 20, 30], [40, 50, 60]])
    expect(rgba.length).toBe(36)
    // (3, 2) is at (1, 1) inside the rectangle, on the second stripe ((3 + 2) / 4 rounds down to 1).
    expect(Array.from(rgba.slice(16, 20))).toEqual([40, 50, 60, 255])
    expect(rgba[3]).toBe(0)
  })

  it('hatches in diagonal stripes of both colours, HATCH_STRIPE pixels wide', () => {
    const cov = new Uint8Array(16).fill(1)
    const rgba = overlayRgba(cov, 16, { x: 0, y: 0, width: 16, height: 1 }, [[1, 1, 1], [2, 2, 2]])
    expect(Array.from({ length: 16 }, (_, x) => rgba[x * 4])).toEqual([1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1, 2, 2, 2, 2].map((v, x) => (Math.floor(x / HATCH_STRIPE) % 2 === 0 ? 1 : 2)))
  })

  it('on a red image the overlay is not red: the palette colour farthest from the image, striped with black or white', () => {
    expect(overlayColorsFor([220, 30, 40])).toEqual([[0, 200, 255], [0, 0, 0]])
    expect(overlayColorsFor([20, 20, 20])[0]).toEqual([255, 220, 0])
    expect(overlayColorsFor([230, 40, 90])[0]).not.toEqual([230, 40, 90])
  })
})

describe('region steps (magic wand, select object)', () => {
  /** A whole-image selection of the rectangle [x0,x1) x [y0,y1). */
  const selection = (x0: number, y0: number, x1: number, y1: number) => {
    const m = new Uint8Array(W * H)
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) m[y * W + x] = 1
    return m
  }

  it('crops a selection to its bounding box, and is undefined when nothing is selected', () => {
    const sel = selection(5, 3, 9, 7)
    sel[7 * W + 12] = 1
    const op = regionOp(sel, W, H, 'add')!
    expect(op.rect).toEqual({ x: 5, y: 3, width: 8, height: 5 })
    expect(op.bits.length).toBe(40)
    expect(countPainted(op.bits)).toBe(17)
    expect(regionOp(new Uint8Array(W * H), W, H, 'add')).toBeUndefined()
  })

  it('adds exactly the selected pixels, and subtracts exactly them, after other steps', () => {
    const add = regionOp(selection(5, 5, 15, 15), W, H, 'add')!
    const sub = regionOp(selection(10, 10, 20, 20), W, H, 'subtract')!
    const cov = rasterizeStrokes([add, sub], W, H)
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const inAdd = x >= 5 && x < 15 && y >= 5 && y < 15
        const inSub = x >= 10 && x < 20 && y >= 10 && y < 20
        expect(at(cov, x, y), `(${x},${y})`).toBe(inAdd && !inSub ? 1 : 0)
      }
    }
    // replayed after an invert, a subtraction still clears only its pixels
    const inverted = rasterizeStrokes([{ kind: 'invert' }, sub], W, H)
    expect(countPainted(inverted)).toBe(W * H - 100)
  })

  it('reports its rectangle as the area that changed', () => {
    const op = regionOp(selection(2, 3, 4, 8), W, H, 'add')!
    expect(applyMaskOp(new Uint8Array(W * H), W, H, op)).toEqual({ x: 2, y: 3, width: 2, height: 5 })
  })
})
