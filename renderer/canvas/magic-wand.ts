/** Region growing on pixel grids: the magic wand, and keeping the part of a selection that holds a point. */

/**
 * The 4-connected region of pixels for which `matches` holds, around a seed pixel (empty when the seed is
 * outside the image or does not match). A scanline flood fill with an explicit stack of typed arrays:
 * linear in the pixels it visits, no recursion, fine on 4096 x 4096.
 */
export function floodRegion(width: number, height: number, seedX: number, seedY: number, matches: (p: number) => boolean): Uint8Array {
  const selected = new Uint8Array(width * height)
  const sx = Math.floor(seedX)
  const sy = Math.floor(seedY)
  if (sx < 0 || sy < 0 || sx >= width || sy >= height || !matches(sy * width + sx)) return selected
  // Each pixel is pushed at most once per neighbouring run, so the stack never needs more than the pixel count.
  let stack = new Int32Array(1024)
  let top = 0
  const push = (p: number) => {
    if (top === stack.length) {
      const bigger = new Int32Array(stack.length * 2)
      bigger.set(stack)
      stack = bigger
    }
    stack[top++] = p
  }
  push(sy * width + sx)
  while (top > 0) {
    const p = stack[--top]
    if (selected[p]) continue
    const y = Math.floor(p / width)
    const row = y * width
    let x0 = p - row
    let x1 = x0
    while (x0 > 0 && !selected[row + x0 - 1] && matches(row + x0 - 1)) x0--
    while (x1 < width - 1 && !selected[row + x1 + 1] && matches(row + x1 + 1)) x1++
    for (let x = x0; x <= x1; x++) selected[row + x] = 1
    // One seed per run of matching pixels above and below the span.
    for (const ny of [y - 1, y + 1]) {
      if (ny < 0 || ny >= height) continue
      const nrow = ny * width
      let inRun = false
      for (let x = x0; x <= x1; x++) {
        const q = nrow + x
        const open = !selected[q] && matches(q)
        if (open && !inRun) push(q)
        inRun = open
      }
    }
  }
  return selected
}

/**
 * The magic wand: the 4-connected region around a seed pixel whose colours are within `tolerance` of the
 * seed's (largest difference of R, G, B, A).
 */
export function magicWand(rgba: Uint8ClampedArray, width: number, height: number, seedX: number, seedY: number, tolerance: number): Uint8Array {
  const sx = Math.min(width - 1, Math.max(0, Math.floor(seedX)))
  const sy = Math.min(height - 1, Math.max(0, Math.floor(seedY)))
  const s = (sy * width + sx) * 4
  const [r, g, b, a] = [rgba[s], rgba[s + 1], rgba[s + 2], rgba[s + 3]]
  const tol = Math.max(0, tolerance)
  return floodRegion(width, height, seedX, seedY, (p) => {
    const i = p * 4
    return Math.abs(rgba[i] - r) <= tol && Math.abs(rgba[i + 1] - g) <= tol && Math.abs(rgba[i + 2] - b) <= tol && Math.abs(rgba[i + 3] - a) <= tol
  })
}

/** The connected part of a coverage buffer (1 = selected) that holds the given pixel. */
export const componentAt = (coverage: Uint8Array, width: number, height: number, x: number, y: number): Uint8Array =>
  floodRegion(width, height, x, y, (p) => coverage[p] === 1)
