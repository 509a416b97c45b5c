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
  const { res } = ctx
  ctx.outcome.errorCode ??= err.code
  if (res.headersSent) {
    if (!res.writableEnded && !res.destroyed) res.end(sseErrorFrame(ctx, err))
    return
  }
  if (res.destroyed) return
  sendJson(res, err.status, errorBody(err, ctx.protocol, ctx.lang, ctx.redact, ctx.id), err.headers)
}

/** Resolves once the response can take more data, or the client has gone. */
export function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done)
      res.off('close', done)
      resolve()
    }
    res.on('drain', done)
    res.on('close', done)
  })
}
