import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { authenticate } from './auth.js'
import { recordRequest } from './billing.js'
import { checkDeclaredLength } from './body.js'
import { createContext, newRequestId, type RequestContext } from './context.js'
import { asGatewayError, errorBody, gatewayError } from './errors.js'
import { createHostGuard } from './host-guard.js'
import { createRouter, type Route } from './router.js'
import { renderError } from './respond.js'
import type { Services } from './services.js'

const protocolOfPath = (path: string) => (path.startsWith('/v1/messages') ? 'messages' : 'chat')

/** The gateway's HTTP server: one pipeline (host, route, auth, group, limits, handler, ledger) and one error renderer. */
export function createGatewayServer(services: Services, routes: Route[], opts: { allowedHosts: readonly string[]; log?: (line: string) => void }) {
  const route = createRouter(routes)
  const guardHost = createHostGuard(opts.allowedHosts)
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`))
  let inFlight = 0
  let idle: (() => void) | undefined

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?', 1)[0]
    const match = route(req.method ?? 'GET', path)
    const ctx = createContext(req, res, path, match.route?.protocol ?? protocolOfPath(path))
    res.setHeader('x-request-id', ctx.id)
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
      if (r.auth === 'admin') {
        if (!services.admin.allows(req)) throw gatewayError('admin_unauthorized', 'admin_unauthorized')
      } else if (r.auth !== 'none') authorize(ctx, r, path)
      if (r.concurrency) {
        checkDeclaredLength(req)
        ctx.release = services.limiter.acquire(ctx.key!)
      }
      await r.handle(ctx, services, match.params)
    } catch (err) {
      const error = asGatewayError(err, ctx.id)
      if (error.kind === 'internal_error') log(`[gatehouse] ${ctx.id} internal error: ${(err as Error)?.stack ?? String(err)}`)
      renderError(ctx, error)
    } finally {
      ctx.release?.()
      if (match.route?.ledger) finish(ctx, match.route)
    }
  }

  function authorize(ctx: RequestContext, r: Route, path: string): void {
    ctx.key = authenticate(ctx.req, services.registry, { bearerOnly: r.auth === 'bearer' })
    ctx.group = services.registry.groups.get(ctx.key.groupId)
    // Spec §5.4: a key works only on its group's protocol paths.
    if (!ctx.group || (r.groupProtocol !== undefined && ctx.group.protocol !== r.groupProtocol)) {
      throw gatewayError('route_not_found', 'route_not_in_group', { path })
    }
  }

  function finish(ctx: RequestContext, r: Route): void {
    const status = ctx.abort.signal.aborted ? 499 : ctx.res.statusCode
    if (status === 499) ctx.outcome.errorCode ??= 'client_closed_request'
    try {
      recordRequest(services.store, services.registry, ctx, r.endpoint, status)
    } catch (err) {
      log(`[gatehouse] ${ctx.id} ledger write failed: ${(err as Error).message}`)
    }
  }

  const server: Server = createServer({ noDelay: true, keepAliveTimeout: 5_000 }, (req, res) => {
    inFlight++
    void handle(req, res).finally(() => {
      if (--inFlight === 0) idle?.()
    })
  })
  // Node's parser refused the bytes (a bad header, a length that lies, an oversized head): the answer still carries a
  // request id and the error envelope, like every other one. The protocol and language are unknown: chat, English.
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    const pending = (socket as { _httpMessage?: ServerResponse & { req?: IncomingMessage } })._httpMessage
    if (pending && !pending.headersSent && pending.req?.complete) {
      // Bytes after a whole request still being answered: that answer goes out, and the connection closes after it.
      pending.shouldKeepAlive = false
      return
    }
    // Otherwise the connection ends here: a request cut short is aborted with it, which gives back its slot.
    if (!socket.writable || pending?.headersSent) return void socket.destroy()
    const id = newRequestId()
    const error = gatewayError('invalid_request', 'malformed_http', { detail: err.code ?? 'HPE_INVALID' })
    const body = JSON.stringify(errorBody(error, 'chat', 'en', id))
    socket.end(`HTTP/1.1 400 Bad Request\r\nx-request-id: ${id}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`)
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
