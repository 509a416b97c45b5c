import { describe, expect, it } from 'vitest'
import { MAX_SCALE, MIN_SCALE, fitView, imageToScreen, panBy, screenToImage, wheelFactor, zoomAt } from '../../../../renderer/canvas/viewport'

describe('fitView', () => {
  it('fits the whole image, centred, limited by the tighter side', () => {
    expect(fitView(200, 100, 800, 600)).toEqual({ scale: 4, x: 0, y: 100 })
    expect(fitView(1000, 2000, 500, 500)).toEqual({ scale: 0.25, x: 125, y: 0 })
  })

  it('maps the image corners onto the view', () => {
    const v = fitView(640, 480, 900, 500)
    const [x0, y0] = imageToScreen(v, 0, 0)
    const [x1, y1] = imageToScreen(v, 640, 480)
    expect(y0).toBeCloseTo(0)
    expect(y1).toBeCloseTo(500)
    expect(x0 + x1).toBeCloseTo(900)
  })

  it('survives a view not laid out yet', () => {
    expect(fitView(100, 100, 0, 0)).toEqual({ scale: 1, x: 0, y: 0 })
  })
})

describe('screen <-> image', () => {
  it('round-trips at any view', () => {
    for (const v of [{ scale: 1, x: 0, y: 0 }, { scale: 2.5, x: -40, y: 17 }, { scale: 0.13, x: 300, y: -2 }]) {
      for (const [ix, iy] of [[0, 0], [12.25, 99.5], [1024, 768]]) {
        const [sx, sy] = imageToScreen(v, ix, iy)
        const [bx, by] = screenToImage(v, sx, sy)
        expect(bx).toBeCloseTo(ix, 9)
        expect(by).toBeCloseTo(iy, 9)
      }
    }
  })
})

describe('zoomAt and panBy', () => {
  it('keeps the image point under the pointer where it is', () => {
    const v = { scale: 1.5, x: 20, y: 30 }
    const before = screenToImage(v, 210, 145)
    const z = zoomAt(v, 1.7, 210, 145)
    expect(z.scale).toBeCloseTo(2.55)
    const after = screenToImage(z, 210, 145)
    expect(after[0]).toBeCloseTo(before[0], 9)
    expect(after[1]).toBeCloseTo(before[1], 9)
  })

  it('clamps the scale', () => {
    expect(zoomAt({ scale: 1, x: 0, y: 0 }, 1e6, 0, 0).scale).toBe(MAX_SCALE)
    expect(zoomAt({ scale: 1, x: 0, y: 0 }, 1e-6, 0, 0).scale).toBe(MIN_SCALE)
  })

  it('pans by screen pixels, which moves image coordinates by that over the scale', () => {
    const v = panBy({ scale: 2, x: 10, y: 10 }, 30, -8)
    expect(v).toEqual({ scale: 2, x: 40, y: 2 })
    expect(screenToImage(v, 40, 2)).toEqual([0, 0])
  })
})

describe('wheelFactor', () => {
  it('zooms in on wheel up, out on wheel down, about 10% per notch, and treats lines and pages as pixels', () => {
    expect(wheelFactor(-100, 0)).toBeGreaterThan(1)
    expect(wheelFactor(100, 0)).toBeCloseTo(Math.exp(-0.1))
    expect(wheelFactor(3, 1)).toBeCloseTo(wheelFactor(48, 0))
    expect(wheelFactor(0, 0)).toBe(1)
    expect(wheelFactor(1e5, 0)).toBe(wheelFactor(200, 0))
  })
})
