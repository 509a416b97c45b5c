/**
 * Keeping request and answer bodies (Settings → "Keep request and answer bodies"): the one place they are taken is
 * the server's pipeline (server.ts), for every request that writes a ledger row but the housekeeping calls. The request is kept as the client
 * sent it once parsed; the answer as it was delivered (a JSON body, or a stream's events with their arrival times),
 * read off the response's writes. What is held in memory is bounded (HELD_BYTES); what is stored is bounded per body
 * and in all (BODY_LIMITS). Credential headers and every key the gateway knows are redacted; images and audio are
 * replaced by their size, type and SHA-256 unless media is kept.
 */
import { createHash } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import { createParser } from 'eventsource-parser'
import { BODY_LIMITS, HOUSEKEEPING_ENDPOINTS, type BodySettings, type CapturedEvent, type CapturedExchange, type OmittedBody } from '../../../shared/admin.js'
import type { RequestContext } from '../context.js'
import { mapStrings, stripMedia } from '../formats/strip-media.js'
import { MIN_SECRET_LENGTH, REDACT_SCAN_LIMIT, REDACTED, spellings } from '../secrets/redact.js'
import type { Store } from '../store/index.js'
import { createBodyWriter } from './capture-writer.js'

/** The answer's bytes held while it is delivered, before media is described and the bound applied: beyond, not kept. */
export const HELD_BYTES = 8 * 1024 * 1024

/** Headers that carry credentials, by name (every one else whose name says key, token, secret, auth, cookie or session too). */
const CREDENTIAL_HEADER = /^(authorization|proxy-authorization|x-api-key|api-key|x-goog-api-key|cookie|set-cookie)$|key|token|secret|auth|cookie|session|signature|credential|replay/i

export interface BodyCapture {
  settings(): BodySettings
  configure(settings: BodySettings): void
  /** Starts keeping a request's answer (its writes are read as they go out); undefined when bodies are not kept. */
  start(ctx: RequestContext): Recording | undefined
  /** Resolves once the bodies of the requests done so far are stored, and the bounds hold (capture-writer.ts). */
  flush(): Promise<void>
}

export interface Recording {
  /** The request is done: its bodies are queued, and stored in the next batch (`flush` waits for them). */
  save(ctx: RequestContext): void
}

export function createBodyCapture(store: Pick<Store, 'requestBodies'>, initial: BodySettings, log: (line: string) => void): BodyCapture {
  let settings = initial
  const writer = createBodyWriter(store, () => ({ count: settings.count, totalBytes: BODY_LIMITS.totalBytes }), log)
  return {
    settings: () => settings,
    configure: (next) => void (settings = next),
    start(ctx) {
      // Model lists, usage reads and quotes call no model, and the app prices every draft as it is typed: keeping
      // them would push the requests worth inspecting out of the last N.
      if (!settings.keep || (HOUSEKEEPING_ENDPOINTS as readonly string[]).includes(ctx.endpoint ?? '')) return undefined
      const keepMedia = settings.keepMedia
      const answer = new AnswerTap(ctx)
      return { save: (done) => writer.queue(exchangeRow(done, answer, keepMedia)) }
    },
    flush: () => writer.flush(),
  }
}

/** Reads what the handler writes to the response: the bytes up to HELD_BYTES, a stream's events with their times. */
class AnswerTap {
  readonly chunks: Buffer[] = []
  /** every byte delivered, held or not */
  readonly hash = createHash('sha256')
  held = 0
  bytes = 0
  truncated = false
  firstByteAt: number | undefined
  firstEventAt: number | undefined
  readonly events: CapturedEvent[] = []
  private readonly parser = createParser({ onEvent: (e) => this.onEvent(e.event, e.data) })
  private readonly decoder = new TextDecoder()
  readonly handlerAt: number

