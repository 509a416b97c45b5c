import type { CatalogModel } from '../../../shared/types.js'
import { billableQuantity, billableUsage } from '../money/billed-usage.js'
import { sniffRaster } from '../formats/media-sniff.js'
import type { ImageOutcome, NormalizedImageRequest } from '../contract/image-upstream.js'
import type { TokenUsage } from '../contract/upstream.js'

// 24 base64 characters are 18 bytes: enough for every magic number sniffRaster reads.
const B64_HEAD_CHARS = 24

/**
 * A vendor's inline images, checked by their bytes: each must be a PNG, JPEG, WebP or GIF (its type is taken
 * from the bytes, not the vendor's word). Anything else (an SVG, which can carry scripts) makes the answer
 * malformed, so the request fails over like for any broken answer. Links are checked when they are saved.
 */
export function rasterOnly(outcome: ImageOutcome): ImageOutcome {
  const images = outcome.images.map((image) => {
    if (image.b64 === undefined) return image
    const mimeType = sniffRaster(Buffer.from(image.b64.slice(0, B64_HEAD_CHARS), 'base64'))
    if (!mimeType) throw new SyntaxError('an image in the answer is not a PNG, JPEG, WebP or GIF')
    return { ...image, mimeType }
  })
  return { ...outcome, images }
}

/**
 * The images response (spec §2.3). Field names the spec leaves open: `url` (signed link, Seedream-style),
 * `mime_type`, `revised_prompt`, and `usage` with `input_tokens`/`output_tokens`/`total_tokens`.
 */
export function imagesBody(outcome: ImageOutcome, created = Math.floor(Date.now() / 1000)): object {
  const data = outcome.images.map((image) => ({
    ...(image.b64 !== undefined ? { b64_json: image.b64 } : {}),
    ...(image.url !== undefined ? { url: image.url } : {}),
    mime_type: image.mimeType,
    ...(image.revisedPrompt ? { revised_prompt: image.revisedPrompt } : {}),
  }))
  const usage = outcome.usage && {
    input_tokens: outcome.usage.inputTokens + (outcome.usage.cachedInputTokens ?? 0),
    output_tokens: outcome.usage.outputTokens,
    total_tokens: outcome.usage.inputTokens + (outcome.usage.cachedInputTokens ?? 0) + outcome.usage.outputTokens,
  }
  return { created, data, ...(usage ? { usage } : {}) }
}

/** Per-image usage: `images` made at `tier` (per-tier prices apply to it). */
export const perImageUsage = (images: number, tier: string | undefined): TokenUsage => ({ inputTokens: 0, outputTokens: 0, quantity: images, raw: { images, tier } })

/**
 * What an image request is billed: per image (by tier where the price list has tiers), never more images than
 * were asked for; or by tokens, checked like every billed usage (the prompt counted locally when they are absurd).
 */
export function imageUsage(model: CatalogModel, outcome: ImageOutcome, req: Pick<NormalizedImageRequest, 'prompt' | 'n'>): Promise<TokenUsage> {
  const images = billableQuantity(outcome.images.length, req.n)
  const reported = model.pricing.unit === 'token' ? outcome.usage : perImageUsage(images, outcome.tier)
  return billableUsage(model, reported, { text: { prompt: () => req.prompt, output: () => '' }, maxQuantity: req.n })
}
