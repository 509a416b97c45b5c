/**
 * Prices of a call before it is made (POST /v1/quote), computed by the same code that bills the call: `costNano`
 * at the catalog's list price, the token limits billing checks usage against, and the gateway's own token count.
 */
import type { CatalogModel, Pricing } from '../../../shared/types.js'
import type { AdmissionSpec } from '../admission.js'
import { tokenLimits } from '../money/billed-usage.js'
import { costNano } from './billing.js'
import type { RequestContext } from '../context.js'
import { countTextTokens } from '../tokens/tokens.js'
import type { TokenUsage } from '../contract/upstream.js'

/** A quote in nano-USD, and what it was computed from. */
export interface QuotePrice {
  minNano: number
  maxNano: number
  basis: Record<string, unknown>
}

/** An endpoint a quote can price: its own admission (the quote skips its funds step) and the price of the admitted request. */
export interface Quotable<Req> {
  // The input and funds types are the endpoint's own business: a quote reads neither.
  admission: AdmissionSpec<unknown, Req, unknown>
  price(request: Req, model: CatalogModel, ctx: RequestContext): Promise<QuotePrice>
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

/** Token prices: min = the prompt's tokens at the input price; max = min + the output cap at the output price. */
export async function tokenQuote(model: CatalogModel, prompt: string, cap: { tokens: number; source: string }, signal: AbortSignal): Promise<QuotePrice> {
  const inputTokens = await countTextTokens(prompt, { signal })
  return {
    minNano: costNano(model, { inputTokens, outputTokens: 0 }),
    maxNano: costNano(model, { inputTokens, outputTokens: cap.tokens }),
    basis: { input_tokens: inputTokens, max_output_tokens: cap.tokens, output_cap: cap.source },
  }
}

/** Per-image and per-character prices: the usage the real call is billed for, priced once (min = max). */
export function usageQuote(model: CatalogModel, usage: TokenUsage, basis: Record<string, unknown>): QuotePrice {
  const cost = costNano(model, usage)
  return { minNano: cost, maxNano: cost, basis }
}
