/** Money is kept in integer nano-USD so that sums never drift. */
export const NANO_PER_USD = 1_000_000_000

export const usdToNano = (usd: number): number => Math.round(usd * NANO_PER_USD)
export const nanoToUsd = (nano: number): number => nano / NANO_PER_USD

/** A charge in nano-USD: a non-negative safe integer; anything else is 0, so that no charge is ever a credit. */
export function chargeNano(n: number): number {
  const rounded = Math.round(n)
  return Number.isSafeInteger(rounded) && rounded > 0 ? rounded : 0
}