  constructor(private readonly ctx: RequestContext) {
    this.handlerAt = performance.now()
    const res: ServerResponse = ctx.res
    const write = res.write.bind(res) as (...args: unknown[]) => boolean
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      this.take(chunk)
      return write(chunk, ...rest)
    }) as ServerResponse['write']
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      if (typeof chunk !== 'function') this.take(chunk)
      return end(chunk, ...rest)
    }) as ServerResponse['end']
  }

  private take(chunk: unknown): void {
    if (chunk === undefined || chunk === null) return
    // A view of the bytes written, not a copy: the response holds them until they are sent anyway.
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.isBuffer(chunk) ? chunk : Buffer.from((chunk as Uint8Array).buffer, (chunk as Uint8Array).byteOffset, (chunk as Uint8Array).byteLength)
    if (buffer.length === 0) return
    this.firstByteAt ??= performance.now()
    this.bytes += buffer.length
    this.hash.update(buffer)
    if (this.truncated || this.held + buffer.length > HELD_BYTES) {
      this.truncated = true
      return
    }
    const type = String(this.ctx.res.getHeader('content-type') ?? '')
    // Bytes that are not JSON (audio, video) are only counted and hashed: they are never kept.
    if (type !== '' && !type.includes('json') && !type.startsWith('text/event-stream')) return
    this.held += buffer.length
    if (type.startsWith('text/event-stream')) this.parser.feed(this.decoder.decode(buffer, { stream: true }))
    else this.chunks.push(buffer)
  }

  private onEvent(event: string | undefined, data: string): void {
    const at = performance.now()
    this.firstEventAt ??= at
    this.events.push({ at: round(at - this.ctx.startedAt), ...(event ? { event } : {}), data: parsedOrText(data) })
  }
}

const round = (ms: number) => Math.round(ms * 10) / 10

function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

/** Text with every secret taken out: the client's own key as it sent it, then every secret the gateway knows. */
function textRedactor(ctx: RequestContext): (s: string) => string {
  const presented = [ctx.req.headers.authorization?.replace(/^\s*bearer\s+/i, ''), ctx.req.headers['x-api-key'], ctx.req.headers['api-key']]
    .flatMap((v) => (Array.isArray(v) ? v : [v]))
    .filter((v): v is string => typeof v === 'string' && v.trim().length > 0)
    .flatMap((v) => spellings(v.trim()))
    .sort((a, b) => b.length - a.length)
  return (s) => {
    // Too short to hold any secret or match any pattern: most of a body's strings (roles, names, finish reasons).
    if (s.length < MIN_SECRET_LENGTH) return s
    let out = s
    for (const secret of presented) out = out.replaceAll(secret, REDACTED)
    return redactLong(out, ctx.redact)
  }
}

/**
 * The gateway's redactor scans at most REDACT_SCAN_LIMIT characters: a longer text goes through in pieces cut at
 * whitespace (no key has any); a piece with no whitespace that long is no prose, and is dropped as a whole.
 */
function redactLong(text: string, redact: (s: string) => string): string {
  if (text.length <= REDACT_SCAN_LIMIT) return redact(text)
  const out: string[] = []
  let rest = text
  while (rest.length > REDACT_SCAN_LIMIT) {
    const cut = rest.lastIndexOf(' ', REDACT_SCAN_LIMIT - 1) + 1 || rest.lastIndexOf('\n', REDACT_SCAN_LIMIT - 1) + 1
    if (cut <= 0) {
      out.push(REDACTED)
      rest = rest.slice(REDACT_SCAN_LIMIT).replace(/^\S*/, '')
      continue
    }
    out.push(redact(rest.slice(0, cut)))
    rest = rest.slice(cut)
  }
  out.push(redact(rest))
  return out.join('')
}

function headersOf(ctx: RequestContext): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(ctx.req.headers)) {
    if (value === undefined) continue
    out[name] = CREDENTIAL_HEADER.test(name) ? REDACTED : Array.isArray(value) ? value.join(', ') : value
  }
  return out
}

/** A body's JSON text if it is within `limit` bytes, or that of what it was instead. */
function bounded(value: unknown, limit: number, raw: Buffer, type: string): string {
  const text = JSON.stringify(value) ?? 'null'
  if (Buffer.byteLength(text) <= limit) return text
  const omitted: OmittedBody = { omitted: 'too_large', type, bytes: raw.length, sha256: sha256(raw) }
  return JSON.stringify(omitted)
}

