/**
 * POST /v1/quote from the app: the request a panel would send, priced before it is sent. Pure: the body of a quote,
 * how its figures read, and whether sending needs the user's confirmation.
 */

/** The gateway's quote (shared/schemas/quote.ts `quoteObject`). */
export interface Quote {
  object: 'quote'
  currency: 'USD'
  min: number
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

/** One price when the call costs exactly that, else the range: "$0.20", "≈ $0.01–$0.12". */
export function formatQuote(quote: Pick<Quote, 'min' | 'max'>): string {
  const max = formatAmount(quote.max)
  const min = formatAmount(quote.min)
  return min === max ? max : `≈ ${min}–${max}`
}

/** Sending asks first when the user set an amount and the call may cost more than it. */
export function needsConfirmation(quote: Pick<Quote, 'max'> | undefined, confirmAbove: number | null): boolean {
  return confirmAbove !== null && quote !== undefined && quote.max > confirmAbove
}

/** The amount typed in Settings: empty means never ask; otherwise a non-negative number of USD, or undefined when invalid. */
export function parseConfirmAbove(text: string): number | null | undefined {
  const trimmed = text.trim()
  if (trimmed === '') return null
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return undefined
  return Number(trimmed)
}
