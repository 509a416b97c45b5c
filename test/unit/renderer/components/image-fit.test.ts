import { describe, expect, it } from 'vitest'
import { DECODE_CEILING_PIXELS, fitImage, GATEWAY_BODY_BYTES, limitsFor } from '../../../../renderer/components/image-fit'

describe('limitsFor', () => {
  it('gives each use its caps, never above what the gateway body holds as base64', () => {
    expect(limitsFor('chat')).toEqual({ maxBytes: 5_000_000, maxSide: 2048 })
    expect(limitsFor('reference')).toEqual({ maxBytes: 10_000_000, maxSide: 4096 })
    expect(limitsFor('video')).toEqual({ maxBytes: 10_000_000, maxSide: 4096, minSide: 300 })
    expect(Math.floor(GATEWAY_BODY_BYTES * 3 / 4)).toBeGreaterThan(limitsFor('reference').maxBytes)
  })

  it('narrows the byte cap to a model\'s data-URL maxLength (base64 characters, less the data: header)', () => {
    // Gemini official-direct: a data URL of at most 20 MiB characters is about 15.7 MB of image.
    expect(limitsFor('reference', 20 * 1024 * 1024).maxBytes).toBe(10_000_000)
    expect(limitsFor('reference', 4_000_000)).toEqual({ maxBytes: 3_000_000 - 64, maxSide: 4096 })
  })
})

describe('fitImage', () => {
  const chat = limitsFor('chat')
  const reference = limitsFor('reference')

  it.each([
    ['small photo in chat', { width: 1200, height: 800, bytes: 300_000 }, chat],
    ['exactly the long side', { width: 2048, height: 1024, bytes: 4_000_000 }, chat],
    ['4K reference', { width: 4096, height: 2304, bytes: 9_000_000 }, reference],
  ])('keeps an image within the limits: %s', (_name, facts, limits) => {
    expect(fitImage(facts, limits)).toEqual({ kind: 'keep' })
  })

  it('downscales a 6000×6000 photo to the long side of its use, keeping the shape', () => {
    expect(fitImage({ width: 6000, height: 6000, bytes: 12_000_000 }, chat)).toMatchObject({ kind: 'downscale', width: 2048, height: 2048 })
    expect(fitImage({ width: 6000, height: 6000, bytes: 12_000_000 }, reference)).toMatchObject({ kind: 'downscale', width: 4096, height: 4096, why: 'side' })
    expect(fitImage({ width: 6000, height: 3000, bytes: 4_000_000 }, chat)).toEqual({ kind: 'downscale', width: 2048, height: 1024, why: 'side' })
  })

  it('downscales a file too heavy for its bytes even when its sides fit, by the square root of the excess', () => {
    // 20 MB for a 10 MB cap: pixels shrink to 10 × 0.85 / 20 of the original, sides by its square root (≈ 0.652).
    const d = fitImage({ width: 4000, height: 3000, bytes: 20_000_000 }, reference)
    expect(d).toEqual({ kind: 'downscale', width: 2607, height: 1955, why: 'bytes' })
  })

  it('refuses a picture too large to decode in the tab, naming the limit', () => {
    expect(fitImage({ width: 20_000, height: 10_000, bytes: 90_000_000 }, reference)).toEqual({ kind: 'refuse', why: 'decode', limit: DECODE_CEILING_PIXELS })
  })

  it('refuses when the short side would fall below the model\'s minimum', () => {
    // A 10000×400 strip must shrink to 4096 wide, leaving 163 px: Kling wants at least 300.
    expect(fitImage({ width: 10_000, height: 400, bytes: 2_000_000 }, limitsFor('video'))).toEqual({ kind: 'refuse', why: 'minSide', limit: 300 })
  })
})