/** The request's body as JSON text (serialized once: the bound is measured on the text that is stored). */
function requestBody(ctx: RequestContext, clean: (v: unknown) => unknown): string {
  const type = String(ctx.req.headers['content-type'] ?? '')
  if (ctx.body.length === 0 && ctx.json === undefined) return 'null'
  let parsed: unknown = ctx.json
  if (parsed === undefined) {
    try {
      parsed = JSON.parse(ctx.body.toString('utf8'))
    } catch {
      const omitted: OmittedBody = { omitted: 'not_json', type, bytes: ctx.body.length, sha256: sha256(ctx.body) }
      return JSON.stringify(omitted)
    }
  }
  return bounded(clean(parsed), BODY_LIMITS.requestBytes, ctx.body, type)
}

function answerOf(ctx: RequestContext, tap: AnswerTap, clean: (v: unknown) => unknown): CapturedExchange['answer'] {
  const contentType = ctx.res.getHeader('content-type')
  const type = contentType === undefined ? null : String(contentType)
  const base = { status: ctx.res.statusCode, contentType: type, truncated: tap.truncated, bytes: tap.bytes }
  if (type?.startsWith('text/event-stream')) {
    // Events are kept while they fit the bound; the rest is cut off (truncated).
    const events: CapturedEvent[] = []
    let size = 0
    let truncated = tap.truncated
    for (const e of tap.events) {
      const kept = { ...e, data: clean(e.data) }
      size += Buffer.byteLength(JSON.stringify(kept))
      if (size > BODY_LIMITS.answerBytes) {
        truncated = true
        break
      }
      events.push(kept)
    }
    return { ...base, kind: 'sse', events, truncated }
  }
  if (tap.bytes === 0) return { ...base, kind: 'empty' }
  const whole = { bytes: tap.bytes, sha256: tap.hash.digest('hex') }
  if (type !== null && !type.includes('json')) {
    const omitted: OmittedBody = { omitted: 'binary', type, ...whole }
    return { ...base, kind: 'binary', body: omitted }
  }
  const raw = Buffer.concat(tap.chunks)
  let parsed: unknown
  try {
    parsed = JSON.parse(raw.toString('utf8'))
  } catch {
    const omitted: OmittedBody = { omitted: tap.truncated ? 'too_large' : 'not_json', type: type ?? '', ...whole }
    return { ...base, kind: 'json', body: omitted }
  }
  const kept = clean(parsed)
  const fits = Buffer.byteLength(JSON.stringify(kept) ?? 'null') <= BODY_LIMITS.answerBytes
  return { ...base, kind: 'json', body: fits ? kept : ({ omitted: 'too_large', type: type ?? '', ...whole } satisfies OmittedBody) }
}

/** The stored row: the request, the answer, the timings; every string redacted, media described unless kept. */
function exchangeRow(ctx: RequestContext, tap: AnswerTap, keepMedia: boolean) {
  const text = textRedactor(ctx)
  const clean = (v: unknown) => (keepMedia ? mapStrings(v, text) : stripMedia(v, text))
  const doneAt = performance.now()
  const since = (at: number | undefined) => (at === undefined ? null : round(at - ctx.startedAt))
  const request: Omit<CapturedExchange['request'], 'body'> = { method: ctx.req.method ?? 'GET', path: text(ctx.req.url ?? ctx.path), headers: headersOf(ctx) }
  const answer = {
    ...answerOf(ctx, tap, clean),
    timings: { queueMs: since(tap.handlerAt), firstByteMs: since(tap.firstByteAt), firstTokenMs: since(tap.firstEventAt), totalMs: round(doneAt - ctx.startedAt) },
  }
  // CapturedExchange['request'] as text, its body put in as it was serialized: the same text as JSON.stringify of the whole.
  const requestText = `${JSON.stringify(request).slice(0, -1)},"body":${requestBody(ctx, clean)}}`
  const answerText = JSON.stringify(answer)
  return { request_id: ctx.id, created_at: Date.now(), bytes: Buffer.byteLength(requestText) + Buffer.byteLength(answerText), request: requestText, answer: answerText }
}
