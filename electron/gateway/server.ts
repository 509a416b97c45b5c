import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { authenticateRequest } from './access/auth.js'
import { recordRequest } from './billing/billing.js'
import type { Recording } from './client/capture.js'
import { REPLAY_HEADER } from './access/replay-tickets.js'
import { discardUpload, readBody, refusesUpload } from './client/body.js'
import { DEFAULT_CLIENT_TIMEOUTS, DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_CONNECTIONS_PER_ADDRESS, type ClientTimeouts } from './client/client-timeouts.js'
import { createConnectionTable } from './client/connection-table.js'
import { createContext, newRequestId, type RequestContext } from './context.js'
import { asGatewayError, errorBody, gatewayError } from './errors.js'
import { createHostGuard } from './guards/host-guard.js'
import { holdSlot } from './limits.js'
import { createRouter, type Route } from './router.js'
import { renderError } from './respond.js'
import type { Services } from './services.js'
import type { RequestTrace } from './telemetry/tracing.js'

const protocolOfPath = (path: string) => (path.startsWith('/v1/messages') ? 'messages' : 'chat')

/** How long an error answer may take to reach the peer before its connection is destroyed (a reset can overtake it). */
const ANSWERED_LINGER_MS = 1_000

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH'])
/** The server reads these bodies whole before the handler runs; a route that streams its upload reads its own. */
const readsBody = (r: Route, method: string) => BODY_METHODS.has(method) && r.streamsBody !== true

export interface ServerOptions {
  allowedHosts: readonly string[]
  timeouts?: ClientTimeouts
  /** open connections accepted at once (config `limits.maxConnections`) */
  maxConnections?: number
  /** open connections from one non-loopback address (config `limits.maxConnectionsPerAddress`) */
  maxConnectionsPerAddress?: number
}

/**
 * The gateway's HTTP server: one pipeline (host, route, auth, group, body, limits, handler, ledger) and one
 * error renderer. The body is read whole (bounded in size and time) before a concurrency slot is taken, so a
 * client trickling its upload never holds a slot; its bytes count against the key's and the gateway's byte
 * budgets (body-budget.ts) from before the first is read until the request is done.
 */
