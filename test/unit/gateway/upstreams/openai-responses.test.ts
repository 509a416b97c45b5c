// The OpenAI Responses adapter's transforms (OpenAI, Azure, xAI), fed real recorded answers from
// test/fixtures/recorded/ (INDEX.md there).
import { describe, expect, it } from 'vitest'
import { openAIResponses } from '../../../../electron/gateway/upstreams/openai-responses.js'
import { recordedBytes, recordedChunks } from '../../../fakes/replay.js'
import { ctxOf, recordedEvents, translate } from './adapter-kit.js'

const responses = openAIResponses('/responses')
const ctx = ctxOf('openai', 'https://example-resource.openai.azure.com/openai/v1', 'gpt-5.1')
const text = (file: string) => recordedBytes(file).toString('utf8')

describe('request building', () => {
  it('POSTs the body as JSON to the base URL plus /responses with the account key as a bearer token', () => {
    expect(responses.toRequest({ model: 'gpt-5.1', input: 'Hi' }, ctx)).toEqual({
      method: 'POST',
      url: 'https://example-resource.openai.azure.com/openai/v1/responses',
      headers: { authorization: 'Bearer openai-account-key', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{"model":"gpt-5.1","input":"Hi"}',
    })
  })
})

describe('answers (recorded JSON)', () => {
  it("Azure's function call: the body unchanged, its usage, the call's arguments as the output counted", () => {
    const file = 'azure/azure-tool-call.1.json'
    const result = responses.fromResponse(text(file), ctx)
    expect(result.body).toBe(text(file))
    expect(result.usage).toMatchObject({ inputTokens: 45, cachedInputTokens: 0, outputTokens: 24 })
    expect(result.outputText!()).toBe('{"location":"San Francisco"}')
  })

  it('a body that is not JSON throws', () => {
    expect(() => responses.fromResponse('', ctx)).toThrow(SyntaxError)
  })
})

describe('streams (recorded events)', () => {
  it('every event is relayed as recorded with its event line; response.completed ends it with its usage', () => {
    const file = 'openai/issue-20047-openai-responses.chunks.txt'
    const translator = responses.streamTranslator({ includeUsage: false }, ctx)
    const events = recordedEvents(file, true)
    const frames = translate(translator, events.slice(0, -1))
    expect(translator.finished()).toBe(false)
    expect(translator.usage()).toBeUndefined()
    frames.push(...translator.push(events.at(-1)!))
    expect(frames).toEqual(recordedChunks(file).map((data) => `event: ${(JSON.parse(data) as { type: string }).type}\ndata: ${data}\n\n`))
    expect(translator.finished()).toBe(true)
    expect(translator.hasContent()).toBe(true)
    expect(translator.producedText()).toBe('OK')
    expect(translator.usage()).toMatchObject({ inputTokens: 12, cachedInputTokens: 0, outputTokens: 2 })
  })

  it('a break after the start is written as response.failed, numbered after the last event and naming the response', () => {
    const translator = responses.streamTranslator({ includeUsage: false }, ctx)
    translate(translator, recordedEvents('openai/issue-20047-openai-responses.chunks.txt', true).slice(0, 5))
    const frame = translator.errorFrame!('upstream_error', 'the upstream stopped answering')
    expect(frame.startsWith('event: response.failed\ndata: ')).toBe(true)
    expect(JSON.parse(frame.slice('event: response.failed\ndata: '.length))).toEqual({
      type: 'response.failed',
      sequence_number: 5,
      response: { id: 'resp_sanitized_streaming', object: 'response', status: 'failed', error: { code: 'upstream_error', message: 'the upstream stopped answering' }, output: [], usage: null },
    })
  })

  it("a response.failed event ends the stream and is kept as the upstream's error", () => {
    const translator = responses.streamTranslator({ includeUsage: false }, ctx)
    translator.push({ event: 'response.failed', data: '{"type":"response.failed","sequence_number":3,"response":{"id":"resp_1","status":"failed","error":{"code":"server_error","message":"The model failed to generate a response."}}}' })
    expect(translator.finished()).toBe(true)
    expect(translator.upstreamError?.()).toMatchObject({ kind: 'upstream_error', status: 500, message: 'The model failed to generate a response.' })
  })
})
