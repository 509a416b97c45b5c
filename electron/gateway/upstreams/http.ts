import { randomBytes } from 'node:crypto'
import { Readable } from 'node:stream'
import { Agent, errors, request, type Dispatcher } from 'undici'
import type { ClientAbort } from '../client/client-abort.js'
import { guardedConnector, LinkRefusedError, linkProblem, type ResolveHost } from '../guards/link-guard.js'
import { sniffRaster } from '../formats/media-sniff.js'
import type { HttpSpec, MultipartPart } from '../contract/http-spec.js'

const quoted = (text: string) => text.replace(/["\r\n]/g, (c) => encodeURIComponent(c))

/**
 * multipart/form-data (RFC 7578) written around the files' own buffers: a 40 MB upload is forwarded
 * without being copied again (FormData and Blob would copy every file once more).
 */
function encodeMultipart(parts: MultipartPart[]): { pieces: Buffer[]; length: number; contentType: string } {
  const boundary = `----gatehouse-${randomBytes(12).toString('hex')}`
  const pieces: Buffer[] = []
  for (const part of parts) {
    const file = 'chunks' in part
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(part.name)}"${file ? `; filename="${quoted(part.filename)}"\r\nContent-Type: ${part.type}` : ''}\r\n\r\n`
    pieces.push(Buffer.from(head), ...(file ? part.chunks : [Buffer.from(part.value)]), Buffer.from('\r\n'))
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`))
  return { pieces, length: pieces.reduce((n, p) => n + p.length, 0), contentType: `multipart/form-data; boundary=${boundary}` }
}

/** Upstream addresses seen, split as undici wants them: an account calls the same few, so each is parsed once. */
const targets = new Map<string, { origin: string; path: string }>()
const MAX_TARGETS = 1024

function targetOf(url: string): { origin: string; path: string } {
  let target = targets.get(url)
  if (target === undefined) {
    const parsed = new URL(url)
    target = { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` }
    if (targets.size >= MAX_TARGETS) targets.clear()
    targets.set(url, target)
  }
  return target
}

export interface Timeouts {
  /** TCP + TLS connect */
  connectMs: number
  /** a whole answer (not streamed): from sending the request to its response headers, and longest silence in its body */
  firstByteMs: number
  /** a stream: from sending the request to its response headers */
  streamFirstByteMs: number
  /** a stream: from its response headers to its first content (a model row's `firstTokenMs` overrides it) */
  firstTokenMs: number
  /** a stream: longest silence once its content flows */
  idleMs: number
}

/**
 * Defaults (README, "Deadlines"): a stream's headers come at once from a healthy vendor, so 30 s is already a sick
 * one; a reasoning model may think for minutes before its first word, hence 120 s to the first token; once words
 * flow, 30 s of silence is a stall. A whole answer arrives only when it is complete: 300 s covers a long reasoning
 * answer not streamed.
 */
export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 10_000, firstByteMs: 300_000, streamFirstByteMs: 30_000, firstTokenMs: 120_000, idleMs: 30_000 }

export type UpstreamResponse = Dispatcher.ResponseData

/** Why an upstream call failed before an HTTP status was had. */
export type TransportFailure = 'connect' | 'timeout' | 'reset' | 'aborted'

/** Redirects a link may take (CDNs, signed URLs); each hop is checked like the first. */
export const MAX_LINK_REDIRECTS = 3

export interface HttpOptions {
  /** links may reach loopback and private addresses (link-local and metadata addresses stay refused) */
  allowPrivateAddresses?: boolean
  /** how links' host names are resolved: dns.lookup unless a test resolves names of its own */
  resolveLinkHost?: ResolveHost
}

/**
 * The only place that talks to upstreams: one pooled keep-alive agent per gateway for API calls, and one for
 * links (reference images, vendors' result links) whose sockets connect only to addresses the link guard allows,
 * checked when resolved and again once connected.
 */
