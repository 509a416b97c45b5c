import type { RequestLogEntry } from '../../../shared/admin'
import type { PricedComponent } from '../../../shared/types'
import { formatUsd } from '../../format'
import type { BreakdownKey } from './breakdown-strings'

/** One line of the breakdown as shown: what it counts, how many, at what rate, for how much. */
export interface BreakdownLine {
  kind: BreakdownKey
  units: number
  rate: { key: BreakdownKey; price: string }
  cost: string
}

/** A list price as written: every decimal it has (a rate like $0.075 per 1M tokens is not rounded to cents). */
export const formatRate = (usd: number): string => `$${usd.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 9 })}`

/** The lines of a row's breakdown, in the gateway's order; none when the row has no breakdown. */
export function breakdownLines(r: Pick<RequestLogEntry, 'breakdown'>): BreakdownLine[] {
  return (r.breakdown ?? []).map((c: PricedComponent) => ({
    kind: `kind_${c.kind}`,
    units: c.units,
    rate: { key: `per_${c.per}`, price: formatRate(c.unitPrice) },
    cost: formatUsd(c.cost),
  }))
}

/** Whether a row has anything to show: a source or a breakdown with parts. */
export const hasBreakdown = (r: Pick<RequestLogEntry, 'breakdown' | 'usageSource'>): boolean =>
  r.usageSource !== null || (r.breakdown !== null && r.breakdown.length > 0)
