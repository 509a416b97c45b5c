import { randomBytes } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { languageOf, type Lang } from '../../shared/messages.js'
import type { UpstreamAttempt } from '../../shared/admin.js'
import type { CatalogModel } from '../../shared/types.js'
import { ClientAbort } from './client/client-abort.js'
import type { ClientTimeouts } from './client/client-timeouts.js'
import type { GatewayError, Protocol } from './errors.js'
import type { ApiKey, Group, UpstreamAccount } from './contract/accounts.js'
import type { TokenUsage } from './contract/upstream.js'
import type { DeferredSlot } from './limits.js'

/**
 * What admission holds for a request's worst case (billing/holds.ts): kept out of the budgets until the request's
 * ledger row settles it.
 */
export interface RequestHold {
  /** the hold's row: the request's id, or the id of the task that took the request over */
  id: string
  amountNano: number
  /** Moves the hold onto the upstream account about to be tried; the 402 when that account's budget cannot hold it. */
  onUpstream(upstream: UpstreamAccount): Promise<GatewayError | undefined>
}

/** What a replay (admin/replay.ts) asks of the request it sends: the request it replays, the account to use (none: any). */
export interface ReplayPin {
  of: string
  upstream?: string
}

/** Everything one request carries through the pipeline, and what its ledger row will say. */
export interface RequestContext {
  id: string
  req: IncomingMessage
  res: ServerResponse
  /** the request path without its query */
  path: string
  lang: Lang
  protocol: Protocol
  /** removes secrets from text that leaves the gateway (the gateway's redactor) */
  redact: (text: string) => string
  startedAt: number
  /** the request body, read whole by the server before the handler runs (empty for bodiless methods and streamed uploads) */
  body: Buffer
  /** the body already parsed, which `readJson` answers instead of parsing `body` (a quote's inner request) */
  json?: Record<string, unknown>
  timeouts: ClientTimeouts
  /** raised when the client goes away before the response is complete */
  abort: ClientAbort
  key?: ApiKey
  group?: Group
  /** the concurrency slot's release; a handler that hands its work to a background task takes it (and clears it) */
  release?: () => void
  /** team mode: the concurrency slot, taken by admission (admission.ts takeSlot), with the hold when there is one */
  slot?: DeferredSlot
  model?: CatalogModel
  /** the model the client named (its ledger row names it when it is unknown, retired or refused before `model` is set) */
  requestedModel?: string
  /** the worst case held for the request (billing/holds.ts); its ledger row settles it */
  hold?: RequestHold
  /** the route's ledger endpoint name */
  endpoint?: string
  /** a replay of a logged request (access/replay-tickets.ts): admission uses only its pinned account */
  replay?: ReplayPin
  /** filled by the handler for the ledger */
  outcome: {
    upstreamId?: string
    usage?: TokenUsage
    costNano: number
    errorCode?: string
    /** overrides the HTTP status in the ledger (a stream that failed after its 200) */
    status?: number
    /** the whole answer went out (a stream's protocol end was written): a client that leaves after it is no 499 */
    delivered?: boolean
    /** the failover loop's tries of upstream accounts (relay/attempt.ts requestRun), kept on the ledger row */
    attempts?: UpstreamAttempt[]
  }
}

const PROCESS_TAG = randomBytes(4).toString('hex')
let sequence = 0

/**
 * `req_` + 32 hex: milliseconds, a per-process random tag, a counter. Unique across restarts, and rising,
 * so ledger rows append to the end of the id index instead of landing at random places in it.
 */
export function newRequestId(): string {
  sequence = (sequence + 1) % 0x1000000000000
  const now = Date.now()
  // The time part changes once a millisecond; requests within one share it.
  if (now !== prefixTime) {
    prefixTime = now
    prefix = `req_${now.toString(16).padStart(12, '0')}${PROCESS_TAG}`
  }
  return `${prefix}${sequence.toString(16).padStart(12, '0')}`
}
let prefixTime = -1
let prefix = ''

const NO_BODY = Buffer.alloc(0)

export function createContext(req: IncomingMessage, res: ServerResponse, path: string, protocol: Protocol, redact: (text: string) => string, timeouts: ClientTimeouts): RequestContext {
  return {
    id: newRequestId(),
    req,
    res,
    path,
    lang: languageOf(req.headers['accept-language']),
    protocol,
    redact,
    startedAt: performance.now(),
    body: NO_BODY,
    timeouts,
    abort: new ClientAbort(),
    outcome: { costNano: 0 },
  }
}
