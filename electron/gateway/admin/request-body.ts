import type { CapturedExchange } from '../../../shared/admin.js'
import type { RequestContext } from '../context.js'
import { sendJson } from '../respond.js'
import type { Services } from '../services.js'
import type { RequestBodyRow } from '../store/request-bodies.js'
import { noContent, notFound, segment } from './admin-io.js'

/** A kept row as the admin API gives it: the request, the answer and its timings (stored beside the answer). */
export function exchangeOf(row: RequestBodyRow): CapturedExchange {
  const { timings, ...answer } = JSON.parse(row.answer) as CapturedExchange['answer'] & { timings: CapturedExchange['timings'] }
  return { requestId: row.request_id, createdAt: row.created_at, replayOf: row.replay_of, request: JSON.parse(row.request) as CapturedExchange['request'], answer, timings }
}

/** The kept bodies of a request, once those being stored are; 404 when none are kept. */
export async function keptExchange(services: Services, id: string): Promise<CapturedExchange | undefined> {
  await services.capture.flush()
  const row = await services.store.requestBodies.get(id)
  return row === undefined ? undefined : exchangeOf(row)
}

/** GET /admin/v1/requests/{id}/body: the request as the client sent it and the answer as delivered. */
export async function getRequestBody(ctx: RequestContext, services: Services, params: string[]): Promise<void> {
  const id = segment(params[0], 'request body')
  const exchange = await keptExchange(services, id)
  if (exchange === undefined) throw notFound('request body', id)
  sendJson(ctx.res, 200, exchange, { 'cache-control': 'no-store' })
}

/** DELETE /admin/v1/requests/{id}/body: forgets a request's kept bodies (its ledger row stays). */
export async function deleteRequestBody(ctx: RequestContext, services: Services, params: string[]): Promise<void> {
  const id = segment(params[0], 'request body')
  await services.capture.flush()
  if (!(await services.store.requestBodies.remove(id))) throw notFound('request body', id)
  noContent(ctx)
}
