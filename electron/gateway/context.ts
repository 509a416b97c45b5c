import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { languageOf, type Lang } from '../../shared/messages.js'
import type { CatalogModel } from '../../shared/types.js'
import type { Protocol } from './errors.js'
import type { ApiKey, Group } from './registry.js'
import type { TokenUsage } from './upstreams/types.js'

/** Everything one request carries through the pipeline, and what its ledger row will say. */
export interface RequestContext {
  id: string
  req: IncomingMessage
  res: ServerResponse
  url: URL
  lang: Lang
  protocol: Protocol
  startedAt: number
  /** aborted when the client goes away before the response is complete */
  abort: AbortController
  key?: ApiKey
  group?: Group
  model?: CatalogModel
  /** filled by the handler for the ledger */
  outcome: {
    upstreamId?: string
    usage?: TokenUsage
    costNano: number
    errorCode?: string
    /** overrides the HTTP status in the ledger (a stream that failed after its 200) */
    status?: number
  }
}

export function createContext(req: IncomingMessage, res: ServerResponse, protocol: Protocol): RequestContext {
  return {
    id: `req_${randomUUID().replace(/-/g, '')}`,
    req,
    res,
    url: new URL(req.url ?? '/', 'http://gateway'),
    lang: languageOf(req.headers['accept-language']),
    protocol,
    startedAt: performance.now(),
    abort: new AbortController(),
    outcome: { costNano: 0 },
  }
}
