import type { RequestContext } from '../context.js'
import { drained, SSE_HEADERS } from '../respond.js'

/** How often the gateway images SSE says it is still working (spec §4.2, §6 rule 3). */
export const KEEPALIVE_MS = 5_000

/**
 * The gateway images SSE: a keepalive comment at once and then every KEEPALIVE_MS while the images are
 * made; the last `data:` event is the images JSON, then `data: [DONE]`. A failure is an `event: error` (renderError).
 * A client that leaves the keepalives unread is cut like any stalled reader (`drained`).
 */
export function startImageStream(ctx: RequestContext, keepaliveMs = KEEPALIVE_MS) {
  const { res } = ctx
  let waiting = false
  const keepalive = () => {
    if (res.write(': keepalive\n\n') || waiting) return
    waiting = true
    void drained(ctx).then(() => (waiting = false))
  }
  res.writeHead(200, SSE_HEADERS)
  keepalive()
  const timer = setInterval(keepalive, keepaliveMs)
  const stop = () => clearInterval(timer)
  res.once('close', stop)
  return {
    finish(body: object): void {
      stop()
      res.end(`data: ${JSON.stringify(body)}\n\ndata: [DONE]\n\n`)
    },
    /** Ends the keepalives; a failure's `event: error` is written by the one error renderer (respond.ts). */
    stop,
  }
}
