import type { IncomingMessage } from 'node:http'
import type { BodyHold } from './body-budget.js'
import type { ClientTimeouts } from './client-timeouts.js'
import type { RequestContext } from '../context.js'
import { gatewayError, type GatewayError } from '../errors.js'
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../guards/json-depth.js'

/** Spec §8: 60 MB. */
export const MAX_BODY_BYTES = 60_000_000

/**
 * After a 413, at most this much more of the upload is read and dropped before the answer is sent, so a
 * client still sending gets to read the 413 instead of a broken pipe (SDKs retry a broken pipe).
 */
export const DISCARD_MAX_BYTES = 64 * 1024 * 1024
/** …and for at most this long. */
export const DISCARD_MAX_MS = 10_000

export function tooLarge() {
  // Connection: close — the rest of an oversized upload is not read past the discard bounds.
  return gatewayError('request_too_large', 'request_too_large', { limit: MAX_BODY_BYTES }, { headers: { connection: 'close' } })
}

/** The client left before its request body was complete (ledger 499). */
export const clientGone = () => gatewayError('client_closed_request', 'client_gone')

/** Refuses by Content-Length before reading a byte. */
export function checkDeclaredLength(req: IncomingMessage): void {
  const declared = req.headers['content-length']
  if (declared !== undefined && Number(declared) > MAX_BODY_BYTES) throw tooLarge()
}

/** Answers given before the upload was read to its end (`discardUpload` drops the rest first). */
export const refusesUpload = (error: GatewayError): boolean =>
  error.kind === 'request_too_large' || error.kind === 'apikey_body_limit' || error.kind === 'gateway_body_limit'

/**
 * Bounds an upload in time: `fail` gets a 408 `request_timeout` when no data came for `bodyIdleMs`, or when
 * the whole body has not arrived within `bodyMs`. Returns what stops the timers (call it once the body ended).
 */
export function watchUpload(req: IncomingMessage, timeouts: ClientTimeouts, fail: (err: GatewayError) => void): () => void {
  const timeout = (id: 'request_body_idle' | 'request_body_deadline', ms: number) => () => {
    stop()
    fail(gatewayError('request_timeout', id, { ms }, { headers: { connection: 'close' } }))
  }
  let idle = setTimeout(timeout('request_body_idle', timeouts.bodyIdleMs), timeouts.bodyIdleMs)
  const deadline = setTimeout(timeout('request_body_deadline', timeouts.bodyMs), timeouts.bodyMs)
  const onData = () => idle.refresh()
  req.on('data', onData)
  function stop() {
    clearTimeout(idle)
    clearTimeout(deadline)
    req.off('data', onData)
  }
  return stop
}

/**
 * Reads the whole body into one buffer, bounded in size (60 MB, declared or counted), in time (`watchUpload`)
 * and in memory: before a byte is read, `hold` takes the declared length, or, without one (chunked), the 60 MB
 * a body may be, kept down to its size once it has arrived; past the key's or the gateway's budget it throws
 * their 429/503. The caller releases `hold` once the request is done with the bytes. A client that leaves
 * mid-upload rejects it with `client_closed_request`.
 */
export function readBody(req: IncomingMessage, timeouts: ClientTimeouts, hold: BodyHold): Promise<Buffer> {
  checkDeclaredLength(req)
  const declared = req.headers['content-length']
  // Node's parser never delivers more than a declared length. A body of unknown length is not counted chunk by
  // chunk: many would start at once, and those refused halfway leave their chunks, uncounted, to the garbage
  // collector (32 such bodies of 50 MB from one key grew the process by over 600 MB; taken at 60 MB, under 300).
  const unknown = declared === undefined
  hold.grow(unknown ? MAX_BODY_BYTES : Number(declared))
  // Stream events, not an async iterator: this runs on every request and the iterator costs more.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const finish = (err?: GatewayError) => {
      stopTimers()
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('close', onClose)
      if (!err) {
        if (unknown) hold.keep(size)
        resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size))
      } else {
        req.pause()
        reject(err)
      }
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) finish(tooLarge())
      else chunks.push(chunk)
    }
    const onEnd = () => finish()
    const onClose = () => finish(clientGone())
    const stopTimers = watchUpload(req, timeouts, finish)
    req.on('data', onData)
    req.once('end', onEnd)
    req.once('close', onClose)
    // A reset connection emits 'error' before 'close'; 'close' settles it.
    req.on('error', () => {})
  })
}

/**
 * Reads and drops what is left of an upload, for at most DISCARD_MAX_BYTES and DISCARD_MAX_MS, so the
 * client finishes sending and reads the answer. Resolves when the body ended, the client left, or a bound
 * was reached. One chunk per turn of the event loop: a flood of refused uploads drained at once never holds
 * up the answers to other clients.
 */
export function discardUpload(req: IncomingMessage): Promise<void> {
  if (req.complete || req.destroyed) return Promise.resolve()
  return new Promise((resolve) => {
    let dropped = 0
    let settled = false
    const done = () => {
      settled = true
      clearTimeout(timer)
      req.off('data', onData)
      req.off('end', done)
      req.off('close', done)
      resolve()
    }
    const next = () => {
      if (!settled) req.resume()
    }
    const onData = (chunk: Buffer) => {
      dropped += chunk.length
      if (dropped > DISCARD_MAX_BYTES) return done()
      req.pause()
      setImmediate(next)
    }
    const timer = setTimeout(done, DISCARD_MAX_MS)
    req.on('data', onData)
    req.once('end', done)
    req.once('close', done)
    req.resume()
  })
}

/**
 * Parses the request's body (read by the server before the handler ran) as a JSON object; the bytes it came from
 * stay in `ctx.body` (relays forward them untouched when they can). 400 for anything that is not a JSON object,
 * or that nests deeper than MAX_JSON_DEPTH. The content type is not checked: `curl -d` sends JSON labelled
 * as a form, and the body decides.
 */
export function readJson(ctx: RequestContext): Record<string, unknown> {
  if (ctx.json !== undefined) return ctx.json
  const raw = ctx.body
  // Before JSON.parse: a deeply nested body would overflow the stack of whatever walks it next.
  if (exceedsJsonDepth(raw)) throw gatewayError('invalid_request', 'json_too_deep', { limit: MAX_JSON_DEPTH })
  let value: unknown
  try {
    value = JSON.parse(raw.toString('utf8'))
  } catch (err) {
    throw gatewayError('invalid_json', 'invalid_json', { detail: (err as Error).message })
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw gatewayError('invalid_request', 'body_not_object')
  return value as Record<string, unknown>
}
