import type { CatalogModel, PricedComponent, Pricing } from '../../../shared/types.js'
import { billableQuantity } from '../money/billed-usage.js'
import { nanoToUsd, usdToNano } from '../money/money.js'
import { priceBreakdown, priceUsage, unitPrice } from '../money/price-usage.js'
import type { QuotePrice } from '../billing/quote-price.js'
import { longestClip, shortestClip, type VideoOrder } from './video-request.js'

/** When the catalog names no duration at all, a reservation covers this many seconds. */
export const UNKNOWN_LONGEST_CLIP_SECONDS = 30

/**
 * A video's price, fixed at submission and stored with the task, so that a price change while it runs does not
 * change its bill. Models priced per second: `rateUsd` per second produced. Other units: a flat `flatNano` per video.
 */
export interface VideoPrice {
  /** USD per second at the requested tier (the catalog `price` when no tier was asked for) */
  rateUsd?: number
  flatNano?: number
  /** the longest clip the request can produce: the requested duration, else the model's longest */
  maxSeconds: number
  /** seconds billed when the vendor reports none: the requested duration, else the model's shortest clip */
  fallbackSeconds: number
  /** what is held while the task runs: its largest possible cost */
  reservedNano: number
}

/** The dearest rate the vendor's default tier could be billed at, for a request that names no tier. */
function dearestRate(pricing: Extract<Pricing, { unit: 'second' }>): number {
  return Math.max(pricing.price, ...Object.values(pricing.byResolution ?? {}))
}

/** What `seconds` of video cost at `rateUsd` per second. */
const secondsNano = (seconds: number, rateUsd: number): number => priceUsage({ unit: 'second', price: rateUsd }, { quantity: seconds })

/**
 * Reservation = the largest cost the request can reach: rate (by tier) × the longest clip. With no tier asked
 * for, the dearest tier is reserved (the vendor picks its default) and the catalog `price` is billed.
 */
export function videoPrice(model: CatalogModel, order: VideoOrder): VideoPrice {
  const requested = order.sub.duration
  const maxSeconds = requested ?? longestClip(model, order.resolution) ?? UNKNOWN_LONGEST_CLIP_SECONDS
  const fallbackSeconds = requested ?? Math.min(shortestClip(model) ?? maxSeconds, maxSeconds)
  if (model.pricing.unit !== 'second') {
    const flat = usdToNano('price' in model.pricing ? model.pricing.price : 0)
    return { flatNano: flat, maxSeconds, fallbackSeconds, reservedNano: flat }
  }
  const rateUsd = unitPrice(model.pricing, order.resolution)
  const reserveRate = order.resolution === undefined ? dearestRate(model.pricing) : rateUsd
  return { rateUsd, maxSeconds, fallbackSeconds, reservedNano: secondsNano(maxSeconds, reserveRate) }
}

/**
 * Seconds billed for a finished video: what the vendor reports (else the fallback), never more than the reservation
 * covers, so that the bill never exceeds the amount held (Kling reports 5.1 s for a 5 s clip).
 */
export function billedSeconds(price: VideoPrice, reported: number | undefined): number {
  // 0 s reported for a video that exists is no figure either: the fallback applies.
  return billableQuantity(reported === 0 ? undefined : reported, price.maxSeconds, price.fallbackSeconds)
}

/** The cost of a finished video, in nano-USD: priced like every usage, never more than the reservation. */
export function settlementNano(price: VideoPrice, seconds: number): number {
  if (price.rateUsd === undefined) return price.flatNano ?? 0
  return Math.min(secondsNano(seconds, price.rateUsd), price.reservedNano)
}

/** The priced breakdown of a settlement (the ledger's): seconds at the stored rate; none for a flat price. */
export function settlementBreakdown(price: VideoPrice, seconds: number): PricedComponent[] {
  return price.rateUsd === undefined ? [] : priceBreakdown({ unit: 'second', price: price.rateUsd }, { quantity: seconds })
}

/**
 * What a video costs: the settlement of the fewest and the most seconds it can be billed — equal when `duration` is
 * sent (the vendor's default length lies between the model's shortest and longest clip otherwise) — and what it holds.
 */
export function videoQuote(model: CatalogModel, order: VideoOrder): QuotePrice {
  const price = videoPrice(model, order)
  return {
    minNano: settlementNano(price, price.fallbackSeconds),
    maxNano: settlementNano(price, price.maxSeconds),
    basis: {
      seconds: { min: price.fallbackSeconds, max: price.maxSeconds },
      ...(order.resolution !== undefined ? { resolution: order.resolution } : {}),
      reserved: nanoToUsd(price.reservedNano),
    },
  }
}
