import type { PricedComponent, Pricing, UsageComponentKind } from '../../../shared/types.js'
import type { TokenUsage } from '../contract/upstream.js'
import { chargeNano, NANO_PER_USD, nanoToUsd } from './money.js'

/**
 * What a price applies to: a usage as billed (billed-usage.ts), or the part of one a quote or a video reservation
 * knows (a prompt's tokens, seconds). An image's tier rides in `raw.tier`, where the ledger keeps it.
 */
export type PricedUsage = Partial<Pick<TokenUsage,
  'inputTokens' | 'cachedInputTokens' | 'cacheWrite5mTokens' | 'cacheWrite1hTokens' | 'imageInputTokens' | 'outputTokens' | 'reasoningTokens' | 'quantity' | 'raw'>>

/** USD per 1M tokens is 1000 nano-USD per token; per 1M characters, 1000 nano-USD per character. */
const NANO_PER_MILLIONTH_USD = 1000

/** A figure of usage as priced: anything but a finite positive number counts as 0 (usage is checked before, billed-usage.ts). */
const figure = (n: number | undefined): number => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : 0)

/** USD per unit at a tier (an image tier's `byTier`, a video resolution's `byResolution`), else the row's `price`. */
export function unitPrice(pricing: Exclude<Pricing, { unit: 'token' }>, tier: string | undefined): number {
  const byTier = pricing.unit === 'image' ? pricing.byTier : pricing.unit === 'second' ? pricing.byResolution : undefined
  return (tier !== undefined ? byTier?.[tier] : undefined) ?? pricing.price
}

/** One part of a usage at its rate: USD per `per` unit, and its cost in nano-USD before rounding. */
interface Part {
  kind: UsageComponentKind
  units: number
  unitPrice: number
  per: PricedComponent['per']
  nano: number
}

const tokenPart = (kind: UsageComponentKind, units: number, unitPrice: number): Part => ({ kind, units, unitPrice, per: '1M tokens', nano: NANO_PER_MILLIONTH_USD * units * unitPrice })

/**
 * A usage's parts, each at its own rate (docs/vendor-usage.md): token input (text, image), cache reads, 5-minute and
 * 1-hour cache writes, output and the reasoning inside it; or the images, seconds or characters of the other units.
 * A rate the row does not give is the input rate (cache reads and writes, image input).
 */
function parts(pricing: Pricing, usage: PricedUsage): Part[] {
  switch (pricing.unit) {
    case 'token': {
      const input = figure(usage.inputTokens)
      const image = Math.min(figure(usage.imageInputTokens), input)
      const output = figure(usage.outputTokens)
      const reasoning = Math.min(figure(usage.reasoningTokens), output)
      return [
        tokenPart('input', input - image, pricing.input),
        tokenPart('image_input', image, pricing.imageInput ?? pricing.input),
        tokenPart('cached_input', figure(usage.cachedInputTokens), pricing.cachedInput ?? pricing.input),
        tokenPart('cache_write_5m', figure(usage.cacheWrite5mTokens), pricing.cacheWrite5m ?? pricing.input),
        tokenPart('cache_write_1h', figure(usage.cacheWrite1hTokens), pricing.cacheWrite1h ?? pricing.input),
        tokenPart('output', output - reasoning, pricing.output),
        tokenPart('reasoning', reasoning, pricing.output),
      ]
    }
    case 'character':
      return [{ kind: 'characters', units: figure(usage.quantity), unitPrice: pricing.price, per: '1M characters', nano: NANO_PER_MILLIONTH_USD * figure(usage.quantity) * pricing.price }]
    case 'image': {
      // Per-tier prices apply to the tier the images were made at.
      const price = unitPrice(pricing, (usage.raw as { tier?: string } | undefined)?.tier)
      return [{ kind: 'images', units: figure(usage.quantity), unitPrice: price, per: 'image', nano: NANO_PER_USD * figure(usage.quantity) * price }]
    }
    case 'second':
      // A video's tier is priced when it is submitted (its rate is stored with the task, tasks/video-pricing.ts).
      return [{ kind: 'seconds', units: figure(usage.quantity), unitPrice: pricing.price, per: 'second', nano: NANO_PER_USD * figure(usage.quantity) * pricing.price }]
  }
}

/**
 * The one pricing of a usage: its cost in nano-USD at a pricing row, never negative, never more than a safe integer.
 * Billing, stream checkpoints, image tasks, quotes and video reservations and settlements all price through it.
 */
export function priceUsage(pricing: Pricing, usage: PricedUsage): number {
  if (pricing.unit !== 'token') return chargeNano(parts(pricing, usage)[0]!.nano)
  // Summed in USD per 1M and scaled once; output and reasoning share a rate, so they are priced as one.
  let perMillion = 0
  for (const part of parts(pricing, usage)) if (part.kind !== 'output' && part.kind !== 'reasoning') perMillion += part.units * part.unitPrice
  perMillion += figure(usage.outputTokens) * pricing.output
  return chargeNano(NANO_PER_MILLIONTH_USD * perMillion)
}

/** The priced breakdown of a usage, as the ledger keeps it: each part with units (none of zero), rate and cost. */
export function priceBreakdown(pricing: Pricing, usage: PricedUsage): PricedComponent[] {
  return parts(pricing, usage)
    .filter((part) => part.units > 0)
    .map(({ kind, units, unitPrice, per, nano }) => ({ kind, units, unitPrice, per, cost: nanoToUsd(chargeNano(nano)) }))
}
