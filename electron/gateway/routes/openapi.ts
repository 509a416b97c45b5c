import { errorObject, messagesErrorObject } from '../../../shared/schemas/common.js'
import { nativeErrorObject } from '../../../shared/schemas/video.js'
import type { RequestContext } from '../context.js'
import { sendJson } from '../respond.js'
import type { Route, RouteDoc } from '../router.js'

export const API_VERSION = '2026-09-25'

const ERROR_STATUSES: Record<string, string> = {
  '400': 'Invalid parameters; or a missing, repeated or malformed Host header (`invalid_host_header`)',
  '401': 'Missing, invalid, disabled or expired key (`missing_api_key`, `invalid_api_key`, `api_key_expired`); an Authorization header with a bare key or a scheme other than Bearer is `missing_api_key`; different keys in Authorization and x-api-key, or a key header sent twice, is `invalid_api_key`. A key deleted or disabled while a request runs ends it with `api_key_revoked`, one that expires meanwhile with `api_key_expired` (a stream: in its error event)',
  '402': 'The request\'s worst case (the quote\'s `max`) does not fit what is left of the account\'s budget, the key\'s quota, or the budget of any upstream account that serves the model, less what requests under way hold (`insufficient_quota`; the message says what it could cost, what is left and the largest output cap that fits). Nothing was sent upstream; see README "Budgets and reservations"',
  '403': 'Host or browser origin not allowed',
  '404': 'Model not in the key\'s group (`model_not_found`), or path not in the group (`route_not_found`)',
  '408': 'The request body stalled or took too long to arrive (`request_timeout`; config timeouts.bodyIdleMs, timeouts.bodyMs)',
  '413': 'Body over 60 MB (`request_too_large`)',
  '429': 'Account or key concurrency cap (`user_concurrency_limit`, `apikey_concurrency_limit`), or the key\'s request bodies in flight over its byte budget (`apikey_body_limit`); honour Retry-After',
  '500': 'Internal error (`internal_error`); no stack trace is shown',
  '502': 'Model unavailable after failover',
  '503': 'Model overloaded on every account (`upstream_unavailable`, with Retry-After and Retry-After-Ms: the soonest delay an account named, else 2 s), or, in team mode, the shared database unreachable when the concurrency slot was taken (`shared_store_unavailable`), or the gateway already holding limits.bodyBytes of request bodies (`gateway_body_limit`, with Retry-After)',
  '504': 'Upstream timed out',
}

const ADMIN_STATUSES: Record<string, string> = {
  '400': 'Invalid body or query (the field is named in `param`); or a missing, repeated or malformed Host header (`invalid_host_header`)',
  '401': 'Not signed in, or the session ended (`admin_unauthorized`): send the admin token as Bearer, or the session cookie with the session token in `x-gatehouse-session`',
  '403': 'Host or browser origin not allowed',
  '404': 'No such item (`not_found`)',
  '409': 'Already exists, or still in use (`conflict`)',
  '408': 'The request body stalled or took too long to arrive (`request_timeout`; config timeouts.bodyIdleMs, timeouts.bodyMs)',
  '413': 'Body over 60 MB (`request_too_large`)',
  '500': 'Internal error (`internal_error`); no stack trace is shown',
  '503': 'The gateway already holds limits.bodyBytes of request bodies (`gateway_body_limit`); honour Retry-After',
}

const BODY_STATUSES = new Set(['408', '413'])
/** Admin requests with a body also count against the gateway's byte budget for bodies. */
const ADMIN_BODY_STATUSES = new Set([...BODY_STATUSES, '503'])
/** Every request passes the Host guard first: any operation may answer these (`invalid_host_header`, `host_not_allowed`, `origin_not_allowed`). */
const HOST_STATUSES = new Set(['400', '403'])

/** Each protocol's error envelope (respond.ts renders them): chat, messages, DashScope's native one. */
const ERROR_SCHEMAS: Partial<Record<Route['protocol'], string>> = { messages: 'MessagesError', dashscope: 'NativeError' }

