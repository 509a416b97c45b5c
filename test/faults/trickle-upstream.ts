// A healthy upstream that streams slowly, so a test can act while a stream runs: one content delta every `everyMs`,
// `deltas` of them, in OpenAI chat completions, OpenAI responses and Anthropic messages SSE (wire shapes of
// ../../docs/vendors/openai.md and anthropic.md, as the fakes in test/fakes/ send them). It reports no usage before
// the end, so an answer cut short is billed from the gateway's own count. Each call records how it ended.
import http from 'node:http'
import { setTimeout as sleep } from 'node:timers/promises'
import { listenLocal } from '../fakes/listen-local.js'

export interface TrickleCall {
  path: string
  /** content deltas written */
  deltas: number
  /** the whole answer was written */
  finished: boolean
  /** when the gateway closed the connection before the answer was complete (ms since the epoch) */
  cutAt?: number
}

export interface TrickleUpstream {
  /** the Anthropic base URL; `${origin}/v1` is the OpenAI one */
  origin: string
  calls: TrickleCall[]
  reset(): void
  close(): Promise<void>
}

/** The word of delta `i`: distinct words, so that a count of the text delivered is exact. */
export const trickleWord = (i: number) => `word${i} `

const data = (payload: object) => `data: ${JSON.stringify(payload)}\n\n`
const event = (type: string, payload: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`

/** Frames of one protocol: before the content, one content delta, and the end. */
interface Dialect {
  prelude(model: string): string[]
  delta(model: string, text: string, i: number): string
  end(model: string, deltas: number): string[]
}

const chatChunk = (model: string, delta: object, finish: string | null) =>
  data({ id: 'chatcmpl-trickle', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })

const chat: Dialect = {
  prelude: (model) => [chatChunk(model, { role: 'assistant', content: '' }, null)],
  delta: (model, text) => chatChunk(model, { content: text }, null),
  end: (model) => [chatChunk(model, {}, 'stop'), 'data: [DONE]\n\n'],
}

const at = { item_id: 'msg_trickle', output_index: 0, content_index: 0 }
const response = (model: string, status: string, usage: object | null) => ({ id: 'resp_trickle', object: 'response', created_at: 1, status, model, output: [], usage })
const responses: Dialect = {
  prelude: (model) => [event('response.created', { sequence_number: 0, response: response(model, 'in_progress', null) })],
  delta: (_model, text, i) => event('response.output_text.delta', { sequence_number: i + 1, ...at, delta: text }),
  end: (model, deltas) => [event('response.completed', { sequence_number: deltas + 1, response: response(model, 'completed', { input_tokens: 12, output_tokens: deltas, total_tokens: 12 + deltas }) })],
}

const messages: Dialect = {
  prelude: (model) => [
    event('message_start', { message: { id: 'msg_trickle', type: 'message', role: 'assistant', model, content: [], stop_reason: null, usage: { input_tokens: 12, output_tokens: 1 } } }),
    event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
  ],
  delta: (_model, text) => event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }),
  end: (_model, deltas) => [
    event('content_block_stop', { index: 0 }),
    event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: deltas } }),
    event('message_stop', {}),
  ],
}

const DIALECTS: Record<string, Dialect> = { '/v1/chat/completions': chat, '/v1/responses': responses, '/v1/messages': messages }

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = []
    req.on('data', (c: Buffer) => parts.push(c))
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')))
    req.on('error', reject)
  })
}

/** Streams `deltas` content deltas (default 200), one every `everyMs` (default 50): at most deltas × everyMs long. */
export async function startTrickleUpstream(opts: { everyMs?: number; deltas?: number } = {}): Promise<TrickleUpstream> {
  const everyMs = opts.everyMs ?? 50
  const total = opts.deltas ?? 200
  const calls: TrickleCall[] = []
  const aborter = new AbortController()

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const raw = await readBody(req)
    const path = (req.url ?? '/').split('?')[0]
    const dialect = DIALECTS[path]
    if (!dialect) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no route ${path}`, type: 'invalid_request_error' } }))
      return
    }
    const call: TrickleCall = { path, deltas: 0, finished: false }
    calls.push(call)
    res.on('close', () => {
      if (!call.finished) call.cutAt = Date.now()
    })
    const model = String((JSON.parse(raw) as { model?: unknown }).model ?? 'trickle')
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' })
    const write = (frame: string) => new Promise<void>((resolve) => res.write(frame, () => resolve()))
    for (const frame of dialect.prelude(model)) await write(frame)
    for (let i = 0; i < total; i++) {
      await sleep(everyMs, undefined, { signal: aborter.signal }).catch(() => {})
      if (call.cutAt !== undefined || aborter.signal.aborted) return
      await write(dialect.delta(model, trickleWord(i), i))
      call.deltas++
    }
    for (const frame of dialect.end(model, total)) await write(frame)
    call.finished = true
    res.end()
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch(() => res.destroy())
  })
  const listening = await listenLocal(server, aborter)
  return {
    origin: listening.origin,
    calls,
    reset: () => void (calls.length = 0),
    close: listening.close,
  }
}
