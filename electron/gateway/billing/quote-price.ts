/**
 * Prices of a call before it is made (POST /v1/quote), computed by the same code that bills the call: `costNano`
 * at the catalog's list price, the token limits billing checks usage against, and the gateway's own token count.
 * Three figures: `min` (the least a successful call is billed), `expected` (what a typical call is billed: what the
 * app's "Ask before sending above" compares), `max` (the most it can be billed, `n` included).
 */
import type { CatalogModel, Pricing } from '../../../shared/types.js'
import { tokenLimits } from '../money/billed-usage.js'
import { costNano } from './billing.js'
import { countTextTokens } from '../tokens/tokens.js'
import type { TokenUsage } from '../contract/upstream.js'
import type { NormalizedImageRequest } from '../contract/image-upstream.js'
import type { ClientLeaving } from '../contract/family.js'

/** A quote in nano-USD, and what it was computed from. */
export interface QuotePrice {
  minNano: number
  maxNano: number
  /** what a typical call is billed; absent: `maxNano` (a price known exactly, per image, second or character) */
  expectedNano?: number
  basis: Record<string, unknown>
}

/** The catalog price as the quote shows it (snake_case like every answer). */
export function priceBasis(pricing: Pricing): Record<string, unknown> {
  switch (pricing.unit) {
    case 'token': return { input: pricing.input, output: pricing.output, ...(pricing.cachedInput !== undefined ? { cached_input: pricing.cachedInput } : {}) }
    case 'image': return { per_image: pricing.price, ...(pricing.byTier ? { by_tier: pricing.byTier } : {}) }
    case 'second': return { per_second: pricing.price, ...(pricing.byResolution ? { by_resolution: pricing.byResolution } : {}) }
    case 'character': return { per_million_characters: pricing.price }
  }
}

/** The most output tokens a call can be billed for: the first cap field the request sets, else the model's output limit. */
export function outputCap(body: Record<string, unknown>, fields: readonly string[], model: CatalogModel): { tokens: number; source: string } {
  // Billing never accepts more output than the model's limit (billed-usage.ts), whatever the request asked for.
  const limit = tokenLimits(model).output
  for (const field of fields) {
    const value = body[field]
    if (Number.isSafeInteger(value) && (value as number) >= 0) return { tokens: Math.min(value as number, limit), source: field }
  }
  return { tokens: limit, source: 'model_limit' }
}

/**
 * A typical answer's length in tokens, thinking included: the model's catalog `typicalOutputTokens` (each chat
 * family sets one; the catalog's `_spec` says where the figure comes from), else this.
 */
export const TYPICAL_OUTPUT_TOKENS = 1000

/** The typical answer length of a model (catalog `typicalOutputTokens`). */
export function typicalOutputTokens(model: CatalogModel): number {
  const value = model.typicalOutputTokens
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : TYPICAL_OUTPUT_TOKENS
}

/**
 * A hold (billing/holds.ts) bounds the input of a prompt longer than this by its UTF-8 size instead of counting it: a
 * token covers at least one byte, and counting costs ~30 ns a character (3 ms for 100 KB) of every such request.
 */
export const COUNTED_HOLD_CHARS = 4096

/** How a price is worked out: a hold may bound a long prompt's input rather than count it (`COUNTED_HOLD_CHARS`). */
export interface PriceOptions {
  inputBound?: boolean
}

/** What else a token quote knows of the request: the answers asked for (`n`, chat only) and a typical answer's length. */
export interface TokenQuoteOptions extends PriceOptions {
  /** answers generated (chat `n`): the prompt is billed once, the output of each answer */
  n?: number
  /** a typical answer's tokens (default: the model's `typicalOutputTokens`); never above the cap */
  typicalOutput?: number
}

/**
 * Token prices: min = the prompt's tokens at the input price; expected adds a typical answer (at most the cap) per
 * answer asked for; max adds the output cap per answer (the worst case a reservation must cover).
 */
export async function tokenQuote(model: CatalogModel, prompt: string, cap: { tokens: number; source: string }, client: ClientLeaving, options: TokenQuoteOptions = {}): Promise<QuotePrice> {
  const bounded = options.inputBound === true && prompt.length > COUNTED_HOLD_CHARS
  const inputTokens = bounded ? Buffer.byteLength(prompt, 'utf8') : await countTextTokens(prompt, { client })
  const n = options.n ?? 1
  const typical = Math.min(options.typicalOutput ?? typicalOutputTokens(model), cap.tokens)
  return {
    minNano: costNano(model, { inputTokens, outputTokens: 0 }),
    expectedNano: costNano(model, { inputTokens, outputTokens: typical * n }),
    maxNano: costNano(model, { inputTokens, outputTokens: cap.tokens * n }),
    basis: {
      input_tokens: inputTokens,
      expected_output_tokens: typical * n,
      max_output_tokens: cap.tokens,
      output_cap: cap.source,
      ...(n !== 1 ? { n } : {}),
      ...(bounded ? { input_tokens_bound: true } : {}),
    },
  }
}

