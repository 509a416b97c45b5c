import { describe, expect, it } from 'vitest'
import { componentAt, magicWand } from '../../../../renderer/canvas/magic-wand'

/** An RGBA image from a colour function. */
function image(w: number, h: number, color: (x: number, y: number) => [number, number, number]): Uint8ClampedArray {
  const out = new Uint8ClampedArray(w * h * 4)
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) out.set([...color(x, y), 255], (y * w + x) * 4)
  return out
}
const count = (m: Uint8Array) => m.reduce((a, b) => a + b, 0)

describe('magicWand', () => {
  it('selects exactly a disc of one colour on a background, not a second disc of the same colour elsewhere', () => {
    const [w, h] = [80, 60]
    const inA = (x: number, y: number) => (x - 20) ** 2 + (y - 30) ** 2 <= 100
    const inB = (x: number, y: number) => (x - 60) ** 2 + (y - 30) ** 2 <= 100
    const img = image(w, h, (x, y) => (inA(x, y) || inB(x, y) ? [200, 30, 30] : [20, 40, 60]))
    const sel = magicWand(img, w, h, 20.4, 30.7, 10)
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) expect(sel[y * w + x], `(${x},${y})`).toBe(inA(x, y) ? 1 : 0)
  })
  it('grows through colours within the tolerance of the seed and stops beyond it', () => {
    // a horizontal ramp: 0, 10, 20, … per column
    const img = image(10, 3, (x) => [x * 10, 0, 0])
    const sel = magicWand(img, 10, 3, 0, 1, 25)
    for (let y = 0; y < 3; y++) expect([...sel.subarray(y * 10, y * 10 + 10)]).toEqual([1, 1, 1, 0, 0, 0, 0, 0, 0, 0])
    expect(count(magicWand(img, 10, 3, 0, 1, 0))).toBe(3)
    expect(count(magicWand(img, 10, 3, 0, 1, 255))).toBe(30)
  })
  it('fills around holes and into concave shapes (a U)', () => {
    const inU = (x: number, y: number) => (x >= 2 && x <= 4 && y >= 2 && y <= 17) || (x >= 15 && x <= 17 && y >= 2 && y <= 17) || (y >= 15 && y <= 17 && x >= 2 && x <= 17)
    const img = image(20, 20, (x, y) => (inU(x, y) ? [255, 255, 255] : [0, 0, 0]))
    const sel = magicWand(img, 20, 20, 3, 3, 0)
    for (let y = 0; y < 20; y++) for (let x = 0; x < 20; x++) expect(sel[y * 20 + x]).toBe(inU(x, y) ? 1 : 0)
  })
  it('selects nothing for a seed outside the image', () => {
    const img = image(4, 4, () => [0, 0, 0])
    expect(count(magicWand(img, 4, 4, -1, 2, 255))).toBe(0)
    expect(count(magicWand(img, 4, 4, 2, 4, 255))).toBe(0)
  })
  it('handles a large image with a long winding region (no recursion, stack grows)', () => {
    const [w, h] = [1024, 1024]
    // a serpentine: every other row open, joined alternately at the right and left ends
    const open = (x: number, y: number) => y % 2 === 0 || (y % 4 === 1 ? x === w - 1 : x === 0)
    const img = image(w, h, (x, y) => (open(x, y) ? [255, 255, 255] : [0, 0, 0]))
    const sel = magicWand(img, w, h, 0, 0, 0)
    let expected = 0
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) expected += open(x, y) ? 1 : 0
    expect(count(sel)).toBe(expected)
  })
})

describe('componentAt', () => {
  it('keeps only the connected part that holds the point', () => {
    const cov = Uint8Array.from([1, 1, 0, 1, 0, 1, 0, 1, 0, 0, 0, 1])
    expect([...componentAt(cov, 4, 3, 0, 0)]).toEqual([1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0])
    expect([...componentAt(cov, 4, 3, 2, 0)]).toEqual(new Array(12).fill(0))
  })
})
