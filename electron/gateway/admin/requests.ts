import type { RequestLogEntry, RequestLogPage, UpstreamAttempt } from '../../../shared/admin.js'
import { USAGE_SOURCES, type PricedComponent } from '../../../shared/types.js'
import type { RequestContext } from '../context.js'
import { nanoToUsd } from '../money/money.js'
import { sendJson } from '../respond.js'
import type { Services } from '../services.js'
import type { LoggedRequest, RequestLogFilter } from '../store/request-log.js'
import { queryOf } from './admin-io.js'
import { badQuery, housekeepingParam, integerParam, MAX_TIME_MS, textParam, timeParam } from './query-params.js'

const MAX_LIMIT = 500

/** `ok`, `error`, or one status code (RFC 9110 §15: 100 to 599). */
function statusParam(q: URLSearchParams): RequestLogFilter['status'] {
  const raw = textParam(q, 'status')
  if (raw === undefined || raw === 'ok' || raw === 'error') return raw
  if (!/^\d{3}$/.test(raw)) throw badQuery('status', 'must be ok, error or an HTTP status code')
  const status = Number(raw)
  if (status < 100 || status > 599) throw badQuery('status', { en: 'must be an HTTP status code from 100 to 599', zh: '必须是 100 到 599 之间的 HTTP 状态码' })
  return status
}

/** The `next` of a previous page: `created_at:id`, its time within MAX_TIME_MS. */
function cursorParam(q: URLSearchParams): RequestLogFilter['before'] {
  const raw = textParam(q, 'before')
  if (raw === undefined) return undefined
  const cursor = /^(\d+):(.+)$/.exec(raw)
  if (!cursor || Number(cursor[1]) > MAX_TIME_MS) throw badQuery('before', 'must be the `next` value of a previous page')
  return { createdAt: Number(cursor[1]), id: cursor[2] }
}

/** The query string as a log filter; 400 naming the parameter for anything malformed or out of range. */
export function parseLogQuery(q: URLSearchParams): RequestLogFilter {
  return {
    id: textParam(q, 'id'), group: textParam(q, 'group'), key: textParam(q, 'key'), model: textParam(q, 'model'), endpoint: textParam(q, 'endpoint'),
    status: statusParam(q),
    since: timeParam(q, 'since'), until: timeParam(q, 'until'),
    before: cursorParam(q),
    limit: integerParam(q, 'limit', 1, MAX_LIMIT, 100),
    housekeeping: housekeepingParam(q),
  }
}

export const toEntry = (r: LoggedRequest): RequestLogEntry => ({
  id: r.id, createdAt: r.created_at, keyId: r.key_id, group: r.group_id, model: r.model, endpoint: r.endpoint, status: r.status,
  errorCode: r.error_code, upstream: r.upstream_id, inputTokens: r.input_tokens, outputTokens: r.output_tokens,
  cost: nanoToUsd(r.cost_nano), latencyMs: r.latency_ms, attempts: jsonArray<UpstreamAttempt>(r.attempts),
  usageSource: USAGE_SOURCES.find((source) => source === r.usage_source) ?? null, breakdown: jsonArray<PricedComponent>(r.breakdown),
  ...(r.replay_of ? { replayOf: r.replay_of } : {}),
})

/**
 * A JSON array column (attempts: billing.ts attemptsJson; breakdown: billing.ts usageRecord); null when none was
 * recorded or it cannot be read.
 */
function jsonArray<T>(column: string | null | undefined): T[] | null {
  if (column === null || column === undefined) return null
  try {
    const parsed: unknown = JSON.parse(column)
    return Array.isArray(parsed) ? (parsed as T[]) : null
  } catch {
    return null
  }
}

/** GET /admin/v1/requests: the request log, newest first, filtered, in pages. */
export async function listRequests(ctx: RequestContext, services: Services): Promise<void> {
  const filter = parseLogQuery(queryOf(ctx))
  await services.store.ledger.flush()
  const rows = await services.store.requestLog.page(filter)
  const last = rows.at(-1)
  const page: RequestLogPage = { data: rows.map(toEntry), next: rows.length === filter.limit && last ? `${last.created_at}:${last.id}` : null }
  sendJson(ctx.res, 200, page)
}