/** Per-image and per-character prices: the usage the real call is billed for, priced once (min = expected = max). */
export function usageQuote(model: CatalogModel, usage: TokenUsage, basis: Record<string, unknown>): QuotePrice {
  const cost = costNano(model, usage)
  return { minNano: cost, expectedNano: cost, maxNano: cost, basis }
}

/** Pixels the image-token table (catalog `imageOutputTokens`) is given for: one 1024×1024 image. */
const TABLE_PIXELS = 1024 * 1024
/** Sizes a token-priced model picks from for `size: auto` (OpenAI: 1024x1024, 1536x1024, 1024x1536). */
const AUTO_PIXELS = { least: 1024 * 1024, most: 1536 * 1024 }
/** Pixels of a size tier's image (GPT 2.0 tiers: square up to 2K; 4K as the largest size the family takes, 3840×2160). */
const TIER_PIXELS: Record<string, number> = { '1K': 1024 * 1024, '2K': 2048 * 2048, '4K': 3840 * 2160 }
/** The quality a request that names none (or `auto`) is expected at: the vendor's `auto` mostly picks it. */
const EXPECTED_QUALITY = 'high'

/** Input tokens one reference image costs on an edit (catalog `referenceInputTokens`), 0 when the row gives none. */
function referenceTokens(model: CatalogModel, references: number): number {
  const perImage = model.referenceInputTokens
  return typeof perImage === 'number' && Number.isSafeInteger(perImage) && perImage > 0 ? perImage * references : 0
}

/** The model's output tokens per 1024×1024 image by quality (catalog `imageOutputTokens`), dearest last. */
function qualityTokens(model: CatalogModel): Array<[string, number]> {
  const table = model.imageOutputTokens
  if (typeof table !== 'object' || table === null) return []
  return Object.entries(table as Record<string, unknown>)
    .filter((e): e is [string, number] => typeof e[1] === 'number' && e[1] > 0)
    .sort((a, b) => a[1] - b[1])
}

/** The least and most pixels of one image of the request. */
function imagePixels(req: Pick<NormalizedImageRequest, 'size' | 'tier'>): { least: number; most: number } {
  if (req.size !== undefined && req.size !== 'auto') return { least: req.size.width * req.size.height, most: req.size.width * req.size.height }
  const tier = req.tier !== undefined ? TIER_PIXELS[req.tier] : undefined
  return tier !== undefined ? { least: tier, most: tier } : AUTO_PIXELS
}

/**
 * Images priced per token (GPT-style): each image's output tokens from the vendor's published table by quality
 * (catalog `imageOutputTokens`, given for 1024×1024 and scaled by the image's pixels, as OpenAI's own table scales),
 * times `n`; the prompt at the input price. A quality the request names is priced exactly; none (or `auto`, or one
 * missing from the table) is expected at `high` and ranges from the cheapest quality to the dearest. A model with no
 * table is priced by tokens with the model's output limit per image. Each reference image of an edit adds the
 * model's `referenceInputTokens` at the image input price.
 */
export async function imageTokenQuote(model: CatalogModel, req: Pick<NormalizedImageRequest, 'prompt' | 'n' | 'size' | 'tier' | 'quality' | 'referenceCount'>, client: ClientLeaving): Promise<QuotePrice> {
  const table = qualityTokens(model)
  if (table.length === 0) return tokenQuote(model, req.prompt, outputCap({}, [], model), client, { n: req.n })
  const imageInputTokens = referenceTokens(model, req.referenceCount)
  const inputTokens = (await countTextTokens(req.prompt, { client })) + imageInputTokens
  const pixels = imagePixels(req)
  const named = table.find(([quality]) => quality === req.quality)
  const expectedEntry = named ?? table.find(([quality]) => quality === EXPECTED_QUALITY) ?? table[table.length - 1]
  const least = named ?? table[0]
  const most = named ?? table[table.length - 1]
  const tokens = (perImage: number, px: number) => Math.ceil((perImage * px) / TABLE_PIXELS) * req.n
  const expectedTokens = tokens(expectedEntry[1], pixels.least)
  const maxTokens = tokens(most[1], pixels.most)
  return {
    minNano: costNano(model, { inputTokens, imageInputTokens, outputTokens: tokens(least[1], pixels.least) }),
    expectedNano: costNano(model, { inputTokens, imageInputTokens, outputTokens: expectedTokens }),
    maxNano: costNano(model, { inputTokens, imageInputTokens, outputTokens: maxTokens }),
    basis: {
      input_tokens: inputTokens,
      ...(imageInputTokens > 0 ? { image_input_tokens: imageInputTokens } : {}),
      images: req.n,
      quality: named ? named[0] : `${least[0]}..${most[0]}`,
      expected_quality: expectedEntry[0],
      expected_output_tokens: expectedTokens,
      max_output_tokens: maxTokens,
      output_cap: 'image_tokens',
    },
  }
}
