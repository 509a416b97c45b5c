/**
 * `<W>x<H>` sizes: the preset list a model's geometry rule (`x-image-size` in its schema) accepts, and
 * the check of a size typed by hand, with the same rule the gateway applies (shared/schemas/images.ts).
 */
import { parseWxH, pixelSizeProblem, type PixelSizeProblem, type PixelSizeRule } from '../../../shared/schemas/images'

// Common output sizes, smallest first; each model offers those its rule accepts.
const CANDIDATES = [
  '1024x1024', '1280x720', '720x1280', '1536x1024', '1024x1536', '1792x1024', '1024x1792', '2048x1152', '1152x2048',
  '2048x1536', '1536x2048', '2048x2048', '2560x1440', '1440x2560', '3072x2048', '2048x3072', '3840x2160', '2160x3840',
  '2880x2880', '4096x2304', '2304x4096', '4096x4096',
] as const

/** The preset sizes a geometry rule accepts (every candidate when the model states no rule). */
export function sizePresets(rule: PixelSizeRule | undefined): string[] {
  return CANDIDATES.filter((s) => {
    const size = parseWxH(s)!
    return rule === undefined || pixelSizeProblem(size.width, size.height, rule) === undefined
  })
}

export type CustomSizeCheck = { ok: true; value: string } | { ok: false; problem: 'format' | PixelSizeProblem }

/** A hand-typed size (`1200x800`, `1200 × 800`, `1200*800`) normalized to `1200x800` and checked against the rule. */
export function checkCustomSize(text: string, rule: PixelSizeRule | undefined): CustomSizeCheck {
  const value = text.trim().toLowerCase().replace(/\s*[x×*]\s*/, 'x')
  const size = parseWxH(value)
  if (!size) return { ok: false, problem: 'format' }
  const problem = rule ? pixelSizeProblem(size.width, size.height, rule) : undefined
  return problem ? { ok: false, problem } : { ok: true, value }
}
