// The Gemini Interactions adapter's transforms, on the shapes of docs/vendors/gemini.md "Interactions API" (no public
// recording of this beta API was found: test/fixtures/recorded/INDEX.md).
import { describe, expect, it } from 'vitest'
import { geminiInteractions } from '../../../../electron/gateway/upstreams/gemini-interactions.js'
import { ctxOf, translate } from './adapter-kit.js'

const ctx = ctxOf('gemini', 'https://generativelanguage.googleapis.com', 'gemini-omni-flash-preview', 'gemini-interactions')
const event = (payload: object) => ({ data: JSON.stringify(payload) })
const usage = { total_input_tokens: 120, total_output_tokens: 30, total_thought_tokens: 50, total_cached_tokens: 20, total_tool_use_tokens: 5, total_tokens: 205 }

describe('request building', () => {
  it("POSTs /v1beta/interactions with the account's x-goog-api-key; a stream asks for event-stream", () => {
    const body = { model: 'gemini-omni-flash-preview', input: 'Hello', stream: true }
    expect(geminiInteractions.toRequest(body, ctx)).toEqual({
      method: 'POST',
      url: 'https://generativelanguage.googleapis.com/v1beta/interactions',
      headers: { 'x-goog-api-key': 'gemini-account-key', 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(body),
    })
    expect(geminiInteractions.toRequest({ model: 'gemini-omni-flash-preview', input: 'Hello' }, ctx).headers.accept).toBe('application/json')
  })
})

describe('answers', () => {
  it('the interaction unchanged; thoughts billed as output, cached input apart, tool-use prompt tokens as input', () => {
    const text = JSON.stringify({ id: 'int_1', status: 'completed', outputs: [{ type: 'thought', thought: 'Greeting.' }, { type: 'text', text: 'Hi there!' }], usage })
    const result = geminiInteractions.fromResponse(text, ctx)
    expect(result.body).toBe(text)
    expect(result.usage).toMatchObject({ inputTokens: 120 - 20 + 5, cachedInputTokens: 20, outputTokens: 30 + 50, reasoningTokens: 50 })
    expect(result.outputText!()).toBe('Greeting.\nHi there!')
  })

  it('a body that is not JSON throws', () => {
    expect(() => geminiInteractions.fromResponse('not json', ctx)).toThrow(SyntaxError)
  })
})

describe('streams', () => {
  it('events relayed as they came; deltas are content; interaction.completed ends the stream with its usage', () => {
    const translator = geminiInteractions.streamTranslator({ includeUsage: false }, ctx)
    const events = [
      event({ event_type: 'interaction.created', interaction: { id: 'int_1', status: 'in_progress' } }),
      event({ event_type: 'interaction.status_update', status: 'in_progress' }),
      event({ event_type: 'step.start', index: 0, step: { type: 'text' } }),
      event({ event_type: 'step.delta', index: 0, delta: { type: 'text', text: 'Hi ' } }),
      event({ event_type: 'step.delta', index: 0, delta: { type: 'text', text: 'there!' } }),
      event({ event_type: 'step.stop', index: 0 }),
      event({ event_type: 'interaction.completed', interaction: { id: 'int_1', status: 'completed', usage } }),
    ]
    expect(translate(translator, events.slice(0, 3))).toEqual(events.slice(0, 3).map((e) => `data: ${e.data}\n\n`))
    expect(translator.hasContent()).toBe(false)
    translate(translator, events.slice(3, -1))
    expect(translator.hasContent()).toBe(true)
    expect(translator.finished()).toBe(false)
    translator.push(events.at(-1)!)
    expect(translator.finished()).toBe(true)
    expect(translator.producedText()).toBe('Hi there!')
    expect(translator.usage()).toMatchObject({ inputTokens: 105, cachedInputTokens: 20, outputTokens: 80 })
    expect(translator.push({ data: '[DONE]' })).toEqual(['data: [DONE]\n\n'])
  })

  it('the first generation of the API (content.delta) counts as content too', () => {
    const translator = geminiInteractions.streamTranslator({ includeUsage: false }, ctx)
    translator.push(event({ event_type: 'content.delta', index: 0, delta: { type: 'text', text: 'Hello' } }))
    expect(translator.hasContent()).toBe(true)
    expect(translator.producedText()).toBe('Hello')
  })

  it("an error event ends the stream as the upstream's error; a break is written as the protocol's error event", () => {
    const translator = geminiInteractions.streamTranslator({ includeUsage: false }, ctx)
    translator.push(event({ event_type: 'error', error: { code: 'unavailable', message: 'The model is overloaded.' } }))
    expect(translator.finished()).toBe(true)
    expect(translator.upstreamError?.()).toMatchObject({ kind: 'upstream_error', status: 503, message: 'The model is overloaded.' })
    expect(translator.errorFrame!('upstream_error', 'cut')).toBe('data: {"event_type":"error","error":{"code":"upstream_error","message":"cut"}}\n\n')
  })
})

describe('errors', () => {
  it("Gemini's error body keeps its status and message; the status name is the code", () => {
    expect(geminiInteractions.fromError(429, '{"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED"}}'))
      .toMatchObject({ kind: 'invalid_request', status: 429, code: 'resource_exhausted', message: 'Resource has been exhausted (e.g. check quota).' })
  })
})
