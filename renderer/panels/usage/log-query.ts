/** The usage panel's pure parts: log filters as the admin query, page totals, and the balance control's arithmetic. */
import type { RequestLogEntry } from '../../../shared/admin'

/** The filters as the form holds them ('' = any). Dates are `YYYY-MM-DD`, local, inclusive. */
export interface LogFilters {
  group: string
  key: string
  model: string
  endpoint: string
  status: '' | 'ok' | 'error'
  since: string
  until: string
}

export const EMPTY_FILTERS: LogFilters = { group: '', key: '', model: '', endpoint: '', status: '', since: '', until: '' }

export const PAGE_SIZE = 50

/** Milliseconds at the start (or end) of a local day, or undefined when the text is not a date. */
export function dayBound(date: string, end: boolean): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date)
  if (!m) return undefined
  const d = end ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 23, 59, 59, 999) : new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]))
  return Number.isNaN(d.getTime()) ? undefined : d.getTime()
}

/**
 * GET /admin/v1/requests query: only the filters set, dates as ms (whole days), the page cursor, and
 * `housekeeping=false` unless the app's own housekeeping calls are to be shown.
 */
export function logQuery(f: LogFilters, before: string | null, limit = PAGE_SIZE, housekeeping = true): Record<string, string | number | undefined> {
  const text = (v: string) => (v.trim() === '' ? undefined : v.trim())
  return {
    group: text(f.group), key: text(f.key), model: text(f.model), endpoint: text(f.endpoint), status: f.status || undefined,
    since: dayBound(f.since, false), until: dayBound(f.until, true), limit, before: before ?? undefined,
    housekeeping: housekeeping ? undefined : 'false',
  }
}

/** The request table's columns; the chooser shows or hides each. */
export const LOG_COLUMNS = ['time', 'group', 'key', 'model', 'endpoint', 'status', 'tokens', 'cost', 'latency'] as const
export type LogColumn = (typeof LOG_COLUMNS)[number]

/** Shown at first: what fits beside the sidebar at 1280 px, Cost and Latency included. */
export const DEFAULT_COLUMNS: readonly LogColumn[] = ['time', 'key', 'model', 'status', 'tokens', 'cost', 'latency']

/** A saved column choice as the table can use it: known columns in table order; the defaults for anything else. */
export function savedColumns(value: unknown): LogColumn[] {
  const saved = Array.isArray(value) ? LOG_COLUMNS.filter((c) => value.includes(c)) : []
  return saved.length === 0 ? [...DEFAULT_COLUMNS] : saved
}

/** The columns after toggling one, kept in table order; the last one cannot be hidden. */
export function toggleColumn(shown: readonly LogColumn[], column: LogColumn): LogColumn[] {
  const next = shown.includes(column) ? shown.filter((c) => c !== column) : [...shown, column]
  return next.length === 0 ? [...shown] : LOG_COLUMNS.filter((c) => next.includes(c))
}

export interface PageTotals {
  count: number
  errors: number
  inputTokens: number
  outputTokens: number
  cost: number
}

/** Totals of the rows shown. */
export function pageTotals(rows: RequestLogEntry[]): PageTotals {
  return rows.reduce<PageTotals>((t, r) => ({
    count: t.count + 1,
    errors: t.errors + (r.status >= 400 ? 1 : 0),
    inputTokens: t.inputTokens + (r.inputTokens ?? 0),
    outputTokens: t.outputTokens + (r.outputTokens ?? 0),
    cost: t.cost + r.cost,
  }), { count: 0, errors: 0, inputTokens: 0, outputTokens: 0, cost: 0 })
}

/** A typed USD amount, or undefined. */
export function parseAmount(text: string): number | undefined {
  if (text.trim() === '') return undefined
  const n = Number(text)
  return Number.isFinite(n) ? n : undefined
}

/** The balance to set: the current one plus the amount (add funds), or the amount itself (set). Cents kept exact. */
export function balanceAfter(current: number, mode: 'add' | 'set', amount: number): number {
  const next = mode === 'add' ? current + amount : amount
  return Math.round(next * 1e9) / 1e9
}