export function createHttp(timeouts: Timeouts, options: HttpOptions = {}) {
  const allowPrivate = options.allowPrivateAddresses === true
  // A call's own deadlines (HttpSpec.deadlines, a stream's) replace these whole-answer ones.
  const agentOptions = { keepAliveTimeout: 30_000, headersTimeout: timeouts.firstByteMs, bodyTimeout: timeouts.firstByteMs }
  const agent = new Agent({ ...agentOptions, connect: { timeout: timeouts.connectMs } })
  const linkAgent = new Agent({ ...agentOptions, connect: guardedConnector(allowPrivate, timeouts.connectMs, options.resolveLinkHost) })

  /** GET a link, following at most MAX_LINK_REDIRECTS redirects by hand so that every hop is checked. */
  async function fetchLink(url: string, headers: Record<string, string>, signal: AbortSignal): Promise<UpstreamResponse> {
    let target = new URL(url)
    for (let hop = 0; ; hop++) {
      const problem = linkProblem(target, allowPrivate)
      if (problem) throw new DownloadError(hop === 0 ? problem : `redirects to ${target.origin}, which ${problem}`)
      const res = await request(target, { method: 'GET', headers, signal, dispatcher: linkAgent }).catch((err: unknown) => {
        throw err instanceof LinkRefusedError ? new DownloadError(hop === 0 ? err.message : `redirects to ${target.origin}, which ${err.message}`) : err
      })
      const location = res.headers.location
      if (res.statusCode < 300 || res.statusCode >= 400 || typeof location !== 'string') return res
      await res.body.dump()
      if (hop === MAX_LINK_REDIRECTS) throw new DownloadError(`redirects more than ${MAX_LINK_REDIRECTS} times`)
      target = new URL(location, target)
    }
  }

  return {
    timeouts,
    /** `signal`: an AbortSignal, or a request's ClientAbort (an EventEmitter, which undici takes too). */
    send(spec: HttpSpec, signal: AbortSignal | ClientAbort): Promise<UpstreamResponse> {
      const { origin, path } = targetOf(spec.url)
      const deadlines = spec.deadlines === undefined ? undefined : { headersTimeout: spec.deadlines.headersMs, bodyTimeout: spec.deadlines.bodyMs }
      if (spec.body !== undefined && typeof spec.body === 'object' && 'multipart' in spec.body) {
        const { pieces, length, contentType } = encodeMultipart(spec.body.multipart)
        const headers = { ...spec.headers, 'content-type': contentType, 'content-length': String(length) }
        return agent.request({ origin, path, method: spec.method, headers, body: Readable.from(pieces), signal, ...deadlines })
      }
      return agent.request({ origin, path, method: spec.method, headers: spec.headers, body: spec.body as string | Buffer | undefined, signal, ...deadlines })
    },
    fetchLink,
    /**
     * Downloads an image link: at most `maxBytes`, an `image/*` answer whose bytes are a PNG, JPEG, WebP or GIF
     * (spec §4.2); anything else is a DownloadError naming why. The type returned is the one the bytes show.
     */
    async download(url: string, maxBytes: number, signal: AbortSignal): Promise<{ bytes: Buffer; mimeType: string }> {
      const res = await fetchLink(url, { accept: 'image/*' }, signal)
      const type = String(res.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase()
      const declared = Number(res.headers['content-length'] ?? 0)
      const refusal = res.statusCode >= 300 ? `answered HTTP ${res.statusCode}`
        : !type.startsWith('image/') ? `is not an image (content type "${type || 'none'}")`
          : declared > maxBytes ? `is larger than ${maxBytes} bytes` : undefined
      if (refusal) {
        await res.body.dump()
        throw new DownloadError(refusal)
      }
      const bytes = await readCapped(res, maxBytes)
      const mimeType = sniffRaster(bytes)
      if (!mimeType) throw new DownloadError('is not a PNG, JPEG, WebP or GIF image')
      return { bytes, mimeType }
    },
    /** Lets calls in flight finish for up to `graceMs` (a stalled upstream would hold them forever), then cuts them. */
    async close(graceMs = 10_000): Promise<void> {
      let timer: NodeJS.Timeout | undefined
      const expired = new Promise<'expired'>((resolve) => (timer = setTimeout(() => resolve('expired'), graceMs)))
      const outcome = await Promise.race([Promise.all([agent.close(), linkAgent.close()]).then(() => 'closed' as const), expired])
      clearTimeout(timer)
      if (outcome === 'expired') await Promise.all([agent.destroy(), linkAgent.destroy()])
    },
  }
}

/** A response body read whole, failing with a DownloadError past `maxBytes`. */
async function readCapped(res: UpstreamResponse, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > maxBytes) {
      res.body.destroy()
      throw new DownloadError(`is larger than ${maxBytes} bytes`)
    }
    chunks.push(chunk)
  }
  return Buffer.concat(chunks, size)
}

