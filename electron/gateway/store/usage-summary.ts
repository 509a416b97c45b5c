import { USAGE_LATENCY_SAMPLE } from '../../../shared/admin.js'
import { housekeepingFilter } from './request-log.js'
import type { Sql } from './sql.js'

/** A day to aggregate: [start, end) in ms. */
export interface DayRange {
  start: number
  end: number
}

export interface DayTotals {
  requests: number
  errors: number
  costNano: number
}

/** A series' (model's or group's; '' for none) spending per day. */
export interface SeriesTotals {
  id: string
  costNano: number[]
}

export interface KeyTotals {
  keyId: string | null
  name: string | null
  hint: string | null
  app: boolean
  requests: number
  costNano: number
}

/** Where a series' name comes from. */
const SERIES_COLUMN = { model: 'r.model', group: 'r.group_id' } as const

/** The p-th percentile (0–100) of ascending values by nearest rank: the smallest value with at least p% at or below it. */
export function nearestRank(sorted: readonly number[], p: number): number {
  // Integer arithmetic first: 90 * 10 / 100 is exactly 9, where 0.9 * 10 is not.
  return sorted[Math.max(0, Math.ceil((p * sorted.length) / 100) - 1)]
}

/**
 * The usage summary's aggregates, computed in SQL over the ledger's table: the days come in as a JSON list of
 * [start, end) ranges joined against `requests` on its created_at index. `@housekeeping` 0 leaves out the app's
 * housekeeping calls.
 *
 * Latency percentiles read at most USAGE_LATENCY_SAMPLE requests per day: all of a day's when it has no more, else
 * a deterministic sample (rows in a fixed pseudo-random order, see `sampleOrder`, the first USAGE_LATENCY_SAMPLE
 * kept), so the sorter holds a bounded number of rows however busy the day, and a refresh shows the same figures.
 */
export function usageSummaryRepo(sql: Sql) {
  // The one place the engines differ: how the JSON list of days becomes rows (i: its index, from 0), and the sample's
  // order. SQLite: json_each, and a multiplicative hash of the rowid. PostgreSQL: json_array_elements, and the md5
  // of the request id (rows have no rowid there; md5 is as stable and as well spread).
  const days = sql.dialect === 'sqlite'
    ? 'WITH days(i, start, stop) AS (SELECT key, value ->> 0, value ->> 1 FROM json_each(@days))'
    : `WITH days(i, start, stop) AS (SELECT ord - 1, CAST(value ->> 0 AS BIGINT), CAST(value ->> 1 AS BIGINT)
        FROM json_array_elements(CAST(@days AS JSON)) WITH ORDINALITY AS t(value, ord))`
  const sampleOrder = sql.dialect === 'sqlite' ? '(r.rowid * 40503) % 65536, r.rowid' : 'md5(r.id), r.id'
  const inDays = 'FROM days d JOIN requests r ON r.created_at >= d.start AND r.created_at < d.stop'
  const kept = housekeepingFilter('r')
  const perDay = `${days}
    SELECT d.i AS day, COUNT(*) AS requests, SUM(CASE WHEN r.status >= 400 THEN 1 ELSE 0 END) AS errors, SUM(r.cost_nano) AS cost_nano
    ${inDays} WHERE ${kept} GROUP BY d.i`
  const seriesPerDay = (column: string) => `${days}
    SELECT d.i AS day, COALESCE(${column}, '') AS series, SUM(r.cost_nano) AS cost_nano
    ${inDays} WHERE ${kept} AND r.cost_nano > 0 GROUP BY d.i, COALESCE(${column}, '')`
  // k.name and k.hint follow from r.key_id (k is joined on its id); PostgreSQL wants them named in the GROUP BY.
  const perKey = `${days}
    SELECT r.key_id AS key_id, k.name AS name, k.hint AS hint, MAX(CASE WHEN k.app_secret_enc IS NOT NULL THEN 1 ELSE 0 END) AS app,
      COUNT(*) AS requests, SUM(r.cost_nano) AS cost_nano
    ${inDays} LEFT JOIN api_keys k ON k.id = r.key_id WHERE ${kept}
    GROUP BY r.key_id, k.name, k.hint ORDER BY cost_nano DESC, requests DESC, r.key_id`
  const latencySample = `
    SELECT latency_ms FROM requests r WHERE r.created_at >= @start AND r.created_at < @stop AND ${kept}
    ORDER BY ${sampleOrder} LIMIT ${USAGE_LATENCY_SAMPLE}`

  const params = (ranges: DayRange[], housekeeping: boolean) => ({ days: JSON.stringify(ranges.map((d) => [d.start, d.end])), housekeeping: housekeeping ? 1 : 0 })

  return {
    /** Requests, errors and cost of each day (in the order given). */
    async days(ranges: DayRange[], housekeeping: boolean): Promise<DayTotals[]> {
      const totals = ranges.map(() => ({ requests: 0, errors: 0, costNano: 0 }))
      for (const row of await sql.all<{ day: number; requests: number; errors: number; cost_nano: number }>(perDay, params(ranges, housekeeping))) {
        totals[Number(row.day)] = { requests: Number(row.requests), errors: Number(row.errors), costNano: Number(row.cost_nano) }
      }
      return totals
    },
    /** Every model's (or group's) spending per day, biggest spender first (requests that cost nothing are left out). */
    async series(ranges: DayRange[], by: keyof typeof SERIES_COLUMN, housekeeping: boolean): Promise<SeriesTotals[]> {
      const series = new Map<string, SeriesTotals>()
      for (const row of await sql.all<{ day: number; series: string; cost_nano: number }>(seriesPerDay(SERIES_COLUMN[by]), params(ranges, housekeeping))) {
        let s = series.get(row.series)
        if (!s) series.set(row.series, (s = { id: row.series, costNano: ranges.map(() => 0) }))
        s.costNano[Number(row.day)] = Number(row.cost_nano)
      }
      const total = (s: SeriesTotals) => s.costNano.reduce((a, b) => a + b, 0)
      return [...series.values()].sort((a, b) => total(b) - total(a) || a.id.localeCompare(b.id))
    },
    /** Requests and spending per key over all the days, biggest spender first. */
    async keys(ranges: DayRange[], housekeeping: boolean): Promise<KeyTotals[]> {
      const rows = await sql.all<{ key_id: string | null; name: string | null; hint: string | null; app: number; requests: number; cost_nano: number }>(perKey, params(ranges, housekeeping))
      return rows.map((r) => ({ keyId: r.key_id, name: r.name, hint: r.hint, app: Number(r.app) === 1, requests: Number(r.requests), costNano: Number(r.cost_nano) }))
    },
    /** A day's latencies, ascending: all of them, or the sample described above. */
    async latencies(range: DayRange, housekeeping: boolean): Promise<number[]> {
      const rows = await sql.all<{ latency_ms: number }>(latencySample, { start: range.start, stop: range.end, housekeeping: housekeeping ? 1 : 0 })
      return rows.map((r) => Number(r.latency_ms)).sort((a, b) => a - b)
    },
  }
}
