/// <reference types="node" />
// Runs in Node (vitest): it loads OpenCV.js from node_modules.
import { createRequire } from 'node:module'
import { beforeAll, describe, expect, it } from 'vitest'
import { cvReady, seedLabels, selectObject, workingSize, type Cv } from '../../../../renderer/canvas/select-object'


type Shape = (x: number, y: number) => boolean

/** A synthetic photo: textured background (two tones in a checker, plus noise), the object in another colour. */
function scene(w: number, h: number, object: Shape, objectColor: [number, number, number], seed = 1): Uint8ClampedArray {
  let s = seed
  const noise = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) % 21) - 10
  const out = new Uint8ClampedArray(w * h * 4)
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const base: [number, number, number] = object(x, y) ? objectColor : ((x >> 4) + (y >> 4)) % 2 ? [70, 140, 70] : [90, 160, 200]
      out.set([base[0] + noise(), base[1] + noise(), base[2] + noise(), 255], (y * w + x) * 4)
    }
  }
  return out
}

/** Share of the object covered and of the background selected. */
function score(mask: Uint8Array, w: number, h: number, object: Shape): { object: number; background: number } {
  let inObj = 0, objHit = 0, inBg = 0, bgHit = 0
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (object(x, y)) { inObj++; objHit += mask[y * w + x] } else { inBg++; bgHit += mask[y * w + x] }
    }
  }
  return { object: objHit / inObj, background: bgHit / inBg }
}

describe('selectObject (GrabCut)', () => {
  let cv: Cv
  beforeAll(async () => {
    // OpenCV.js from the npm package, the same build the worker loads.
    cv = (await cvReady(createRequire(import.meta.url)('@techstark/opencv-js'))).cv
  })

  it('selects an ellipse from a click inside it: ≥ 90% of the object, ≤ 5% of the background', () => {
    const [w, h] = [320, 240]
    const ellipse: Shape = (x, y) => ((x - 150) / 70) ** 2 + ((y - 120) / 50) ** 2 <= 1
    const mask = selectObject(cv, scene(w, h, ellipse, [220, 60, 40]), w, h, { point: [150, 120] })
    const s = score(mask, w, h, ellipse)
    expect(s.object).toBeGreaterThanOrEqual(0.9)
    expect(s.background).toBeLessThanOrEqual(0.05)
  })

  it('keeps only the clicked object when a look-alike stands beside it', () => {
    const [w, h] = [320, 200]
    const left: Shape = (x, y) => (x - 80) ** 2 + (y - 100) ** 2 <= 45 ** 2
    const right: Shape = (x, y) => (x - 240) ** 2 + (y - 100) ** 2 <= 45 ** 2
    const img = scene(w, h, (x, y) => left(x, y) || right(x, y), [240, 200, 30])
    const mask = selectObject(cv, img, w, h, { point: [240, 100] })
    const s = score(mask, w, h, right)
    expect(s.object).toBeGreaterThanOrEqual(0.9)
    expect(s.background).toBeLessThanOrEqual(0.05)
    expect(score(mask, w, h, left).object).toBe(0)
  })

  it('works on a large image through the downscaled copy, with a box around the object', () => {
    const [w, h] = [1600, 1200]
    const rect: Shape = (x, y) => x >= 500 && x < 1100 && y >= 300 && y < 800
    const mask = selectObject(cv, scene(w, h, rect, [30, 30, 30]), w, h, { box: { x: 420, y: 220, width: 780, height: 680 } })
    expect(mask.length).toBe(w * h)
    const s = score(mask, w, h, rect)
    expect(s.object).toBeGreaterThanOrEqual(0.9)
    expect(s.background).toBeLessThanOrEqual(0.05)
  })
})

describe('seedLabels and workingSize', () => {
  it('marks outside the box as background, inside as probable foreground, the click as foreground', () => {
    const labels = seedLabels(10, 10, { box: { x: 2, y: 2, width: 6, height: 6 }, point: [5, 5] })
    expect(labels[0]).toBe(0)
    expect(labels[2 * 10 + 2]).toBe(3)
    expect(labels[5 * 10 + 5]).toBe(1)
    expect(labels[8 * 10 + 8]).toBe(0)
  })
  it('frames a click-only hint with a thin background border', () => {
    const labels = seedLabels(100, 100, { point: [50, 50] })
    expect(labels[0]).toBe(0)
    expect(labels[2 * 100 + 50]).toBe(0)
    expect(labels[3 * 100 + 50]).toBe(3)
    expect(labels[50 * 100 + 50]).toBe(1)
  })
  it('scales the longest side down to 512 and never up', () => {
    expect(workingSize(4096, 2048)).toEqual({ width: 512, height: 256, scale: 0.125 })
    expect(workingSize(300, 200)).toEqual({ width: 300, height: 200, scale: 1 })
  })
})
