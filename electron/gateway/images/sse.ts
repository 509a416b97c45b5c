import type { ServerResponse } from 'node:http'
import { SSE_HEADERS } from '../respond.js'

/** How often the gateway images SSE says it is still working (spec §4.2, §6.3). */
export const KEEPALIVE_MS = 5_000

/**
 * The gateway images SSE: a keepalive comment at once and then every KEEPALIVE_MS while the images are
 * made; the last `data:` event is the images JSON, then `data: [DONE]`. A failure is an `event: error`.
 */
export function startImageStream(res: ServerResponse, keepaliveMs = KEEPALIVE_MS) {
  res.writeHead(200, SSE_HEADERS)
  res.write(': keepalive\n\n')
  const timer = setInterval(() => res.write(': keepalive\n\n'), keepaliveMs)
  const stop = () => clearInterval(timer)
  res.once('close', stop)
  return {
    finish(body: object): void {
      stop()
      res.end(`data: ${JSON.stringify(body)}\n\ndata: [DONE]\n\n`)
    },
    fail(errorBody: object): void {
      stop()
      res.end(`event: error\ndata: ${JSON.stringify(errorBody)}\n\n`)
    },
  }
}
