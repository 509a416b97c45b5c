// A misbehaving upstream for the fault suite: one node:http server on 127.0.0.1 that speaks OpenAI chat completions
// (JSON and SSE), Anthropic messages (JSON and SSE) and OpenAI images JSON, and misbehaves as scripted, call by call.
// Wire shapes follow ../../docs/vendors/openai.md and anthropic.md; the fakes in test/fakes/ are the healthy twins.
import http from 'node:http'
import { setTimeout as sleep } from 'node:timers/promises'
import { listenLocal } from '../fakes/listen-local.js'

export type ChaosMode =
  | 'ok'
  /** the socket is destroyed before any byte of the answer */
  | 'reset_before_bytes'
  /** SSE: a content delta, then the socket is destroyed; JSON: half the body, then the same */
  | 'drop_mid_stream'
  /** no answer at all: the request hangs until the gateway gives up */
  | 'stall_before_headers'
  /** SSE: a content delta, then silence; JSON: half the body, then silence */
  | 'stall_mid_body'
  /** SSE: one error event of a server error (overloaded), nothing else; JSON: the matching HTTP error */
  | 'error_event_only'
  /** SSE: one error event of a client error (invalid request), nothing else; JSON: the matching HTTP 400 */
  | 'client_error_event_only'
  /** SSE: only the protocol's end (`data: [DONE]`, or `message_stop`) */
  | 'done_only'
  /** SSE: the frames before content (role chunk; message_start, block start, ping), then EOF; JSON: an empty 200 body */
  | 'eof_before_content'
  /** SSE: the frames before content, then a keepalive comment every 50 ms and never any content */
  | 'prelude_forever'
  /** JSON: a 200 answer with a field nested 100,000 levels deep */
  | 'deep_json'
  /** a complete answer whose usage is negative, 1e15, or not numbers */
  | 'negative_usage'
  | 'huge_usage'
  | 'nan_usage'
  /** a 200 whose JSON (or every SSE frame's JSON) does not parse */
  | 'malformed_json'
  /** 400 whose error message echoes the request's Authorization (or x-api-key) header */
  | 'echo_auth_400'
  /** images: b64_json holds SVG bytes */
  | 'svg_image'
  /** images: a PNG whose IHDR claims 100000 x 100000 pixels */
  | 'lying_png'

export const ANSWER_TEXT = 'Hello from the chaos upstream.'
const STALL_MS = 30_000

/** [prompt, completion] usage figures per mode; the rest report plausible usage. */
const BAD_USAGE: Partial<Record<ChaosMode, [unknown, unknown]>> = {
  negative_usage: [-400_000_000, -400_000_000],
  huge_usage: [1e15, 1e15],
  nan_usage: ['NaN', 'twelve'],
}

export interface ChaosCall {
  path: string
  headers: http.IncomingHttpHeaders
  body: any
}

export interface ChaosUpstream {
  /** origin: the Anthropic base URL; `${origin}/v1` is the OpenAI one */
  origin: string
  calls: ChaosCall[]
  setMode(mode: ChaosMode): void
  /** modes for the next calls, in order, before the default mode applies again */
  once(...modes: ChaosMode[]): void
  reset(): void
  close(): Promise<void>
}

type Res = http.ServerResponse

/** What one protocol sends: its answer, stream frames, error shapes. */
interface Dialect {
  json(model: string, usage: [unknown, unknown]): object
  /** frames before any content */
  prelude(model: string, usage: [unknown, unknown]): string[]
  /** content frames, then the frames that end the answer (usage included) */
  content(model: string): string[]
  end(model: string, usage: [unknown, unknown]): string[]
  errorEvent(kind: 'server' | 'client'): string
  errorBody(status: number, message: string): object
  doneOnly: string
}

