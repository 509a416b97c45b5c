/**
 * The usage charts' data, shaped from GET /admin/v1/usage/summary (pure). The gateway buckets by local day and
 * computes the percentiles in SQL; here the days become the query, the series become stacked layers, and the
 * counts become rates and shares.
 */
import type { UsageBy, UsageDay, UsageKeySpend, UsageSummary } from '../../../shared/admin'

/** The ranges offered, in days (the gateway takes at most 92). */
export const RANGES = [7, 30, 90] as const
export type RangeDays = (typeof RANGES)[number]

/** A local date, `YYYY-MM-DD`. */
export function localDate(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`
}

/** The summary query for the last `days` local days, today included, in the browser's time zone. */
export function summaryQuery(days: RangeDays, by: UsageBy, housekeeping: boolean, now: Date, timeZone: string): Record<string, string> {
  const first = new Date(now.getFullYear(), now.getMonth(), now.getDate() - (days - 1))
  return { since: localDate(first), until: localDate(now), tz: timeZone, by, housekeeping: String(housekeeping) }
}

/** One layer of the spending stack: a series' own cost per day, and the stack's height at its top. */
export interface SpendLayer {
  /** the model or group; null: requests without one */
  id: string | null
  /** the summed rest of the series (`count` of them) */
  other?: { count: number }
  cost: number[]
  top: number[]
}

/** The series as stacked layers, bottom first: the biggest spender at the bottom, the summed rest on top. */
export function stackSpend(summary: Pick<UsageSummary, 'series' | 'other'>): SpendLayer[] {
  const layers: Array<Omit<SpendLayer, 'top'>> = summary.series.map((s) => ({ id: s.id, cost: s.cost }))
  if (summary.other) layers.push({ id: null, other: { count: summary.other.count }, cost: summary.other.cost })
  let below: number[] | undefined
  return layers.map((layer) => {
    const top = layer.cost.map((c, i) => c + (below?.[i] ?? 0))
    below = top
    return { ...layer, top }
  })
}

/** Errors as a percentage of the day's requests; null on a day without requests. */
export const errorRates = (days: UsageDay[]): Array<number | null> =>
  days.map((d) => (d.requests === 0 ? null : (100 * d.errors) / d.requests))

/** The percentile lines, ms per day (null: no requests that day). */
export function latencyLines(days: UsageDay[]): Record<'p50' | 'p90' | 'p99', Array<number | null>> {
  const line = (p: 'p50' | 'p90' | 'p99') => days.map((d) => d.latency?.[p] ?? null)
  return { p50: line('p50'), p90: line('p90'), p99: line('p99') }
}

/** The smallest latency the log axis shows: a 0 ms figure is drawn at this floor (a log axis has no zero). */
export const LATENCY_FLOOR_MS = 0.1

/** A latency line as the log axis draws it: gaps stay gaps, figures below the floor sit on it. */
export const onLogAxis = (line: Array<number | null>): Array<number | null> => line.map((v) => (v === null ? null : Math.max(v, LATENCY_FLOOR_MS)))

/**
 * A tick label of the latency axis (log 10): whole labels at each power of ten (`10 ms`, `1 s`, `100 s`, `1 min`),
 * none between them (nor for the ticks uPlot filtered out), so that no label is wider than the axis.
 */
export function latencyTick(ms: number | null): string {
  // uPlot hands a log axis's filtered ticks over as null.
  if (ms === null || !(ms > 0)) return ''
  const decade = Math.log10(ms)
  if (Math.abs(decade - Math.round(decade)) > 1e-9) return ''
  if (ms < 1) return `${Number(ms.toPrecision(1))} ms`
  if (ms < 1000) return `${Math.round(ms)} ms`
  if (ms < 100_000) return `${Math.round(ms / 1000)} s`
  return `${Number((ms / 60_000).toPrecision(2))} min`
}

/** Chart x values: uPlot's time axis counts seconds. */
export const daySeconds = (days: UsageDay[]): number[] => days.map((d) => d.start / 1000)

/** Bar heights: a day without any draws no bar (null), not a flat line. */
export const barsOf = (values: number[]): Array<number | null> => values.map((v) => (v === 0 ? null : v))

/** The x range of day bars: half a day beyond the first and the last, so neither bar is cut in half. */
export const dayRange = (min: number, max: number): [number, number] => [min - 43_200, max + 43_200]

/** A money tick of an axis stepping by `step` USD: two decimals, more when the step is finer ($0.005). */
export function usdTick(value: number, step: number): string {
  const decimals = Math.min(9, Math.max(2, Math.ceil(-Math.log10(step) - 1e-9)))
  return `$${value.toFixed(decimals)}`
}

export interface KeyShare {
  key: UsageKeySpend | { other: number }
  requests: number
  cost: number
  /** of the range's spending, 0..1 (0 when nothing was spent) */
  share: number
}

/** Spending per key, biggest first, then the summed rest, each with its share of the whole. */
export function keyShares(summary: Pick<UsageSummary, 'keys' | 'otherKeys'>): KeyShare[] {
  const rows: KeyShare[] = summary.keys.map((k) => ({ key: k, requests: k.requests, cost: k.cost, share: 0 }))
  if (summary.otherKeys) rows.push({ key: { other: summary.otherKeys.count }, requests: summary.otherKeys.requests, cost: summary.otherKeys.cost, share: 0 })
  const total = rows.reduce((sum, r) => sum + r.cost, 0)
  return rows.map((r) => ({ ...r, share: total > 0 ? r.cost / total : 0 }))
}

/** The range's totals. */
export function rangeTotals(days: UsageDay[]): { requests: number; errors: number; cost: number } {
  return days.reduce((t, d) => ({ requests: t.requests + d.requests, errors: t.errors + d.errors, cost: t.cost + d.cost }), { requests: 0, errors: 0, cost: 0 })
}
