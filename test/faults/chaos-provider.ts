// The chaos provider: an OpenAI chat-completions server (JSON and SSE, `stream_options.include_usage`) that breaks in
// the sixteen documented ways of the failover issue (README "The sixteen failure cases"), chosen by the MODEL NAME,
// per account: the account is read from the API key (CHAOS_KEYS), the primary misbehaves, the secondary answers
// (except where a case says both do). Every call is recorded with its time, account and model, so a test can count
// the attempts per account and their spacing. Served on any path ending in `/chat/completions` (OpenAI's, and
// DashScope's compatible mode, whose Partial mode it speaks: an assistant message last is a prefix to continue), and
// for the messages-protocol continuation cases on any path ending in `/v1/messages` (CHAOS_MESSAGES_MODELS).
// Built on the fakes' scenario engine (../fakes/scenarios.ts): its server, plumbing and faults.
import type http from 'node:http'
import {
  approxTokens, gone, openSse, parseJson, pause, playFault, readBody, sendJson as send, serveFake, splitText, textChars,
  writeFrames, type Fault,
} from '../fakes/scenarios.js'

type Res = http.ServerResponse

/** The two accounts of every model: an upstream account's API key starts with its account's key. */
export const CHAOS_KEYS = { primary: 'sk-chaos-primary', secondary: 'sk-chaos-secondary' } as const
export type ChaosAccount = keyof typeof CHAOS_KEYS

/** The sixteen cases, by number: the model whose calls play it. */
export const CHAOS_MODELS = {
  1: 'chaos-429-retry-after',
  2: 'chaos-429',
  3: 'chaos-500-once',
  4: 'chaos-503',
  5: 'chaos-reset-once',
  6: 'chaos-no-response',
  7: 'chaos-late-first-token',
  8: 'chaos-cut',
  9: 'chaos-stall',
  10: 'chaos-malformed-chunk',
  11: 'chaos-no-done',
  12: 'chaos-context-length',
  13: 'chaos-content-filter',
  14: 'chaos-prefill-refused',
  15: 'chaos-outage',
  16: 'chaos-all-503',
} as const
/** Models that always answer: the larger model of case 12, the fallback of case 16. */
export const CHAOS_HEALTHY = { large: 'chaos-large', served: 'chaos-served' } as const

/**
 * The same provider on Anthropic's Messages protocol (any path ending in `/v1/messages`, the account read from
 * `x-api-key`): the primary of `cut` and `cutSpace` cuts its stream after `cutAfter` tokens (`cutSpace` splits its
 * text with the whitespace after each word, so the cut text ends in a space); the secondary answers whole, and
 * continues an assistant message last (a prefill) with the rest of the answer. As Anthropic does, a prefill that ends
 * in whitespace is refused with a 400, and so is any prefill to `refused` (as Claude models from 4.6 on answer).
 */
export const CHAOS_MESSAGES_MODELS = { cut: 'chaos-claude-cut', cutSpace: 'chaos-claude-cut-space', refused: 'chaos-claude-prefill-refused' } as const
const anthropicError = (type: string, message: string) => ({ type: 'error', error: { type, message } })
export const TRAILING_WHITESPACE_ERROR = anthropicError('invalid_request_error', 'messages: final assistant content cannot end with trailing whitespace')
export const NO_PREFILL_ERROR = anthropicError('invalid_request_error', 'This model does not support assistant message prefill. The conversation must end with a user message.')

/** How long the slow cases take (the figures by default). */
export interface ChaosTimes {
  /** case 1: the Retry-After of the one 429, in seconds */
  retryAfterS: number
  /** case 7: headers at once, the first token this long after */
  lateFirstTokenMs: number
  /** case 9: the silence after the first `cutAfter` tokens, the connection open; then the socket is cut */
  stallMs: number
  /** case 15: the primary answers 503 this long after its first call */
  outageMs: number
  /** cases 8, 9, 14: content tokens sent before the cut or stall */
  cutAfter: number
  /** tokens of a whole answer */
  answerTokens: number
}
export const CHAOS_TIMES: ChaosTimes = { retryAfterS: 2, lateFirstTokenMs: 20_000, stallMs: 30_000, outageMs: 60_000, cutAfter: 40, answerTokens: 60 }

export interface ChaosProviderCall {
  /** Date.now() when the call's body had arrived */
  at: number
  account: ChaosAccount | 'unknown'
  model: string
  stream: boolean
  /** the prefix of an assistant message last (a continuation), if any */
  prefix?: string
  body: any
}

