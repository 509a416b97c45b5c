// The Anthropic messages adapter's transforms, fed real recorded answers from test/fixtures/recorded/anthropic/.
import { describe, expect, it } from 'vitest'
import { anthropicCountTokens, anthropicMessages, DEFAULT_VERSION, fromAnthropicError } from '../../../../electron/gateway/upstreams/anthropic.js'
import { recordedBytes, recordedChunks } from '../../../fakes/replay.js'
import { ctxOf, recordedEvents, translate } from './adapter-kit.js'

const ctx = ctxOf('anthropic', 'https://api.anthropic.com', 'claude-sonnet-4-5', 'claude')
const text = (file: string) => recordedBytes(file).toString('utf8')
const body = { model: 'claude-sonnet-4-5', max_tokens: 1024, messages: [{ role: 'user', content: 'Hello' }] }

describe('request building', () => {
  it("POSTs /v1/messages with the account's x-api-key (no bearer) and the SDK's default anthropic-version", () => {
    expect(anthropicMessages.toRequest(body, ctx)).toEqual({
      method: 'POST',
      url: 'https://api.anthropic.com/v1/messages',
      headers: { 'x-api-key': 'anthropic-account-key', 'anthropic-version': DEFAULT_VERSION, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(body),
    })
    expect(DEFAULT_VERSION).toBe('2023-06-01')
  })

  it("passes the client's anthropic-version and anthropic-beta through (several beta headers joined)", () => {
    const spec = anthropicMessages.toRequest(body, { ...ctx, clientHeaders: { 'anthropic-version': '2024-10-22', 'anthropic-beta': ['interleaved-thinking-2025-05-14', 'context-1m-2025-08-07'] } })
    expect(spec.headers).toMatchObject({ 'anthropic-version': '2024-10-22', 'anthropic-beta': 'interleaved-thinking-2025-05-14,context-1m-2025-08-07' })
  })

  it('count_tokens goes to its own path, and its answer is relayed without usage', () => {
    expect(anthropicCountTokens.toRequest(body, ctx).url).toBe('https://api.anthropic.com/v1/messages/count_tokens')
    expect(anthropicCountTokens.fromResponse('{"input_tokens":12}', ctx)).toEqual({ body: '{"input_tokens":12}' })
  })
})

describe('answers (recorded JSON)', () => {
  it('text and a tool use: the body unchanged, its usage, and its output text (text, then the tool input)', () => {
    const file = 'anthropic/anthropic-tool-no-args.json'
    const result = anthropicMessages.fromResponse(text(file), ctx)
    expect(result.body).toBe(text(file))
    expect(result.usage).toMatchObject({ inputTokens: 602, cachedInputTokens: 0, outputTokens: 93 })
    expect(result.outputText!()).toBe(`${(JSON.parse(text(file)) as { content: Array<{ text: string }> }).content[0]!.text}\n{}`)
  })

  it('a thinking block: counted as output with the tool input, and its thinking tokens are said to be reasoning', () => {
    const result = anthropicMessages.fromResponse(text('anthropic/issue-13430-thinking-tool-call.json'), ctx)
    expect(result.usage).toMatchObject({ inputTokens: 599, outputTokens: 59, reasoningTokens: 18 })
    expect(result.outputText!()).toBe('The user wants me to call checkSandboxErrors immediately.\n{}')
  })

  it('a body that is not JSON throws', () => {
    expect(() => anthropicMessages.fromResponse('upstream connect error', ctx)).toThrow(SyntaxError)
  })
})

describe('streams (recorded events)', () => {
  it('every event goes out as recorded under its own event name; usage joins message_start and message_delta', () => {
    const file = 'anthropic/anthropic-tool-no-args.chunks.txt'
    const translator = anthropicMessages.streamTranslator({ includeUsage: false }, ctx)
    const frames = translate(translator, recordedEvents(file, true))
    expect(frames).toEqual(recordedChunks(file).map((data) => `event: ${(JSON.parse(data) as { type: string }).type}\ndata: ${data}\n\n`))
    expect(translator.finished()).toBe(true)
    expect(translator.hasContent()).toBe(true)
    expect(translator.usage()).toMatchObject({ inputTokens: 565, outputTokens: 48, cachedInputTokens: 0 })
    expect(translator.producedText()).toBe("I'll update the issue list for you.")
  })

  it("events without an event: line are named by their payload's type", () => {
    const file = 'anthropic/anthropic-text.chunks.txt'
    const frames = translate(anthropicMessages.streamTranslator({ includeUsage: false }, ctx), recordedEvents(file))
    expect(frames.map((f) => f.slice(0, f.indexOf('\n')))).toEqual(recordedChunks(file).map((data) => `event: ${(JSON.parse(data) as { type: string }).type}`))
  })

  it('until message_delta the output count is unknown; a body that ends after the stop reason gets message_stop written', () => {
    const events = recordedEvents('anthropic/anthropic-text.chunks.txt', true)
    const translator = anthropicMessages.streamTranslator({ includeUsage: false }, ctx)
    translate(translator, events.slice(0, 5))
    expect(translator.usage()).toBeUndefined()
    expect(translator.endOfAnswer!(undefined)).toBeUndefined()
    translate(translator, events.slice(5, -1))
    expect(translator.finished()).toBe(false)
    expect(translator.endOfAnswer!(undefined)).toEqual(['event: message_stop\ndata: {"type":"message_stop"}\n\n'])
    expect(translator.finished()).toBe(true)
    expect(translator.usage()).toMatchObject({ inputTokens: 12, outputTokens: 30 })
  })

  it("before its end, usageSoFar is message_start's counts: every input class, the output as counted then", () => {
    const events = recordedEvents('anthropic/anthropic-text.chunks.txt', true)
    const translator = anthropicMessages.streamTranslator({ includeUsage: false }, ctx)
    expect(translator.usageSoFar!()).toBeUndefined()
    translate(translator, events.slice(0, 5))
    expect(translator.usage()).toBeUndefined()
    const start = (JSON.parse(events[0]!.data) as { message: { usage: { input_tokens: number; output_tokens: number } } }).message.usage
    expect(translator.usageSoFar!()).toMatchObject({ inputTokens: start.input_tokens, cachedInputTokens: 0, outputTokens: start.output_tokens })
    translate(translator, events.slice(5))
    expect(translator.usageSoFar!()).toEqual(translator.usage())
  })

  it('a message_start with cache reads and writes gives each class apart before the end', () => {
    const translator = anthropicMessages.streamTranslator({ includeUsage: false }, ctx)
    translator.push({ event: 'message_start', data: JSON.stringify({ type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', content: [], usage: { input_tokens: 12, output_tokens: 1, cache_read_input_tokens: 90_000, cache_creation_input_tokens: 400 } } }) })
    expect(translator.usage()).toBeUndefined()
    expect(translator.usageSoFar!()).toMatchObject({ inputTokens: 12, cachedInputTokens: 90_000, cacheWrite5mTokens: 400, outputTokens: 1 })
  })

  it("an error event ends the stream and is kept as the upstream's error with its status", () => {
    const translator = anthropicMessages.streamTranslator({ includeUsage: false }, ctx)
    const data = '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}'
    expect(translator.push({ event: 'error', data })).toEqual([`event: error\ndata: ${data}\n\n`])
    expect(translator.finished()).toBe(true)
    expect(translator.upstreamError?.()).toMatchObject({ kind: 'upstream_error', status: 529, type: 'overloaded_error', message: 'Overloaded' })
  })
})

describe('errors', () => {
  it("Anthropic's error body keeps the vendor's status, type and message", () => {
    expect(fromAnthropicError(400, '{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: Field required"}}'))
      .toMatchObject({ kind: 'invalid_request', status: 400, type: 'invalid_request_error', message: 'max_tokens: Field required' })
    expect(fromAnthropicError(529, '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}')).toMatchObject({ kind: 'upstream_error', status: 529, type: 'overloaded_error', retryable: true })
    expect(fromAnthropicError(502, '')).toMatchObject({ kind: 'upstream_error', status: 502, message: 'upstream answered HTTP 502' })
  })
})
