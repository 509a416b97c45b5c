import type { ServerResponse } from 'node:http'
import type { RequestContext } from './context.js'
import { errorBody, type GatewayError } from './errors.js'

/** Sends a JSON body: an object, or text or bytes that already are JSON. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const payload = typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body)
  res.writeHead(status, { ...headers, 'content-type': 'application/json; charset=utf-8', 'content-length': typeof payload === 'string' ? Buffer.byteLength(payload) : payload.byteLength })
  res.end(payload)
}

export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
}

/** Spec §6: once a stream has started, a failure is an `event: error` frame, in the protocol's own shape. */
export function sseErrorFrame(ctx: RequestContext, err: GatewayError): string {
  return `event: error\ndata: ${JSON.stringify(errorBody(err, ctx.protocol, ctx.lang, ctx.redact, ctx.id))}\n\n`
}

/** The one error renderer: a JSON error in the caller's protocol, or an error frame if a stream is under way. */
export function renderError(ctx: RequestContext, err: GatewayError): void {
  // A request the gateway ended (its key revoked) answers why, whatever its handler threw on the way out.
  if (ctx.abort.endedBy !== undefined) err = ctx.abort.endedBy
  const { res } = ctx
  ctx.outcome.errorCode ??= err.code
  if (res.headersSent) {
    if (!res.writableEnded && !res.destroyed) {
      // The 200 is gone: the ledger keeps the status of the error the frame reports.
      ctx.outcome.status ??= err.status
      res.end(sseErrorFrame(ctx, err))
    }
    return
  }
  if (res.destroyed) return
  sendJson(res, err.status, errorBody(err, ctx.protocol, ctx.lang, ctx.redact, ctx.id), err.headers)
}

/**
 * Resolves once the response can take more data, or the client has gone. A client that leaves written data
 * unread for `clientIdleMs` is cut: the request counts as the client leaving (abort, ledger 499) and the
 * response is destroyed, so whatever waits on it (a relay loop, the concurrency slot) is let go.
 */
export function drained(ctx: RequestContext): Promise<void> {
  const { res } = ctx
  if (res.destroyed || !res.writableNeedDrain) return Promise.resolve()
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      res.off('drain', done)
      res.off('close', done)
      resolve()
    }
    const timer = setTimeout(() => {
      ctx.abort.abort()
      res.destroy()
      done()
    }, ctx.timeouts.clientIdleMs)
    res.on('drain', done)
    res.on('close', done)
  })
}
