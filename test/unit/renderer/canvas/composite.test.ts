import { describe, expect, it } from 'vitest'
import { compositeEdit, compositeRgba, countChangedOutside, featherAlpha, scaleCoverage } from '../../../../renderer/canvas/composite'

/** An RGBA image of one colour. */
const solid = (w: number, h: number, rgba: [number, number, number, number]) => {
  const out = new Uint8ClampedArray(w * h * 4)
  for (let i = 0; i < w * h; i++) out.set(rgba, i * 4)
  return out
}
/** A coverage buffer with the rectangle [x0,x1) x [y0,y1) painted. */
const rectMask = (w: number, h: number, x0: number, y0: number, x1: number, y1: number) => {
  const m = new Uint8Array(w * h)
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) m[y * w + x] = 1
  return m
}

describe('scaleCoverage', () => {
  it('takes the source pixel under each target pixel centre', () => {
    const src = Uint8Array.from([1, 0, 0, 1]) // 2x2 diagonal
    expect([...scaleCoverage(src, 2, 2, 4, 4)]).toEqual([1, 1, 0, 0, 1, 1, 0, 0, 0, 0, 1, 1, 0, 0, 1, 1])
    expect([...scaleCoverage(Uint8Array.from([1, 0, 1, 0, 1, 0, 1, 0, 1]), 3, 3, 1, 1)]).toEqual([1])
  })
  it('returns a copy at the same size', () => {
    const src = Uint8Array.from([1, 0])
    const out = scaleCoverage(src, 2, 1, 2, 1)
    expect([...out]).toEqual([1, 0])
    expect(out).not.toBe(src)
  })
})

describe('featherAlpha', () => {
  it('is 255 inside and 0 outside without feather', () => {
    expect([...featherAlpha(Uint8Array.from([0, 1, 1, 0]), 4, 1, 0)]).toEqual([0, 255, 255, 0])
  })
  it('ramps linearly over the last pixels inside the mask and never touches pixels outside', () => {
    const w = 12
    const m = rectMask(w, 1, 2, 0, 10, 1) // painted x = 2..9
    const alpha = featherAlpha(m, w, 1, 3)
    // distance to the nearest unpainted pixel: 1,2,3,4,4,3,2,1 → 1/4, 2/4, 3/4, full
    expect([...alpha]).toEqual([0, 0, 64, 128, 191, 255, 255, 191, 128, 64, 0, 0])
  })
  it('counts the image border as no edge', () => {
    expect([...featherAlpha(Uint8Array.from([1, 1, 1, 0]), 4, 1, 2)]).toEqual([255, 170, 85, 0])
  })
  it('uses diagonal neighbours too (chessboard distance)', () => {
    const w = 5
    const m = rectMask(w, 5, 1, 1, 4, 4)
    const alpha = featherAlpha(m, w, 5, 1)
    expect(alpha[2 * w + 2]).toBe(255)
    for (const [x, y] of [[1, 1], [2, 1], [3, 3], [1, 2]]) expect(alpha[y * w + x]).toBe(128)
    expect(alpha[0]).toBe(0)
  })
})

describe('compositeRgba', () => {
  it('takes the result where alpha is 255, the reference where 0, and mixes in between', () => {
    const result = Uint8ClampedArray.from([200, 100, 0, 255, 200, 100, 0, 255, 200, 100, 0, 255])
    const reference = Uint8ClampedArray.from([0, 0, 100, 255, 0, 0, 100, 255, 0, 0, 100, 128])
    const out = compositeRgba(result, reference, Uint8Array.from([255, 0, 128]))
    expect([...out]).toEqual([200, 100, 0, 255, 0, 0, 100, 255, 100, 50, 50, 192])
  })
})

describe('countChangedOutside', () => {
  it('counts only pixels outside the mask that differ beyond the tolerance', () => {
    const ref = solid(4, 1, [10, 10, 10, 255])
    const img = Uint8ClampedArray.from([10, 10, 10, 255, 19, 10, 10, 255, 18, 10, 10, 255, 90, 90, 90, 255])
    // pixel 3 is inside the mask: its change does not count
    expect(countChangedOutside(img, ref, Uint8Array.from([0, 0, 0, 1]), 8)).toEqual({ outside: 3, changed: 1 })
  })
})

describe('compositeEdit', () => {
  it('keeps every pixel outside the (scaled) mask as in the reference and reports what the model changed', () => {
    const [w, h] = [40, 20]
    const reference = solid(w, h, [40, 120, 200, 255])
    const result = solid(w, h, [250, 10, 10, 255]) // the model changed everything
    // The request's mask is half the size: its rectangle x 5..14, y 2..7 covers x 10..29, y 4..15 here.
    const mask = { coverage: rectMask(20, 10, 5, 2, 15, 8), width: 20, height: 10 }
    const { pixels, stats } = compositeEdit(result, reference, w, h, mask, 2)
    const inside = rectMask(w, h, 10, 4, 30, 16)
    for (let p = 0; p < w * h; p++) {
      const px = [...pixels.subarray(p * 4, p * 4 + 4)]
      if (!inside[p]) expect(px, `pixel ${p}`).toEqual([40, 120, 200, 255])
    }
    // deep inside: the model's output
    expect([...pixels.subarray((10 * w + 20) * 4, (10 * w + 20) * 4 + 4)]).toEqual([250, 10, 10, 255])
    const outside = w * h - 20 * 12
    expect(stats).toEqual({ outside, changedByModel: outside, keptByComposite: outside })
  })
  it('reports nothing changed when the model kept the outside', () => {
    const ref = solid(4, 4, [1, 2, 3, 255])
    const { stats } = compositeEdit(ref, ref, 4, 4, { coverage: rectMask(4, 4, 0, 0, 2, 2), width: 4, height: 4 })
    expect(stats).toEqual({ outside: 12, changedByModel: 0, keptByComposite: 12 })
  })
})
