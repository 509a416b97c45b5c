import type { GroupProtocol } from '../../shared/types.js'
import type { RequestContext } from './context.js'
import type { Protocol } from './errors.js'
import type { Services } from './services.js'

/** How an operation is described in /openapi.json. */
export interface RouteDoc {
  summary: string
  description?: string
  tag: string
  request?: { schema: object; contentType?: string }
  /** JSON answer schema; `stream` adds a text/event-stream alternative */
  response: object
  /** the answer's media type when it is not JSON */
  responseContentType?: string
  stream?: { schema: object; description: string }
  query?: Array<{ name: string; required: boolean; description: string }>
  /** the success status when it is not 200 (201 created, 204 no content, 303 redirect) */
  success?: '201' | '204' | '303'
  /** the error statuses that apply, when not the public API's list */
  errors?: string[]
  /** error statuses of this route besides the list that applies (status → cause), in the route's error shape */
  moreErrors?: Record<string, string>
  /** other answers: more success statuses (202 accepted, 206 partial content) or HTML error pages */
  responses?: Record<string, { description: string; schema?: object; contentType?: string }>
}

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  /** an exact path, or a pattern whose groups become `params` */
  path: string | RegExp
  /** the path as documented (`/v1/models/{model}`) */
  docPath?: string
  /** the ledger's endpoint name */
  endpoint: string
  /** error shape */
  protocol: Protocol
  /** `key`: Bearer or x-api-key; `bearer`: Bearer only; `admin`: the app's session or admin token; `none`: public */
  auth: 'key' | 'bearer' | 'admin' | 'none'
  /** admin routes only: a session may also prove itself with its media token in the query (for `<img>`/`<video>`) */
  mediaToken?: boolean
  /** the group protocol the path belongs to; undefined: every group */
  groupProtocol?: GroupProtocol
  /** counts against the concurrency caps (spec §8) */
  concurrency: boolean
  /** writes a ledger row */
  ledger: boolean
  /** the handler reads the request body as a stream; otherwise the server reads it whole first (POST, PUT, PATCH) */
  streamsBody?: boolean
  handle(ctx: RequestContext, services: Services, params: string[]): Promise<void>
  doc: RouteDoc
}

export type Match = { route: Route; params: string[] } | { route: undefined; allowed: string[] }

/** Exact paths through a map, patterns in order: a lookup costs one Map.get on the hot paths. */
export function createRouter(routes: Route[]) {
  const exact = new Map<string, Route[]>()
  const patterns = routes.filter((r) => r.path instanceof RegExp)
  for (const r of routes) if (typeof r.path === 'string') exact.set(r.path, [...(exact.get(r.path) ?? []), r])
  return (method: string, path: string): Match => {
    let candidates = exact.get(path)
    let params: string[] = []
    if (!candidates) {
      for (const r of patterns) {
        const m = (r.path as RegExp).exec(path)
        if (m) {
          candidates = patterns.filter((p) => String(p.path) === String(r.path))
          params = m.slice(1)
          break
        }
      }
    }
    const route = candidates?.find((r) => r.method === method || (method === 'HEAD' && r.method === 'GET'))
    return route ? { route, params } : { route: undefined, allowed: candidates?.map((r) => r.method) ?? [] }
  }
}