/** `/v1/models/{model}` declares its `model` path parameter. */
const pathParameters = (path: string) =>
  [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } }))

function operation(route: Route) {
  const { doc } = route
  const errorSchema = { $ref: `#/components/schemas/${ERROR_SCHEMAS[route.protocol] ?? 'Error'}` }
  const ok: Record<string, unknown> = { [doc.responseContentType ?? 'application/json']: { schema: doc.response } }
  // Each SSE `data:` payload's schema rides in an extension: OpenAPI 3.1 has no keyword for it.
  if (doc.stream) ok['text/event-stream'] = { schema: { type: 'string', description: doc.stream.description }, 'x-sse-data': doc.stream.schema }
  const statuses = route.auth === 'admin' ? ADMIN_STATUSES : ERROR_STATUSES
  const errors = Object.fromEntries(
    Object.entries(statuses)
      .filter(([status]) => HOST_STATUSES.has(status) || (doc.errors ? doc.errors.includes(status) : route.auth !== 'none' || status === '500'))
      // Only a request with a body can be too large or too slow to arrive.
      .filter(([status]) => doc.request !== undefined || !(route.auth === 'admin' ? ADMIN_BODY_STATUSES : BODY_STATUSES).has(status))
      .concat(Object.entries(doc.moreErrors ?? {}))
      .map(([status, description]) => [status, { description, content: { 'application/json': { schema: errorSchema } } }]),
  )
  const others = Object.fromEntries(Object.entries(doc.responses ?? {}).map(([status, r]) =>
    [status, { description: r.description, ...(r.schema ? { content: { [r.contentType ?? 'application/json']: { schema: r.schema } } } : {}) }]))
  const parameters = [
    ...pathParameters(route.docPath ?? String(route.path)),
    ...(doc.query ?? []).map((q) => ({ name: q.name, in: 'query', required: q.required, description: q.description, schema: { type: 'string' } })),
  ]
  return {
    operationId: route.endpoint,
    tags: [doc.tag],
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    // Public documents accept a key but need none.
    ...(route.auth === 'none' ? { security: [{}, { bearerAuth: [] }] } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(doc.request ? { requestBody: { required: true, content: { [doc.request.contentType ?? 'application/json']: { schema: doc.request.schema } } } } : {}),
    responses: { ...success(doc.success, ok), ...others, ...errors },
  }
}

function success(status: RouteDoc['success'], content: object): Record<string, object> {
  if (status === '204') return { '204': { description: 'Done; no body' } }
  if (status === '303') return { '303': { description: 'Signed in: the session cookie is set; redirects to /#session=<session token>' } }
  return { [status ?? '200']: { description: status === '201' ? 'Created' : 'OK', content } }
}

/** OpenAPI 3.1 built from the route table and the same schemas that validate requests. */
export function buildOpenApi(routes: Route[]): object {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const route of routes) {
    const path = route.docPath ?? String(route.path)
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation(route) }
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Gatehouse gateway',
      version: API_VERSION,
      description: 'One local base URL for chat, image, video and speech models of many vendors. Errors carry a stable `code`; messages follow Accept-Language (English, or Chinese for zh). Every response has `x-request-id`; an answer that called upstream accounts has `x-gatehouse-attempts`, the count of upstream calls made for it (retries and failovers included; for a stream, the count when its headers went out).',
    },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'A gateway key (`sk-...`) as `Authorization: Bearer sk-...`; `x-api-key` is accepted too, except on /v1/usage. An Authorization header with a bare key or another scheme is refused (401 `missing_api_key`), never read as a key. On /admin/v1 paths: the admin token of this run (the desktop app hands it to its window), or instead the session cookie together with the session token in the `x-gatehouse-session` header (sessions end after 30 idle minutes or 12 hours).' } },
      schemas: { Error: errorObject, MessagesError: messagesErrorObject, NativeError: nativeErrorObject },
    },
  }
}

let cached: string | undefined

export async function openApiDocument(ctx: RequestContext, routes: Route[]): Promise<void> {
  cached ??= JSON.stringify(buildOpenApi(routes))
  sendJson(ctx.res, 200, cached)
}