export interface ChaosProvider {
  /** origin; `${origin}/v1` is the OpenAI base URL, the origin itself DashScope's */
  origin: string
  times: ChaosTimes
  calls: ChaosProviderCall[]
  /** the calls of one model, on one account or both */
  callsOf(model: string, account?: ChaosAccount): ChaosProviderCall[]
  /** the whole answer of a model: `answerTokens` tokens ("<model>: w2 w3 …"), each one stream chunk */
  answer(model: string): string
  close(): Promise<void>
}

const JSON_TYPE = 'application/json'
const error = (message: string, type: string, param: string | null, code: string | null) => ({ error: { message, type, param, code } })
const SERVER_ERRORS: Record<number, ReturnType<typeof error>> = {
  429: error('Rate limit reached for requests. Please try again later.', 'requests', null, 'rate_limit_exceeded'),
  500: error('The server had an error while processing your request. Sorry about that!', 'server_error', null, null),
  503: error('The engine is currently overloaded, please try again later.', 'server_error', null, null),
}
export const CONTEXT_LENGTH_ERROR = error(
  "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens. Please reduce the length of the messages.",
  'invalid_request_error', 'messages', 'context_length_exceeded',
)
export const CONTENT_FILTER_ERROR = error(
  "The response was filtered due to the prompt triggering the content management policy. Please modify your prompt and retry.",
  'invalid_request_error', 'prompt', 'content_filter',
)
export const PREFILL_REFUSED_ERROR = error('Partial mode is not supported by this model.', 'invalid_request_error', 'messages', 'invalid_parameter_error')

const status = (code: number, headers?: Record<string, string>): Fault => ({ kind: 'status', status: code, body: SERVER_ERRORS[code], headers })

interface Call {
  res: Res
  model: string
  stream: boolean
  includeUsage: boolean
  promptTokens: number
  signal: AbortSignal
}

function chunk(c: Call, id: string, delta: object, finish: string | null = null) {
  return { id, object: 'chat.completion.chunk', created: 1_760_000_000, model: c.model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...(c.includeUsage ? { usage: null } : {}) }
}
const usageOf = (prompt: number, completion: number) => ({ prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion })
const frame = (payload: unknown) => `data: ${JSON.stringify(payload)}\n\n`

/** The frames of a streamed answer of `pieces` (each one token): role, content, finish, usage if asked, [DONE] unless `noDone`. */
function streamFrames(c: Call, pieces: string[], opts: { noDone?: boolean } = {}): { head: string[]; content: string[]; tail: string[] } {
  const id = `chatcmpl-chaos-${c.model}`
  const tail = [frame(chunk(c, id, {}, 'stop'))]
  if (c.includeUsage) tail.push(frame({ id, object: 'chat.completion.chunk', created: 1_760_000_000, model: c.model, choices: [], usage: usageOf(c.promptTokens, pieces.length) }))
  if (!opts.noDone) tail.push('data: [DONE]\n\n')
  return { head: [frame(chunk(c, id, { role: 'assistant', content: '' }))], content: pieces.map((content) => frame(chunk(c, id, { content }))), tail }
}

async function write(c: Call, frames: string[]): Promise<void> {
  if (!c.res.headersSent) openSse(c.res)
  await writeFrames(c.res, frames, 0, c.signal)
}
const end = (c: Call) => void (gone(c.res) || c.res.end())

/** The whole answer of `text`: JSON, or a stream whose chunks are its tokens. */
async function answer(c: Call, text: string): Promise<void> {
  const pieces = splitText(text)
  if (!c.stream) {
    return send(c.res, 200, {
      id: `chatcmpl-chaos-${c.model}`, object: 'chat.completion', created: 1_760_000_000, model: c.model,
      choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null }, logprobs: null, finish_reason: 'stop' }],
      usage: usageOf(c.promptTokens, pieces.length),
    }, JSON_TYPE)
  }
  const { head, content, tail } = streamFrames(c, pieces)
  await write(c, [...head, ...content, ...tail])
  end(c)
}