/**
 * Largest upstream answer read whole: JSON with inline images (ten 4K PNGs in base64) stays far below it; past it
 * (or past a declared length above it) the answer is refused as malformed rather than held in memory.
 */
export const MAX_ANSWER_BYTES = 256 * 1024 * 1024
/** Error bodies are read for their message only. */
export const MAX_ERROR_BYTES = 1024 * 1024

/** An upstream answer larger than the gateway reads whole. */
export class AnswerTooLarge extends Error {
  constructor(limit: number) {
    super(`the upstream answer is larger than ${limit} bytes`)
  }
}

/** Reads an upstream answer whole, at most `maxBytes` of it (AnswerTooLarge past that; the rest is not read). */
export async function readAnswer(response: UpstreamResponse, maxBytes = MAX_ANSWER_BYTES): Promise<Buffer> {
  if (Number(response.headers['content-length'] ?? 0) > maxBytes) {
    abandonBody(response)
    throw new AnswerTooLarge(maxBytes)
  }
  // Stream events, not an async iterator: this runs for every answer and the iterator costs more.
  return new Promise((resolve, reject) => {
    const body = response.body
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= maxBytes) return void chunks.push(chunk)
      body.off('data', onData).off('end', onEnd)
      abandonBody(response)
      reject(new AnswerTooLarge(maxBytes))
    }
    const onEnd = () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size))
    body.on('data', onData).once('end', onEnd).once('error', reject)
  })
}

/** Stops reading an answer: the connection is dropped, and the abort it reports is expected, not an error. */
export function abandonBody(response: UpstreamResponse): void {
  response.body.on('error', () => {})
  response.body.destroy()
}

/** An error answer's text, cut at MAX_ERROR_BYTES: only its message matters. */
export async function readErrorText(response: UpstreamResponse): Promise<string> {
  return readAnswer(response, MAX_ERROR_BYTES).then((b) => b.toString('utf8'), () => '')
}

/**
 * `signal`, or `ms` passing: a timer of its own, cleared by `clear()` once the call is over. Not AbortSignal.timeout()
 * inside AbortSignal.any(): Node 20 holds the sources of such a signal only weakly, and a collected timeout never
 * fires. The deadline aborts with a TimeoutError, which transportFailure calls a timeout.
 */
export function withDeadline(signal: AbortSignal, ms: number): { signal: AbortSignal; clear(): void } {
  const controller = new AbortController()
  const onAbort = () => controller.abort(signal.reason)
  const timer = setTimeout(() => controller.abort(new DOMException(`no answer within ${ms} ms`, 'TimeoutError')), ms)
  if (signal.aborted) onAbort()
  else signal.addEventListener('abort', onAbort, { once: true })
  return {
    signal: controller.signal,
    clear() {
      clearTimeout(timer)
      signal.removeEventListener('abort', onAbort)
    },
  }
}

/** A reference link that could not be used; the message completes "the image at <url> …". */
export class DownloadError extends Error {}

export type Http = ReturnType<typeof createHttp>

/** Classifies an error thrown by undici while connecting, waiting or reading. */
export function transportFailure(err: unknown): TransportFailure {
  if (err instanceof errors.HeadersTimeoutError || err instanceof errors.BodyTimeoutError || err instanceof errors.ConnectTimeoutError) {
    return 'timeout'
  }
  const name = (err as Error | undefined)?.name
  // AbortSignal.timeout() rejects with a TimeoutError: a timeout, not the client going away.
  if (name === 'TimeoutError') return 'timeout'
  if (name === 'AbortError' || err instanceof errors.RequestAbortedError) return 'aborted'
  const code = (err as NodeJS.ErrnoException | undefined)?.code
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EHOSTUNREACH') return 'connect'
  return 'reset'
}
