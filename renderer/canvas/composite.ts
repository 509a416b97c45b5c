/**
 * Keeping what was not painted: after a masked edit, the reference's pixels go back outside the mask.
 * Pure functions over typed arrays (RGBA bytes, one coverage byte per pixel, 1 = painted), each linear in
 * the pixel count so they stay quick on 4096 x 4096 images.
 */

/** The coverage scaled to another size by nearest neighbour (each target pixel takes the source pixel under its centre). */
export function scaleCoverage(coverage: Uint8Array, width: number, height: number, toWidth: number, toHeight: number): Uint8Array {
  if (width === toWidth && height === toHeight) return coverage.slice()
  const out = new Uint8Array(toWidth * toHeight)
  const xs = new Uint32Array(toWidth)
  for (let x = 0; x < toWidth; x++) xs[x] = Math.min(width - 1, Math.floor(((x + 0.5) * width) / toWidth))
  for (let y = 0; y < toHeight; y++) {
    const row = Math.min(height - 1, Math.floor(((y + 0.5) * height) / toHeight)) * width
    const o = y * toWidth
    for (let x = 0; x < toWidth; x++) out[o + x] = coverage[row + xs[x]]
  }
  return out
}

/**
 * How much of the model's output each pixel takes (0..255): 0 outside the mask, 255 inside, and with
 * `feather` > 0 a linear ramp over the mask's last `feather` pixels, inside the mask only, so no pixel
 * outside it ever changes. The distance to the nearest unpainted pixel is a two-pass chessboard distance
 * transform (linear time); pixels at the image border count as far from the edge (the border is no seam).
 */
export function featherAlpha(coverage: Uint8Array, width: number, height: number, feather: number): Uint8Array {
  const alpha = new Uint8Array(width * height)
  const f = Math.max(0, Math.floor(feather))
  if (f === 0) {
    for (let i = 0; i < alpha.length; i++) alpha[i] = coverage[i] ? 255 : 0
    return alpha
  }
  const cap = f + 1
  const d = new Uint16Array(width * height)
  for (let i = 0; i < d.length; i++) d[i] = coverage[i] ? cap : 0
  // Forward pass: neighbours above and to the left; backward pass: below and to the right.
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x
      if (d[i] === 0) continue
      let m = d[i]
      if (x > 0) m = Math.min(m, d[i - 1] + 1)
      if (y > 0) {
        m = Math.min(m, d[i - width] + 1)
        if (x > 0) m = Math.min(m, d[i - width - 1] + 1)
        if (x < width - 1) m = Math.min(m, d[i - width + 1] + 1)
      }
      d[i] = m
    }
  }
  for (let y = height - 1; y >= 0; y--) {
    for (let x = width - 1; x >= 0; x--) {
      const i = y * width + x
      if (d[i] === 0) continue
      let m = d[i]
      if (x < width - 1) m = Math.min(m, d[i + 1] + 1)
      if (y < height - 1) {
        m = Math.min(m, d[i + width] + 1)
        if (x < width - 1) m = Math.min(m, d[i + width + 1] + 1)
        if (x > 0) m = Math.min(m, d[i + width - 1] + 1)
      }
      d[i] = m
    }
  }
  // A painted pixel next to an unpainted one has d = 1 and gets 1/(f+1); from d = f+1 on, the full output.
  for (let i = 0; i < alpha.length; i++) alpha[i] = d[i] >= cap ? 255 : Math.round((255 * d[i]) / cap)
  return alpha
}

/** The composite: per pixel, `alpha` of the model's output and the rest of the reference (all four channels). */
export function compositeRgba(result: Uint8ClampedArray, reference: Uint8ClampedArray, alpha: Uint8Array): Uint8ClampedArray<ArrayBuffer> {
  const out = new Uint8ClampedArray(result.length)
  for (let p = 0, i = 0; p < alpha.length; p++, i += 4) {
    const a = alpha[p]
    if (a === 255) {
      out[i] = result[i]; out[i + 1] = result[i + 1]; out[i + 2] = result[i + 2]; out[i + 3] = result[i + 3]
    } else if (a === 0) {
      out[i] = reference[i]; out[i + 1] = reference[i + 1]; out[i + 2] = reference[i + 2]; out[i + 3] = reference[i + 3]
    } else {
      // Uint8ClampedArray rounds to the nearest integer on store.
      for (let c = 0; c < 4; c++) out[i + c] = (result[i + c] * a + reference[i + c] * (255 - a)) / 255
    }
  }
  return out
}

/** Pixels where two images differ by more than `tolerance` in some channel (alpha included). */
const differs = (a: Uint8ClampedArray, b: Uint8ClampedArray, i: number, tolerance: number): boolean =>
  Math.abs(a[i] - b[i]) > tolerance || Math.abs(a[i + 1] - b[i + 1]) > tolerance || Math.abs(a[i + 2] - b[i + 2]) > tolerance || Math.abs(a[i + 3] - b[i + 3]) > tolerance

/** Outside the mask (coverage 0): how many pixels there are and how many differ from the reference beyond `tolerance`. */
export function countChangedOutside(image: Uint8ClampedArray, reference: Uint8ClampedArray, coverage: Uint8Array, tolerance: number): { outside: number; changed: number } {
  let outside = 0
  let changed = 0
  for (let p = 0, i = 0; p < coverage.length; p++, i += 4) {
    if (coverage[p]) continue
    outside++
    if (differs(image, reference, i, tolerance)) changed++
  }
  return { outside, changed }
}

/** The figure shown with a masked result. */
export interface CompositeStats {
  /** pixels outside the mask (at the result's size) */
  outside: number
  /** of those, how many the model changed (beyond the tolerance) */
  changedByModel: number
  /** of those, how many the composite shows as in the reference */
  keptByComposite: number
}

/** A small tolerance: lossy formats (JPEG, WebP) and resampling move untouched pixels by a few levels. */
export const CHANGE_TOLERANCE = 8

/** Feather of the composite's edge, in result pixels. */
export const DEFAULT_FEATHER = 3

/**
 * The whole step on pixels already at the result's size: the mask scaled to it, feathered, the composite,
 * and the figures. `reference` is the reference image drawn at the result's size.
 */
export function compositeEdit(result: Uint8ClampedArray, reference: Uint8ClampedArray, width: number, height: number, mask: { coverage: Uint8Array; width: number; height: number }, feather = DEFAULT_FEATHER): { pixels: Uint8ClampedArray<ArrayBuffer>; stats: CompositeStats } {
  const coverage = scaleCoverage(mask.coverage, mask.width, mask.height, width, height)
  const pixels = compositeRgba(result, reference, featherAlpha(coverage, width, height, feather))
  const raw = countChangedOutside(result, reference, coverage, CHANGE_TOLERANCE)
  const kept = countChangedOutside(pixels, reference, coverage, CHANGE_TOLERANCE)
  return { pixels, stats: { outside: raw.outside, changedByModel: raw.changed, keptByComposite: kept.outside - kept.changed } }
}