export async function startChaosProvider(times: Partial<ChaosTimes> = {}): Promise<ChaosProvider> {
  const t: ChaosTimes = { ...CHAOS_TIMES, ...times }
  const calls: ChaosProviderCall[] = []
  const aborter = new AbortController()
  // The model's name, then w2 … wN: one token a word.
  const answerOf = (model: string) => [`${model}:`, ...Array.from({ length: t.answerTokens - 1 }, (_, i) => `w${i + 2}`)].join(' ')
  /** when each model's primary was first called (case 15's outage starts then) */
  const firstCall = new Map<string, number>()

  /** What the primary of `model` plays on its `n`-th call (0-based); undefined: the whole answer. */
  async function primary(c: Call, n: number): Promise<Fault | 'done' | undefined> {
    const model = c.model
    const pieces = splitText(answerOf(model))
    switch (model) {
      case CHAOS_MODELS[1]: return n === 0 ? status(429, { 'retry-after': String(t.retryAfterS) }) : undefined
      case CHAOS_MODELS[2]: return status(429)
      case CHAOS_MODELS[3]: return n === 0 ? status(500) : undefined
      case CHAOS_MODELS[4]: return status(503)
      case CHAOS_MODELS[5]: return n === 0 ? { kind: 'reset' } : undefined
      case CHAOS_MODELS[6]: return { kind: 'stall' }
      case CHAOS_MODELS[7]: {
        if (!c.stream) {
          await pause(t.lateFirstTokenMs, c.signal)
          return gone(c.res) ? 'done' : undefined
        }
        const { head, content, tail } = streamFrames(c, pieces)
        await write(c, head)
        await pause(t.lateFirstTokenMs, c.signal)
        await write(c, [...content, ...tail])
        end(c)
        return 'done'
      }
      case CHAOS_MODELS[8]:
      case CHAOS_MODELS[9]:
      case CHAOS_MODELS[14]: {
        if (!c.stream) return { kind: 'break_after', chunks: t.cutAfter }
        const { head, content } = streamFrames(c, pieces)
        await write(c, [...head, ...content.slice(0, t.cutAfter)])
        if (model === CHAOS_MODELS[9]) await pause(t.stallMs, c.signal)
        c.res.socket?.destroy()
        return 'done'
      }
      case CHAOS_MODELS[10]: {
        if (!c.stream) return undefined
        const { head, content, tail } = streamFrames(c, pieces)
        const half = content.length >> 1
        await write(c, [...head, ...content.slice(0, half), 'data: {"id":"chatcmpl-chaos","choices":[{"delta":{"content":"w\n\n', ...content.slice(half), ...tail])
        end(c)
        return 'done'
      }
      case CHAOS_MODELS[11]: {
        if (!c.stream) return undefined
        const { head, content, tail } = streamFrames(c, pieces, { noDone: true })
        await write(c, [...head, ...content, ...tail])
        end(c)
        return 'done'
      }
      case CHAOS_MODELS[15]: {
        const since = Date.now() - (firstCall.get(model) ?? Date.now())
        return since < t.outageMs ? status(503) : undefined
      }
      default: return undefined
    }
  }

  /** A call as recorded: its account (by the key it came with), model, stream flag and the prefix it asks to continue. */
  function record(key: string, body: any): ChaosProviderCall & { messages: any[]; last: any } {
    const account: ChaosAccount | 'unknown' = key.startsWith(CHAOS_KEYS.primary) ? 'primary' : key.startsWith(CHAOS_KEYS.secondary) ? 'secondary' : 'unknown'
    const messages: any[] = Array.isArray(body?.messages) ? body.messages : []
    const last = messages.at(-1)
    const prefix = last?.role === 'assistant' && typeof last.content === 'string' ? last.content : undefined
    const call: ChaosProviderCall = { at: Date.now(), account, model: String(body?.model ?? ''), stream: body?.stream === true, prefix, body }
    calls.push(call)
    return { ...call, messages, last }
  }

  /** Anthropic's Messages protocol (CHAOS_MESSAGES_MODELS). */
  async function messagesProtocol(req: http.IncomingMessage, res: Res, body: any): Promise<void> {
    const { account, model, stream, prefix, messages: list } = record(String(req.headers['x-api-key'] ?? ''), body)
    if (account === 'unknown') return send(res, 401, anthropicError('authentication_error', 'invalid x-api-key'), JSON_TYPE)
    if (!body || !model || list.length === 0 || !stream) return send(res, 400, anthropicError('invalid_request_error', 'model, messages and stream: true are required here'), JSON_TYPE)
    const whole = answerOf(model)
    if (prefix !== undefined && /\s$/.test(prefix)) return send(res, 400, TRAILING_WHITESPACE_ERROR, JSON_TYPE)
    if (prefix !== undefined && model === CHAOS_MESSAGES_MODELS.refused) return send(res, 400, NO_PREFILL_ERROR, JSON_TYPE)
    const text = prefix === undefined ? whole : whole.startsWith(prefix) ? whole.slice(prefix.length) : whole
    const pieces = model === CHAOS_MESSAGES_MODELS.cutSpace ? text.split(/(?<=\s)/).filter(Boolean) : splitText(text)
    const promptTokens = approxTokens(textChars(list))
    const event = (data: { type: string; [member: string]: unknown }) => `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`
    const head = [
      event({ type: 'message_start', message: { id: `msg_chaos_${account}`, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: promptTokens, output_tokens: 1 } } }),
      event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      event({ type: 'ping' }),
    ]
    const content = pieces.map((piece) => event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: piece } }))
    openSse(res)
    if (account === 'primary' && prefix === undefined) {
      await writeFrames(res, [...head, ...content.slice(0, t.cutAfter)], 0, aborter.signal)
      res.socket?.destroy()
      return
    }
    const tail = [
      event({ type: 'content_block_stop', index: 0 }),
      event({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: pieces.length } }),
      event({ type: 'message_stop' }),
    ]
    await writeFrames(res, [...head, ...content, ...tail], 0, aborter.signal)
    if (!gone(res)) res.end()
  }

  async function handle(req: http.IncomingMessage, res: Res): Promise<void> {
    const raw = (await readBody(req)).toString('utf8')
    const parsed = parseJson(raw)
    const body = parsed.ok ? parsed.value : undefined
    if ((req.url ?? '').split('?')[0].endsWith('/v1/messages')) return messagesProtocol(req, res, body)
    const { account, model, stream, prefix, messages, last } = record(String(req.headers.authorization ?? '').replace(/^Bearer /, ''), body)
    const path = (req.url ?? '/').split('?')[0]
    if (req.method !== 'POST' || !path.endsWith('/chat/completions')) return send(res, 404, error(`Invalid URL (${req.method} ${path})`, 'invalid_request_error', null, null), JSON_TYPE)
    if (account === 'unknown') return send(res, 401, error('Incorrect API key provided.', 'invalid_request_error', null, 'invalid_api_key'), JSON_TYPE)
    if (!body || !model || messages.length === 0) return send(res, 400, error('you must provide a model parameter and messages', 'invalid_request_error', null, null), JSON_TYPE)
    const c: Call = {
      res, model, stream, includeUsage: stream && body.stream_options?.include_usage === true,
      promptTokens: approxTokens(textChars(messages)), signal: aborter.signal,
    }
    const wire = { res, stream, signal: aborter.signal, jsonType: JSON_TYPE }

    // Both accounts of these models answer the same.
    if (model === CHAOS_MODELS[12]) return send(res, 400, CONTEXT_LENGTH_ERROR, JSON_TYPE)
    if (model === CHAOS_MODELS[13]) return send(res, 400, CONTENT_FILTER_ERROR, JSON_TYPE)
    if (model === CHAOS_MODELS[16]) return playFault(status(503), wire)

    const whole = answerOf(model)
    if (prefix !== undefined) {
      // A continuation (DashScope's Partial mode): the rest of the answer after the prefix, or the model's refusal.
      if (model === CHAOS_MODELS[14] || last.partial !== true) return send(res, 400, PREFILL_REFUSED_ERROR, JSON_TYPE)
      return answer(c, whole.startsWith(prefix) ? whole.slice(prefix.length) : whole)
    }
    if (account === 'primary') {
      const n = calls.filter((x) => x.account === 'primary' && x.model === model).length - 1
      if (n === 0) firstCall.set(model, Date.now())
      const play = await primary(c, n)
      if (play === 'done') return
      if (play !== undefined) {
        return playFault(play, {
          ...wire,
          partialStream: () => [],
          fullBody: () => JSON.stringify({ id: 'chatcmpl-chaos', object: 'chat.completion', model, choices: [{ index: 0, message: { role: 'assistant', content: whole }, finish_reason: 'stop' }] }),
        })
      }
    }
    return answer(c, whole)
  }

  const crash = (res: Res, err: unknown) => send(res, 500, error(`chaos provider crashed: ${String(err)}`, 'server_error', null, null), JSON_TYPE)
  const { origin, close } = await serveFake(handle, crash, aborter)
  return {
    origin,
    times: t,
    calls,
    callsOf: (model, account) => calls.filter((c) => c.model === model && (account === undefined || c.account === account)),
    answer: answerOf,
    close,
  }
}
