import type { CatalogModel } from '../../../shared/types.js'
import { billableQuantity, billableUsage } from '../billed-usage.js'
import type { TokenUsage } from '../upstreams/types.js'
import type { NormalizedImageRequest } from './image-request.js'

/** One generated image, as a vendor gave it: inline bytes (base64) or a link. */
export interface GeneratedImage {
  b64?: string
  url?: string
  mimeType: string
  revisedPrompt?: string
}

export interface ImageOutcome {
  images: GeneratedImage[]
  /** token usage, for models priced per token */
  usage?: TokenUsage
  /** the output tier the images were made at, for per-tier prices */
  tier?: string
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

/**
 * What an image request is billed: per image (by tier where the price list has tiers), never more images than
 * were asked for; or by tokens, checked like every billed usage (the prompt counted locally when they are absurd).
 */
export function imageUsage(model: CatalogModel, outcome: ImageOutcome, req: Pick<NormalizedImageRequest, 'prompt' | 'n'>): Promise<TokenUsage> {
  const images = billableQuantity(outcome.images.length, req.n)
  const reported = model.pricing.unit === 'token' ? outcome.usage : { inputTokens: 0, outputTokens: 0, quantity: images, raw: { images, tier: outcome.tier } }
  return billableUsage(model, reported, { text: { prompt: () => req.prompt, output: () => '' }, maxQuantity: req.n })
}