const data = (payload: unknown) => `data: ${JSON.stringify(payload)}\n\n`
const event = (type: string, payload: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`
const words = ANSWER_TEXT.split(/(?=\s)/)

const chat: Dialect = {
  json: (model, [prompt, completion]) => ({
    id: 'chatcmpl-chaos', object: 'chat.completion', created: 1, model,
    choices: [{ index: 0, message: { role: 'assistant', content: ANSWER_TEXT }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: 0 },
  }),
  prelude: (model) => [data(chunk(model, { role: 'assistant', content: '' }, null))],
  content: (model) => words.map((content) => data(chunk(model, { content }, null))),
  end: (model, [prompt, completion]) => [
    data(chunk(model, {}, 'stop')),
    data({ id: 'chatcmpl-chaos', object: 'chat.completion.chunk', created: 1, model, choices: [], usage: { prompt_tokens: prompt, completion_tokens: completion } }),
    'data: [DONE]\n\n',
  ],
  errorEvent: (kind) => data({ error: kind === 'server'
    ? { message: 'The server is overloaded.', type: 'server_error', param: null, code: null }
    : { message: 'Invalid value for temperature.', type: 'invalid_request_error', param: 'temperature', code: 'invalid_value' } }),
  errorBody: (status, message) => ({ error: { message, type: status >= 500 ? 'server_error' : 'invalid_request_error', param: null, code: null } }),
  doneOnly: 'data: [DONE]\n\n',
}

function chunk(model: string, delta: object, finish: string | null) {
  return { id: 'chatcmpl-chaos', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] }
}

const messages: Dialect = {
  json: (model, [input, output]) => ({
    id: 'msg_chaos', type: 'message', role: 'assistant', model, content: [{ type: 'text', text: ANSWER_TEXT }],
    stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: input, output_tokens: output },
  }),
  prelude: (model, [input]) => [
    event('message_start', { message: { id: 'msg_chaos', type: 'message', role: 'assistant', model, content: [], stop_reason: null, usage: { input_tokens: input, output_tokens: 1 } } }),
    event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    event('ping', {}),
  ],
  content: () => words.map((text) => event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } })),
  end: (_model, [, output]) => [
    event('content_block_stop', { index: 0 }),
    event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: output } }),
    event('message_stop', {}),
  ],
  errorEvent: (kind) => event('error', { error: kind === 'server'
    ? { type: 'overloaded_error', message: 'Overloaded' }
    : { type: 'invalid_request_error', message: 'temperature: must be at most 1' } }),
  errorBody: (status, message) => ({ type: 'error', error: { type: status >= 500 ? 'api_error' : 'invalid_request_error', message } }),
  doneOnly: event('message_stop', {}),
}

/** A PNG signature and IHDR chunk claiming `width` x `height`, and nothing else. */
function lyingPng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(25)
  ihdr.writeUInt32BE(13, 0)
  ihdr.write('IHDR', 4, 'latin1')
  ihdr.writeUInt32BE(width, 8)
  ihdr.writeUInt32BE(height, 12)
  ihdr.set([8, 6, 0, 0, 0], 16)
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr])
}
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><script>alert(1)</script><rect width="64" height="64"/></svg>'

function sendJson(res: Res, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
  res.end(text)
}

const gone = (res: Res) => res.destroyed || (res.socket?.destroyed ?? true)

async function writeAll(res: Res, frames: string[]): Promise<void> {
  if (!res.headersSent) {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' })
    res.flushHeaders()
  }
  for (const frame of frames) {
    if (gone(res)) return
    await new Promise<void>((resolve) => res.write(frame, () => resolve()))
  }
}

/** The prompt tokens every answer with plausible usage reports (a messages stream in its message_start). */
export const CHAOS_PROMPT_TOKENS = 12

const usageOf = (mode: ChaosMode): [unknown, unknown] => BAD_USAGE[mode] ?? [CHAOS_PROMPT_TOKENS, words.length]

async function answerStream(res: Res, d: Dialect, model: string, mode: ChaosMode, signal: AbortSignal): Promise<void> {
  const usage = usageOf(mode)
  const firstContent = [...d.prelude(model, usage), d.content(model)[0]]
  switch (mode) {
    case 'drop_mid_stream': await writeAll(res, firstContent); return void res.socket?.destroy()
    case 'stall_mid_body': await writeAll(res, firstContent); return void (await sleep(STALL_MS, undefined, { signal }).catch(() => {}))
    case 'error_event_only': await writeAll(res, [d.errorEvent('server')]); break
    case 'client_error_event_only': await writeAll(res, [d.errorEvent('client')]); break
    case 'done_only': await writeAll(res, [d.doneOnly]); break
    case 'eof_before_content': await writeAll(res, d.prelude(model, usage)); break
    case 'prelude_forever':
      await writeAll(res, d.prelude(model, usage))
      // Bounded all the same: at most STALL_MS of keepalives, or until the gateway gives up.
      for (let i = 0; i < STALL_MS / 50 && !gone(res) && !signal.aborted; i++) {
        await sleep(50, undefined, { signal }).catch(() => {})
        await writeAll(res, [': keepalive\n\n'])
      }
      break
    case 'malformed_json': await writeAll(res, ['data: {"choices":[{"delta":{"content":"Hel\n\n', 'data: {not json}\n\n', 'data: [DONE]\n\n']); break
    default: await writeAll(res, [...d.prelude(model, usage), ...d.content(model), ...d.end(model, usage)])
  }
  if (!gone(res)) res.end()
}

async function answerJson(res: Res, d: Dialect, model: string, mode: ChaosMode, signal: AbortSignal): Promise<void> {
  const text = JSON.stringify(d.json(model, usageOf(mode)))
  const half = async () => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
    await new Promise<void>((resolve) => res.write(text.slice(0, text.length >> 1), () => resolve()))
  }
  switch (mode) {
    case 'deep_json': return sendJson(res, 200, `${text.slice(0, -1)},"extra":${'['.repeat(100_000)}${']'.repeat(100_000)}}`)
    case 'drop_mid_stream': await half(); return void res.socket?.destroy()
    case 'stall_mid_body': await half(); return void (await sleep(STALL_MS, undefined, { signal }).catch(() => {}))
    case 'error_event_only': return sendJson(res, 500, d.errorBody(500, 'The server is overloaded.'))
    case 'client_error_event_only': return sendJson(res, 400, d.errorBody(400, 'Invalid value for temperature.'))
    case 'eof_before_content': case 'done_only': return sendJson(res, 200, '')
    case 'malformed_json': return sendJson(res, 200, text.slice(0, -7))
    default: return sendJson(res, 200, text)
  }
}

function answerImages(res: Res, mode: ChaosMode): void {
  const bytes = mode === 'svg_image' ? Buffer.from(SVG) : lyingPng(100_000, 100_000)
  sendJson(res, 200, { created: 1, data: [{ b64_json: bytes.toString('base64') }], usage: { input_tokens: 5, output_tokens: 10, total_tokens: 15 } })
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = []
    req.on('data', (c: Buffer) => parts.push(c))
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')))
    req.on('error', reject)
  })
}

const DIALECTS: Record<string, Dialect> = { '/v1/chat/completions': chat, '/v1/messages': messages }

export async function startChaosUpstream(): Promise<ChaosUpstream> {
  let mode: ChaosMode = 'ok'
  const queue: ChaosMode[] = []
  const calls: ChaosCall[] = []
  const aborter = new AbortController()

  async function handle(req: http.IncomingMessage, res: Res): Promise<void> {
    // A stall ends when its client leaves (the gateway gave up on it) or the fake closes: none outlives its request.
    const ended = new AbortController()
    const end = () => ended.abort()
    aborter.signal.addEventListener('abort', end, { once: true })
    res.once('close', () => {
      aborter.signal.removeEventListener('abort', end)
      end()
    })
    const raw = await readBody(req)
    let body: any = raw
    try { body = JSON.parse(raw) } catch { /* kept raw */ }
    const path = (req.url ?? '/').split('?')[0]
    calls.push({ path, headers: { ...req.headers }, body })
    const current = queue.shift() ?? mode
    const dialect = DIALECTS[path]
    if (current === 'reset_before_bytes') return void res.socket?.destroy()
    if (current === 'stall_before_headers') return void (await sleep(STALL_MS, undefined, { signal: ended.signal }).catch(() => {}))
    if (current === 'echo_auth_400') {
      const secret = String(req.headers.authorization ?? req.headers['x-api-key'] ?? '')
      return sendJson(res, 400, (dialect ?? chat).errorBody(400, `Invalid request for credentials ${secret}`))
    }
    if (path === '/v1/images/generations') return answerImages(res, current)
    if (!dialect) return sendJson(res, 404, chat.errorBody(404, `no route ${path}`))
    const model = String(body?.model ?? 'chaos')
    return body?.stream === true ? answerStream(res, dialect, model, current, ended.signal) : answerJson(res, dialect, model, current, ended.signal)
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch(() => res.destroy())
  })
  const listening = await listenLocal(server, aborter)
  return {
    origin: listening.origin,
    calls,
    setMode: (m) => void (mode = m),
    once: (...m) => void queue.push(...m),
    reset() { calls.length = 0; queue.length = 0; mode = 'ok' },
    close: listening.close,
  }
}
