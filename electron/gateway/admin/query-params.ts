import type { MessageParam } from '../../../shared/messages.js'
import { gatewayError } from '../errors.js'

/**
 * The admin API's query parameters, read strictly: every value is checked for its form and range here, so no value
 * reaches a store that one of them would refuse (PostgreSQL fails a statement for a number past BIGINT or a text
 * with U+0000, where SQLite does not: the answer must not depend on the store).
 */

export const badQuery = (name: string, problem: MessageParam) => gatewayError('invalid_request', 'invalid_query', { name, problem }, { param: name })

/** The latest time a JavaScript Date can hold, in ms since 1970 (the year 275760): well within BIGINT. */
export const MAX_TIME_MS = 8_640_000_000_000_000

/** A whole number written in decimal digits, from `min` to `max`; `fallback` when the parameter is absent. */
export function integerParam(q: URLSearchParams, name: string, min: number, max: number, fallback: number): number {
  const raw = q.get(name)
  if (raw === null) return fallback
  const value = /^\d+$/.test(raw) ? Number(raw) : NaN
  if (!(value >= min && value <= max)) throw badQuery(name, `must be an integer from ${min} to ${max}`)
  return value
}

/** A time as ms since 1970: a number of ms (0 to MAX_TIME_MS) or an ISO 8601 date. */
export function timeParam(q: URLSearchParams, name: string): number | undefined {
  const raw = q.get(name)
  if (raw === null || raw === '') return undefined
  const ms = /^\d+$/.test(raw) ? Number(raw) : Date.parse(raw)
  if (!Number.isFinite(ms)) throw badQuery(name, 'must be milliseconds since 1970 or an ISO 8601 date')
  if (ms > MAX_TIME_MS) {
    throw badQuery(name, { en: `must be at most ${MAX_TIME_MS} milliseconds since 1970`, zh: `不能超过 1970 年起的 ${MAX_TIME_MS} 毫秒` })
  }
  return ms
}

/** Text compared with stored ids; U+0000 is in none (PostgreSQL text cannot hold it). */
export function textParam(q: URLSearchParams, name: string): string | undefined {
  const raw = q.get(name) || undefined
  if (raw?.includes('\0')) throw badQuery(name, { en: 'must not contain the character U+0000', zh: '不能包含字符 U+0000' })
  return raw
}

/** `housekeeping=true|false` (default true): false leaves out the app's housekeeping calls (shared/admin.ts). */
export function housekeepingParam(q: URLSearchParams): boolean {
  const raw = q.get('housekeeping')
  if (raw === null || raw === '' || raw === 'true') return true
  if (raw === 'false') return false
  throw badQuery('housekeeping', 'must be true or false')
}
