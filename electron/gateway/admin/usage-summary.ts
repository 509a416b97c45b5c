import { USAGE_BY, USAGE_MAX_DAYS, USAGE_MAX_KEYS, USAGE_MAX_SERIES, type UsageBy, type UsageSummary } from '../../../shared/admin.js'
import type { RequestContext } from '../context.js'
import { nanoToUsd } from '../money/money.js'
import { sendJson } from '../respond.js'
import type { Services } from '../services.js'
import { nearestRank } from '../store/usage-summary.js'
import { queryOf } from './admin-io.js'
import { badQuery, housekeepingParam } from './query-params.js'
import { addDays, daysBetween, isTimeZone, localDays, parseDate, todayIn } from './local-days.js'

/** Without since/until: the last 30 days, today included. */
const DEFAULT_DAYS = 30
/** No request is older than 1970; four-digit years end with 9999. */
const FIRST_DATE = '1970-01-01'
const LAST_DATE = '9999-12-31'

export interface SummaryQuery {
  since: string
  until: string
  timeZone: string
  by: UsageBy
  housekeeping: boolean
}

/** The query string as a summary query; 400 naming the parameter for anything malformed or over the bounds. */
export function parseSummaryQuery(q: URLSearchParams, now: number): SummaryQuery {
  const timeZone = q.get('tz') || Intl.DateTimeFormat().resolvedOptions().timeZone
  if (!isTimeZone(timeZone)) throw badQuery('tz', 'must be an IANA time zone such as Europe/Berlin')
  const date = (name: string): string | undefined => {
    const raw = q.get(name)
    if (raw === null || raw === '') return undefined
    if (!/^\d{4}-\d{2}-\d{2}$/.test(raw)) throw badQuery(name, 'must be a date, YYYY-MM-DD')
    if (raw < FIRST_DATE || raw > LAST_DATE) throw badQuery(name, { en: `must be a date from ${FIRST_DATE} to ${LAST_DATE}`, zh: `必须是 ${FIRST_DATE} 到 ${LAST_DATE} 之间的日期` })
    if (parseDate(raw) === undefined) throw badQuery(name, 'must be a date, YYYY-MM-DD')
    return raw
  }
  const until = date('until') ?? todayIn(timeZone, now)
  const since = date('since') ?? addDays(until, 1 - DEFAULT_DAYS)
  const span = daysBetween(since, until) + 1
  if (span < 1) throw badQuery('since', 'must not be after until')
  if (span > USAGE_MAX_DAYS) throw badQuery('since', `at most ${USAGE_MAX_DAYS} days from since to until`)
  const by = q.get('by') || 'model'
  if (!(USAGE_BY as readonly string[]).includes(by)) throw badQuery('by', 'must be model or group')
  return { since, until, timeZone, by: by as UsageBy, housekeeping: housekeepingParam(q) }
}

const sumNano = (values: number[]) => values.reduce((a, b) => a + b, 0)

/**
 * GET /admin/v1/usage/summary: per local day of the caller's time zone, requests, errors, cost and latency
 * percentiles; spending per model (or group) per day; spending per key. Aggregated in SQL (store/usage-summary.ts),
 * bounded to USAGE_MAX_DAYS days, USAGE_MAX_SERIES series and USAGE_MAX_KEYS keys (the rest summed).
 */
export async function usageSummary(ctx: RequestContext, services: Services): Promise<void> {
  const query = parseSummaryQuery(queryOf(ctx), Date.now())
  await services.store.ledger.flush()
  const repo = services.store.usageSummary
  const days = localDays(query.since, query.until, query.timeZone)
  const [totals, series, keys] = await Promise.all([
    repo.days(days, query.housekeeping), repo.series(days, query.by, query.housekeeping), repo.keys(days, query.housekeeping),
  ])
  const latencies = await Promise.all(days.map((d, i) => (totals[i].requests > 0 ? repo.latencies(d, query.housekeeping) : [])))
  const rest = series.slice(USAGE_MAX_SERIES)
  const restKeys = keys.slice(USAGE_MAX_KEYS)
  const summary: UsageSummary = {
    ...query,
    days: days.map((d, i) => ({
      date: d.date, start: d.start, requests: totals[i].requests, errors: totals[i].errors, cost: nanoToUsd(totals[i].costNano),
      latency: latencies[i].length === 0 ? null : { p50: nearestRank(latencies[i], 50), p90: nearestRank(latencies[i], 90), p99: nearestRank(latencies[i], 99), sampled: latencies[i].length },
    })),
    series: series.slice(0, USAGE_MAX_SERIES).map((s) => ({ id: s.id === '' ? null : s.id, cost: s.costNano.map(nanoToUsd) })),
    other: rest.length === 0 ? null : { count: rest.length, cost: days.map((_, i) => nanoToUsd(sumNano(rest.map((s) => s.costNano[i])))) },
    keys: keys.slice(0, USAGE_MAX_KEYS).map((k) => ({ keyId: k.keyId, name: k.name, hint: k.hint, app: k.app, requests: k.requests, cost: nanoToUsd(k.costNano) })),
    otherKeys: restKeys.length === 0 ? null : {
      count: restKeys.length, requests: restKeys.reduce((a, k) => a + k.requests, 0), cost: nanoToUsd(sumNano(restKeys.map((k) => k.costNano))),
    },
  }
  sendJson(ctx.res, 200, summary)
}