export function createGatewayServer(services: Services, routes: Route[], opts: ServerOptions) {
  const route = createRouter(routes)
  const guardHost = createHostGuard(opts.allowedHosts)
  const { log } = services
  const timeouts = opts.timeouts ?? DEFAULT_CLIENT_TIMEOUTS
  let inFlight = 0
  let idle: (() => void) | undefined

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?', 1)[0]
    const match = route(req.method ?? 'GET', path)
    const ctx = createContext(req, res, path, match.route?.protocol ?? protocolOfPath(path), services.registry.redactor.redact, timeouts)
    res.setHeader('x-request-id', ctx.id)
    let recording: Recording | undefined
    let trace: RequestTrace | undefined
    res.once('close', () => {
      if (!res.writableFinished) ctx.abort.abort()
    })
    try {
      guardHost(req)
      if (!match.route) {
        if (match.allowed.length > 0) {
          throw gatewayError('method_not_allowed', 'method_not_allowed', { method: req.method ?? '', path }, { headers: { allow: match.allowed.join(', ') } })
        }
        throw gatewayError('route_not_found', 'route_not_found', { method: req.method ?? '', path })
      }
      const r = match.route
      ctx.endpoint = r.endpoint
      // Traced from here, refusals included, when tracing is on (README "Tracing (OpenTelemetry)").
      if (r.ledger) trace = services.tracing?.start(ctx)
      if (r.auth === 'admin') {
        if (!(await services.admin.allows(req, r.mediaToken === true))) throw gatewayError('admin_unauthorized', 'admin_unauthorized')
      } else if (r.auth !== 'none') {
        authorize(ctx, r, path)
        // The gateway's own call replaying a logged request: its one-time ticket pins the account (admission.ts).
        if (req.headers[REPLAY_HEADER] !== undefined) ctx.replay = services.replays.take(req.headers[REPLAY_HEADER])
      }
      if (readsBody(r, req.method ?? 'GET')) {
        // Held until the request is done: `ctx.release` gives the bytes back (with the slot, below), also when a
        // background task takes it over along with the body.
        const hold = services.bodies.hold(ctx.key)
        ctx.release = hold.release
        ctx.body = await readBody(req, timeouts, hold)
      }
      if (r.concurrency) {
        // Team mode: taken by the request's admission (every such route admits), with its hold in one round trip.
        if (services.limiter.defer) ctx.slot = services.limiter.defer(ctx.key!, ctx.id)
        else {
          const slot = services.limiter.acquire(ctx.key!, ctx.id)
          holdSlot(ctx, slot instanceof Promise ? await slot : slot)
        }
      }
      // Kept bodies (Settings): the request as parsed, the answer as it goes out, for every request the ledger records.
      if (r.ledger) recording = services.capture.start(ctx)
      await r.handle(ctx, services, match.params)
    } catch (err) {
      const error = asGatewayError(err, ctx.id)
      if (error.kind === 'internal_error') log(`[gatehouse] ${ctx.id} internal error: ${(err as Error)?.stack ?? String(err)}`)
      // Spec §8: a 413 (or a full byte budget's 429/503) the client can read — it is still sending, and closing
      // now would be a broken pipe to it. What was read of it is given back first: none of it is kept.
      if (refusesUpload(error)) {
        ctx.release?.()
        await discardUpload(req)
      }
      renderError(ctx, error)
    } finally {
      ctx.release?.()
      if (match.route?.ledger) finish(ctx, match.route, trace)
      recording?.save(ctx)
    }
  }

  function authorize(ctx: RequestContext, r: Route, path: string): void {
    ctx.key = authenticateRequest(ctx, services, r.auth === 'bearer')
    ctx.group = services.registry.groups.get(ctx.key.groupId)
    // Spec §5 rule 4: a key works only on its group's protocol paths.
    if (!ctx.group || (r.groupProtocol !== undefined && ctx.group.protocol !== r.groupProtocol)) {
      throw gatewayError('route_not_found', 'route_not_in_group', { path })
    }
  }

  function finish(ctx: RequestContext, r: Route, trace: RequestTrace | undefined): void {
    // A client that closes once it read the whole answer (a stream's end) still got all of it.
    const status = ctx.abort.aborted && ctx.outcome.delivered !== true ? 499 : ctx.res.statusCode
    if (status === 499) ctx.outcome.errorCode ??= 'client_closed_request'
    try {
      recordRequest(services.store, services.registry, ctx, r.endpoint, status)
    } catch (err) {
      log(`[gatehouse] ${ctx.id} ledger write failed: ${(err as Error).message}`)
    }
    services.metrics.record(ctx, r.endpoint, status)
    trace?.end(r.endpoint, r.docPath ?? r.path, status)
  }

  // Not Node's `server.maxConnections`: it refuses newcomers while the cap is full of connections served nothing.
  const connections = createConnectionTable({
    maxConnections: opts.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
    maxConnectionsPerAddress: opts.maxConnectionsPerAddress ?? DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
  })
  const server: Server = createServer({
    noDelay: true,
    keepAliveTimeout: 5_000,
    headersTimeout: timeouts.headersMs,
    // A backstop only: the body reader's own timers answer first, with a 408 in the protocol's shape.
    requestTimeout: timeouts.headersMs + timeouts.bodyMs + 10_000,
    // How often Node checks those two (its default, 30 s, would let a slow client hold headers for 50 s).
    connectionsCheckingInterval: 1_000,
    // The host guard answers a missing Host itself, in the protocol's shape (Node's own 400 has no body).
    requireHostHeader: false,
  }, (req, res) => {
    // A head that completes on a connection already answered with an error (a 408) is not served.
    if (connections.isClosing(req.socket)) return void req.socket.destroy()
    connections.requestStarted(req.socket)
    res.once('close', () => connections.requestEnded(req.socket))
    inFlight++
    void handle(req, res).finally(() => {
      if (--inFlight === 0) idle?.()
    })
  })
  server.on('connection', (socket: Socket) => connections.admit(socket))
  /** Sends an error answer and closes the connection for good: a peer that keeps its side open holds nothing. */
  function answerAndClose(socket: Socket, answer: string): void {
    connections.closing(socket)
    socket.end(answer)
    // Destroyed when the peer closes its side, or after a short linger that lets the answer reach it first.
    const linger = setTimeout(() => socket.destroy(), ANSWERED_LINGER_MS).unref()
    socket.once('end', () => socket.destroy())
    socket.once('close', () => clearTimeout(linger))
  }
  // Node's parser refused the bytes (a bad header, a length that lies, an oversized head) or the headers took too
  // long: the answer still carries a request id and the error envelope, like every other one. The protocol and
  // language are unknown: chat, English.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    // Already answered and closing: what the parser makes of later bytes changes nothing.
    if (connections.isClosing(socket)) return
    const pending = (socket as { _httpMessage?: ServerResponse & { req?: IncomingMessage } })._httpMessage
    if (pending && !pending.headersSent && pending.req?.complete) {
      // Bytes after a whole request still being answered: that answer goes out, and the connection closes after it.
      pending.shouldKeepAlive = false
      return
    }
    // Otherwise the connection ends here: a request cut short is aborted with it, which gives back its slot.
    if (!socket.writable || pending?.headersSent) return void socket.destroy()
    const id = newRequestId()
    const error = err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? gatewayError('request_timeout', 'request_headers_timeout', { ms: timeouts.headersMs })
      : gatewayError('invalid_request', 'malformed_http', { detail: err.code ?? 'HPE_INVALID' })
    const body = JSON.stringify(errorBody(error, 'chat', 'en', services.registry.redactor.redact, id))
    const status = error.status === 408 ? '408 Request Timeout' : '400 Bad Request'
    answerAndClose(socket, `HTTP/1.1 ${status}\r\nx-request-id: ${id}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`)
  })

  return {
    server,
    /** Stops accepting, lets in-flight requests finish for up to `graceMs`, then cuts what is left. */
    async close(graceMs: number): Promise<void> {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeIdleConnections()
      if (inFlight > 0) {
        await Promise.race([new Promise<void>((resolve) => (idle = resolve)), new Promise((resolve) => setTimeout(resolve, graceMs).unref())])
      }
      server.closeAllConnections()
      await closed
    },
  }
}
