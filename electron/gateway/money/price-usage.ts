import type { Pricing } from '../../../shared/types.js'
import type { TokenUsage } from '../contract/upstream.js'
import { chargeNano, NANO_PER_USD } from './money.js'

/**
 * What a price applies to: a usage as billed (billed-usage.ts), or the part of one a quote or a video reservation
 * knows (a prompt's tokens, seconds). An image's tier rides in `raw.tier`, where the ledger keeps it.
 */
export type PricedUsage = Partial<Pick<TokenUsage, 'inputTokens' | 'cachedInputTokens' | 'outputTokens' | 'quantity' | 'raw'>>

/** USD per 1M tokens is 1000 nano-USD per token; per 1M characters, 1000 nano-USD per character. */
const NANO_PER_MILLIONTH_USD = 1000

/** A figure of usage as priced: anything but a finite positive number counts as 0 (usage is checked before, billed-usage.ts). */
const figure = (n: number | undefined): number => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : 0)

/** USD per unit at a tier (an image tier's `byTier`, a video resolution's `byResolution`), else the row's `price`. */
export function unitPrice(pricing: Exclude<Pricing, { unit: 'token' }>, tier: string | undefined): number {
  const byTier = pricing.unit === 'image' ? pricing.byTier : pricing.unit === 'second' ? pricing.byResolution : undefined
  return (tier !== undefined ? byTier?.[tier] : undefined) ?? pricing.price
}

/**
 * The one pricing of a usage: its cost in nano-USD at a pricing row, never negative, never more than a safe integer.
 * Billing, stream checkpoints, image tasks, quotes and video reservations and settlements all price through it.
 */
export function priceUsage(pricing: Pricing, usage: PricedUsage): number {
  switch (pricing.unit) {
    case 'token': {
      const cachedRate = pricing.cachedInput ?? pricing.input
      return chargeNano(NANO_PER_MILLIONTH_USD * (figure(usage.inputTokens) * pricing.input + figure(usage.cachedInputTokens) * cachedRate + figure(usage.outputTokens) * pricing.output))
    }
    case 'character':
      return chargeNano(NANO_PER_MILLIONTH_USD * figure(usage.quantity) * pricing.price)
    case 'image': {
      // Per-tier prices apply to the tier the images were made at.
      const tier = (usage.raw as { tier?: string } | undefined)?.tier
      return chargeNano(NANO_PER_USD * figure(usage.quantity) * unitPrice(pricing, tier))
    }
    case 'second':
      // A video's tier is priced when it is submitted (its rate is stored with the task, tasks/video-pricing.ts).
      return chargeNano(NANO_PER_USD * figure(usage.quantity) * pricing.price)
  }
}
