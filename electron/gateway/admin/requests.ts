import type { RequestLogEntry, RequestLogPage } from '../../../shared/admin.js'
import type { RequestContext } from '../context.js'
import { gatewayError } from '../errors.js'
import { nanoToUsd } from '../money.js'
import { sendJson } from '../respond.js'
import type { Services } from '../services.js'
import type { LedgerEntry } from '../store/ledger.js'
import type { RequestLogFilter } from '../store/request-log.js'
import { queryOf } from './admin-io.js'

const MAX_LIMIT = 500

export const badQuery = (name: string, problem: string) => gatewayError('invalid_request', 'invalid_query', { name, problem }, { param: name })

/** A time as ms since the epoch: a number (ms) or an ISO 8601 date. */
function timeParam(q: URLSearchParams, name: string): number | undefined {
  const raw = q.get(name)
  if (raw === null || raw === '') return undefined
  const ms = /^\d+$/.test(raw) ? Number(raw) : Date.parse(raw)
  if (!Number.isFinite(ms)) throw badQuery(name, 'must be milliseconds since 1970 or an ISO 8601 date')
  return ms
}

/** `housekeeping=true|false` (default true): false leaves out the app's housekeeping calls (shared/admin.ts). */
export function housekeepingParam(q: URLSearchParams): boolean {
  const raw = q.get('housekeeping')
  if (raw === null || raw === '' || raw === 'true') return true
  if (raw === 'false') return false
  throw badQuery('housekeeping', 'must be true or false')
}

/** The query string as a log filter; 400 naming the parameter for anything malformed. */
export function parseLogQuery(q: URLSearchParams): RequestLogFilter {
  const text = (name: string) => q.get(name) || undefined
  const limitRaw = q.get('limit')
  const limit = limitRaw === null ? 100 : Number(limitRaw)
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw badQuery('limit', `must be an integer from 1 to ${MAX_LIMIT}`)
  const statusRaw = text('status')
  let status: RequestLogFilter['status']
  if (statusRaw === 'ok' || statusRaw === 'error') status = statusRaw
  else if (statusRaw !== undefined) {
    if (!/^\d{3}$/.test(statusRaw)) throw badQuery('status', 'must be ok, error or an HTTP status code')
    status = Number(statusRaw)
  }
  const beforeRaw = text('before')
  const cursor = beforeRaw === undefined ? undefined : /^(\d+):(.+)$/.exec(beforeRaw)
  if (beforeRaw !== undefined && !cursor) throw badQuery('before', 'must be the `next` value of a previous page')
  return {
    id: text('id'), group: text('group'), key: text('key'), model: text('model'), endpoint: text('endpoint'), status,
    since: timeParam(q, 'since'), until: timeParam(q, 'until'),
    before: cursor ? { createdAt: Number(cursor[1]), id: cursor[2] } : undefined,
    limit,
    housekeeping: housekeepingParam(q),
  }
}

const toEntry = (r: LedgerEntry): RequestLogEntry => ({
  id: r.id, createdAt: r.created_at, keyId: r.key_id, group: r.group_id, model: r.model, endpoint: r.endpoint, status: r.status,
  errorCode: r.error_code, upstream: r.upstream_id, inputTokens: r.input_tokens, outputTokens: r.output_tokens,
  cost: nanoToUsd(r.cost_nano), latencyMs: r.latency_ms,
})

/** GET /admin/v1/requests: the request log, newest first, filtered, in pages. */
export async function listRequests(ctx: RequestContext, services: Services): Promise<void> {
  const filter = parseLogQuery(queryOf(ctx))
  await services.store.ledger.flush()
  const rows = await services.store.requestLog.page(filter)
  const last = rows.at(-1)
  const page: RequestLogPage = { data: rows.map(toEntry), next: rows.length === filter.limit && last ? `${last.created_at}:${last.id}` : null }
  sendJson(ctx.res, 200, page)
}
