/**
 * POST /v1/quote from the app: the request a panel would send, priced before it is sent. Pure: the body of a quote,
 * how its figures read, and whether sending needs the user's confirmation.
 */

/** The gateway's quote (shared/schemas/quote.ts `quoteObject`). */
export interface Quote {
  object: 'quote'
  currency: 'USD'
  min: number
  /** what a typical call costs (equal to max when the price is exact) */
  expected: number
  max: number
  basis: Record<string, unknown>
}

export interface QuoteBody {
  endpoint: string
  request: Record<string, unknown>
}

/** The quote of `request` as it would be sent to `endpoint` (its `stream` fields are kept: they are validated like the call's). */
export const quoteBody = (endpoint: string, request: Record<string, unknown>): QuoteBody => ({ endpoint, request })

/** USD with two decimals, more below a cent (two significant digits): $0.20, $0.0032, $0.00008. */
export function formatAmount(usd: number): string {
  if (!(usd > 0)) return '$0.00'
  if (usd >= 0.01) return `$${usd.toFixed(2)}`
  const decimals = Math.min(12, 1 - Math.floor(Math.log10(usd)))
  return `$${usd.toFixed(decimals).replace(/(\.\d\d\d*?)0+$/, '$1')}`
}

/**
 * How a quote reads: one price when the call costs exactly that (`exact`), else what it is expected to cost and the
 * most it can cost (`expected` is absent when it reads the same as `max`).
 */
export function quoteFigures(quote: Pick<Quote, 'min' | 'expected' | 'max'>): { exact: string } | { expected?: string; max: string } {
  const max = formatAmount(quote.max)
  const expected = formatAmount(quote.expected)
  if (formatAmount(quote.min) === max) return { exact: max }
  return expected === max ? { max } : { expected, max }
}

/**
 * Sending asks first when the user set an amount and the call is expected to cost more than it: a typical answer,
 * not the worst case (a short message to a model that could write 128k tokens is not asked about).
 */
export function needsConfirmation(quote: Pick<Quote, 'expected'> | undefined, confirmAbove: number | null): boolean {
  return confirmAbove !== null && quote !== undefined && quote.expected > confirmAbove
}

/** The amount typed in Settings: empty means never ask; otherwise a non-negative number of USD, or undefined when invalid. */
export function parseConfirmAbove(text: string): number | null | undefined {
  const trimmed = text.trim()
  if (trimmed === '') return null
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return undefined
  return Number(trimmed)
}
