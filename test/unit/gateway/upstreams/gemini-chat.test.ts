import { createParser } from 'eventsource-parser'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { GatewayError } from '../../../../electron/gateway/errors.js'
import type { HttpSpec } from '../../../../electron/gateway/contract/http-spec.js'
import type { UpstreamAccount } from '../../../../electron/gateway/contract/accounts.js'
import { decodeToolCallId, encodeToolCallId, fromGeminiError, fromGeminiUsage, geminiChat } from '../../../../electron/gateway/upstreams/gemini-chat.js'
import { SKIP_SIGNATURE } from '../../../../electron/gateway/upstreams/gemini-request.js'
import type { UpstreamCtx } from '../../../../electron/gateway/contract/upstream.js'
import type { CatalogModel } from '../../../../shared/types.js'
import { startFakeGemini, type FakeGemini } from '../../../fakes/gemini.js'
import { thrownBy } from '../../../helpers/thrown.js'

type Obj = Record<string, any>

const account = (baseUrl = 'https://generativelanguage.googleapis.com'): UpstreamAccount =>
  ({ id: 'g1', vendor: 'gemini', baseUrl, apiKey: 'AIza-test-key', priority: 0 })
const catalogModel = (id: string): CatalogModel =>
  ({ id, family: 'gemini', type: 'chat', vendor: 'gemini', created: 0, pricing: { unit: 'token', input: 1, output: 4 } } as CatalogModel)
const ctxFor = (model = 'gemini-3.8-flash', baseUrl?: string): UpstreamCtx => ({ upstream: account(baseUrl), model: catalogModel(model) })
const ctx = ctxFor()

const requestOf = (body: Obj, c: UpstreamCtx = ctx): Obj => JSON.parse(geminiChat.toRequest(body, c).body as string)
const user = (content: unknown) => ({ role: 'user', content })
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='


/** Frames into their JSON payloads ([DONE] kept as the string). */
const payloads = (frames: string[]) => frames.map((f) => {
  expect(f.startsWith('data: ') && f.endsWith('\n\n')).toBe(true)
  const data = f.slice(6, -2)
  return data === '[DONE]' ? data : JSON.parse(data)
})

describe('gemini toRequest', () => {
  it('posts to generateContent / streamGenerateContent?alt=sse with x-goog-api-key, never ?key=', () => {
    const plain = geminiChat.toRequest({ model: 'gemini-3.8-flash', messages: [user('hi')] }, ctxFor('gemini-3.8-flash', 'https://generativelanguage.googleapis.com/'))
    expect(plain.method).toBe('POST')
    expect(plain.url).toBe('https://generativelanguage.googleapis.com/v1beta/models/gemini-3.8-flash:generateContent')
    expect(plain.headers['x-goog-api-key']).toBe('AIza-test-key')
    expect(plain.headers.authorization).toBeUndefined()
    expect(plain.headers['content-type']).toBe('application/json')
    const streamed = geminiChat.toRequest({ model: 'x', messages: [user('hi')], stream: true, stream_options: { include_usage: true } }, ctx)
    expect(streamed.url).toBe('https://generativelanguage.googleapis.com/v1beta/models/gemini-3.8-flash:streamGenerateContent?alt=sse')
    expect(streamed.url).not.toContain('key=')
    const body = JSON.parse(streamed.body as string)
    expect(Object.keys(body)).toEqual(['contents']) // no OpenAI fields leak (stream, stream_options, model, messages)
  })

  it('maps system messages to systemInstruction and user/assistant to user/model turns', () => {
    const body = requestOf({
      messages: [
        { role: 'system', content: 'Be terse.' },
        { role: 'system', content: [{ type: 'text', text: 'Answer in French.' }] },
        user('Hello'),
        { role: 'assistant', content: 'Bonjour' },
        user([{ type: 'text', text: 'Again' }]),
      ],
    })
    expect(body.systemInstruction).toEqual({ parts: [{ text: 'Be terse.' }, { text: 'Answer in French.' }] })
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Hello' }] },
      { role: 'model', parts: [{ text: 'Bonjour' }] },
      { role: 'user', parts: [{ text: 'Again' }] },
    ])
  })

  it('reads data-URL images as inlineData and drops input_audio, file and video_url parts silently', () => {
    const body = requestOf({
      messages: [user([
        { type: 'text', text: 'What is this?' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}`, detail: 'high' } },
        { type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } },
        { type: 'file', file: { file_data: 'data:application/pdf;base64,AAAA' } },
        { type: 'video_url', video_url: { url: 'https://example.com/v.mp4' } },
        { type: 'image_url', image_url: { url: 'data:image/svg+xml,%3Csvg%2F%3E' } },
      ])],
    })
    expect(body.contents).toEqual([{
      role: 'user',
      parts: [
        { text: 'What is this?' },
        { inlineData: { mimeType: 'image/png', data: PNG } },
        { inlineData: { mimeType: 'image/svg+xml', data: Buffer.from('<svg/>').toString('base64') } },
      ],
    }])
  })

  it('refuses an http(s) image_url with 400 invalid_request naming the part', () => {
    const err = thrownBy(() => requestOf({
      messages: [
        { role: 'system', content: 'x' },
        user('first'),
        user([{ type: 'text', text: 'look' }, { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }]),
      ],
    }))
    expect(err.status).toBe(400)
    expect(err.code).toBe('invalid_request')
    expect(err.type).toBe('invalid_request_error')
    expect(err.param).toBe('messages[2].content[1].image_url')
    expect(err.message).toMatch(/image_url only supports data URLs/)
    expect(err.localized('zh')).toContain('仅支持 data URL')
  })

  it('refuses a malformed data URL', () => {
    const err = thrownBy(() => requestOf({ messages: [user([{ type: 'image_url', image_url: { url: 'data:image/png;base64,@@@' } }])] }))
    expect(err.status).toBe(400)
    expect(err.param).toBe('messages[0].content[0].image_url')
    expect(err.message).toMatch(/^messages\[0\]\.content\[0\]\.image_url\.url: /)
  })

  it('answers 400 when nothing usable is left after dropping parts', () => {
    for (const messages of [
      [user([{ type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } }])],
      [{ role: 'system', content: 'only a system prompt' }],
      [user('')],
    ]) {
      const err = thrownBy(() => requestOf({ messages }))
      expect(err.status).toBe(400)
      expect(err.code).toBe('invalid_request')
      expect(err.message).toMatch(/no usable content/)
    }
  })

  it('maps the generation fields; max_tokens wins over max_completion_tokens', () => {
    const body = requestOf({
      messages: [user('hi')], max_tokens: 100, max_completion_tokens: 4096, temperature: 0.2, top_p: 0.9, stop: 'END', n: 2,
      response_format: { type: 'json_object' },
    })
    expect(body.generationConfig).toEqual({ maxOutputTokens: 100, temperature: 0.2, topP: 0.9, candidateCount: 2, stopSequences: ['END'], responseMimeType: 'application/json' })
    expect(requestOf({ messages: [user('hi')], max_completion_tokens: 4096, max_tokens: null }).generationConfig).toEqual({ maxOutputTokens: 4096 })
    const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false }
    const structured = requestOf({ messages: [user('hi')], stop: ['a', 'b'], response_format: { type: 'json_schema', json_schema: { name: 's', schema, strict: true } } })
    expect(structured.generationConfig).toEqual({ stopSequences: ['a', 'b'], responseMimeType: 'application/json', responseJsonSchema: schema })
    expect(requestOf({ messages: [user('hi')], response_format: { type: 'text' } }).generationConfig).toBeUndefined()
  })

  it.each([
    ['none', { thinkingBudget: 0 }],
    ['minimal', { thinkingBudget: 0 }],
    ['low', undefined],
    ['medium', { thinkingBudget: 8192 }],
    ['high', { thinkingBudget: 24576 }],
    ['max', undefined],
    ['constructor', undefined],
  ])('reasoning_effort %s -> thinkingConfig %j', (effort, expected) => {
    expect(requestOf({ messages: [user('hi')], reasoning_effort: effort }).generationConfig?.thinkingConfig).toEqual(expected)
  })

  it('honours Google\'s google.thinking_config extension (include_thoughts), reasoning_effort winning on the budget', () => {
    const nested = requestOf({ messages: [user('hi')], extra_body: { google: { thinking_config: { include_thoughts: true, thinking_budget: 800 } } } })
    expect(nested.generationConfig.thinkingConfig).toEqual({ includeThoughts: true, thinkingBudget: 800 })
    const top = requestOf({ messages: [user('hi')], reasoning_effort: 'high', google: { thinking_config: { include_thoughts: true, thinking_budget: 800 } } })
    expect(top.generationConfig.thinkingConfig).toEqual({ includeThoughts: true, thinkingBudget: 24576 })
  })

  it('maps tools to functionDeclarations and tool_choice to functionCallingConfig', () => {
    const parameters = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false }
    const tools = [{ type: 'function', function: { name: 'get_weather', description: 'Weather now', parameters } }, { type: 'function', function: { name: 'noop' } }]
    const body = requestOf({ messages: [user('hi')], tools })
    expect(body.tools).toEqual([{ functionDeclarations: [{ name: 'get_weather', description: 'Weather now', parametersJsonSchema: parameters }, { name: 'noop' }] }])
    expect(body.toolConfig).toBeUndefined()
    const choice = (tool_choice: unknown) => requestOf({ messages: [user('hi')], tools, tool_choice }).toolConfig
    expect(choice('auto')).toEqual({ functionCallingConfig: { mode: 'AUTO' } })
    expect(choice('none')).toEqual({ functionCallingConfig: { mode: 'NONE' } })
    expect(choice('required')).toEqual({ functionCallingConfig: { mode: 'ANY' } })
    expect(choice({ type: 'function', function: { name: 'get_weather' } })).toEqual({ functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } })
    expect(requestOf({ messages: [user('hi')], tool_choice: 'required' }).toolConfig).toBeUndefined()
  })

  it('sends assistant tool_calls as functionCall parts and matching tool results as functionResponse parts in one user turn', () => {
    const body = requestOf({
      messages: [
        user('Weather in Paris and Rome?'),
        {
          role: 'assistant', content: null, tool_calls: [
            { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' }, extra_content: { google: { thought_signature: 'c2lnLWE=' } } },
            { id: 'call_b', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_a', content: '{"tempC":21}' },
        { role: 'tool', tool_call_id: 'call_b', content: [{ type: 'text', text: 'sunny, 25C' }] },
        { role: 'tool', tool_call_id: 'call_unknown', content: 'orphan result' },
      ],
    })
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather in Paris and Rome?' }] },
      { role: 'model', parts: [
        { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'c2lnLWE=' },
        { functionCall: { name: 'get_weather', args: { city: 'Rome' } } },
      ] },
      { role: 'user', parts: [
        { functionResponse: { name: 'get_weather', response: { tempC: 21 } } },
        { functionResponse: { name: 'get_weather', response: { output: 'sunny, 25C' } } },
        { text: 'Tool result (call_unknown):\norphan result' },
      ] },
    ])
  })

  it('sends a tool message without a matching call as user text', () => {
    const body = requestOf({ messages: [user('go'), { role: 'tool', tool_call_id: 'call_x', content: '42' }] })
    expect(body.contents).toEqual([{ role: 'user', parts: [{ text: 'go' }, { text: 'Tool result (call_x):\n42' }] }])
  })

  it('refuses tool call arguments that are not a JSON object', () => {
    const err = thrownBy(() => requestOf({
      messages: [user('go'), { role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '[1,2]' } }] }],
    }))
    expect(err.status).toBe(400)
    expect(err.param).toBe('messages[1].tool_calls[0].function.arguments')
  })

  it('gives an unsigned function call step Google\'s placeholder signature on Gemini 3+, not on 2.x', () => {
    const messages = [
      user('go'),
      { role: 'assistant', tool_calls: [{ id: 'foreign_1', type: 'function', function: { name: 'f', arguments: '{}' } }, { id: 'foreign_2', type: 'function', function: { name: 'g', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'foreign_1', content: 'a' },
      { role: 'tool', tool_call_id: 'foreign_2', content: 'b' },
    ]
    const g3 = requestOf({ messages })
    expect(g3.contents[1].parts[0].thoughtSignature).toBe(SKIP_SIGNATURE)
    expect(g3.contents[1].parts[1].thoughtSignature).toBeUndefined()
    const g25 = requestOf({ messages }, ctxFor('gemini-2.5-pro'))
    expect(g25.contents[1].parts[0].thoughtSignature).toBeUndefined()
  })
})

describe('gemini tool call ids', () => {
  it('round-trip a base64 signature, a non-base64 signature and a Gemini call id; plain ids carry nothing', () => {
    const sig = Buffer.from('opaque signature bytes \u0000\u00ff', 'latin1').toString('base64')
    const id = encodeToolCallId({ signature: sig })
    expect(id).toMatch(/^call_gs1_[A-Za-z0-9_-]+$/)
    expect(decodeToolCallId(id)).toEqual({ signature: sig })
    expect(id.length).toBeLessThan(sig.length + 24)
    expect(decodeToolCallId(encodeToolCallId({ signature: SKIP_SIGNATURE, geminiId: 'fc-1' }))).toEqual({ signature: SKIP_SIGNATURE, geminiId: 'fc-1' })
    expect(decodeToolCallId(encodeToolCallId({ geminiId: 'ünï' }))).toEqual({ geminiId: 'ünï' })
    const plain = encodeToolCallId({})
    expect(plain).toMatch(/^call_[0-9a-f]{24}$/)
    expect(decodeToolCallId(plain)).toEqual({})
    expect(decodeToolCallId('call_gs1_')).toEqual({})
    expect(decodeToolCallId('call_gs1_%%')).toEqual({})
    expect(encodeToolCallId({ signature: sig })).not.toBe(id)
  })
})

const completion = (res: Obj, c: UpstreamCtx = ctx) => {
  const result = geminiChat.fromResponse(JSON.stringify(res), c)
  return { body: JSON.parse(result.body), usage: result.usage }
}

describe('gemini fromResponse', () => {
  it('translates text, thought parts and usage into a chat.completion', () => {
    const { body, usage } = completion({
      candidates: [{ content: { role: 'model', parts: [{ text: 'Let me think', thought: true }, { text: 'Hello ' }, { text: 'world', thoughtSignature: 'dGV4dHNpZw==' }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 20, thoughtsTokenCount: 30, cachedContentTokenCount: 40, totalTokenCount: 150 },
      modelVersion: 'gemini-3.8-flash-001', responseId: 'resp123',
    })
    expect(body).toMatchObject({ id: 'chatcmpl-resp123', object: 'chat.completion', model: 'gemini-3.8-flash' })
    expect(Math.abs(body.created - Date.now() / 1000)).toBeLessThan(5)
    expect(body.choices).toEqual([{
      index: 0, logprobs: null, finish_reason: 'stop',
      message: { role: 'assistant', content: 'Hello world', reasoning_content: 'Let me think', extra_content: { google: { thought_signature: 'dGV4dHNpZw==' } } },
    }])
    expect(body.usage).toEqual({
      prompt_tokens: 100, completion_tokens: 50, total_tokens: 150,
      prompt_tokens_details: { cached_tokens: 40 }, completion_tokens_details: { reasoning_tokens: 30 },
    })
    expect(usage).toMatchObject({ inputTokens: 60, cachedInputTokens: 40, outputTokens: 50 })
  })

  it('returns function calls as tool_calls carrying the thought signature, finish_reason tool_calls', () => {
    const { body } = completion({
      candidates: [{ content: { role: 'model', parts: [
        { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'U0lHMQ==' },
        { functionCall: { name: 'get_time', args: {} } },
      ] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    })
    const message = body.choices[0].message
    expect(body.id).toMatch(/^chatcmpl-[0-9a-f]{24}$/)
    expect(body.choices[0].finish_reason).toBe('tool_calls')
    expect(message.content).toBeNull()
    expect(message.tool_calls).toHaveLength(2)
    expect(message.tool_calls[0]).toMatchObject({ type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' }, extra_content: { google: { thought_signature: 'U0lHMQ==' } } })
    expect(decodeToolCallId(message.tool_calls[0].id)).toEqual({ signature: 'U0lHMQ==' })
    expect(message.tool_calls[1]).toEqual({ id: expect.stringMatching(/^call_[0-9a-f]{24}$/), type: 'function', function: { name: 'get_time', arguments: '{}' } })
  })

  it.each([
    ['STOP', 'stop'], ['MAX_TOKENS', 'length'], ['SAFETY', 'content_filter'], ['RECITATION', 'content_filter'],
    ['BLOCKLIST', 'content_filter'], ['PROHIBITED_CONTENT', 'content_filter'], ['SPII', 'content_filter'], ['OTHER', 'stop'],
  ])('finishReason %s -> %s', (reason, expected) => {
    const { body } = completion({ candidates: [{ finishReason: reason, index: 0 }] })
    expect(body.choices[0].finish_reason).toBe(expected)
    expect(body.choices[0].message).toEqual({ role: 'assistant', content: '' })
  })

  it('answers a blocked prompt with a 400, not an empty 200', () => {
    const err = thrownBy(() => completion({ promptFeedback: { blockReason: 'PROHIBITED_CONTENT' }, usageMetadata: { promptTokenCount: 5, totalTokenCount: 5 } }))
    expect(err.status).toBe(400)
    expect(err.type).toBe('invalid_request_error')
    expect(err.code).toBe('prompt_blocked')
    expect(err.message).toContain('PROHIBITED_CONTENT')
  })

  it('treats unparseable or candidate-less answers as malformed upstream answers', () => {
    expect(thrownBy(() => geminiChat.fromResponse('not json', ctx)).kind).toBe('upstream_error')
    expect(thrownBy(() => completion({ usageMetadata: { promptTokenCount: 1 } })).kind).toBe('upstream_error')
  })

  it('maps n candidates to n choices', () => {
    const { body } = completion({ candidates: [0, 1].map((index) => ({ content: { parts: [{ text: `c${index}` }] }, finishReason: 'STOP', index })) })
    expect(body.choices.map((c: Obj) => [c.index, c.message.content])).toEqual([[0, 'c0'], [1, 'c1']])
  })

  it('fromGeminiUsage needs a promptTokenCount and bills toolUsePromptTokenCount as input', () => {
    expect(fromGeminiUsage(undefined)).toBeUndefined()
    expect(fromGeminiUsage({ candidatesTokenCount: 3 })).toBeUndefined()
    expect(fromGeminiUsage({ promptTokenCount: 10, toolUsePromptTokenCount: 5, candidatesTokenCount: 2 })).toMatchObject({ inputTokens: 15, cachedInputTokens: 0, outputTokens: 2 })
  })
})

describe('gemini fromError', () => {
  it('keeps the status and message; code is the status string lowercased', () => {
    const bad = fromGeminiError(400, JSON.stringify({ error: { code: 400, message: 'Invalid value at contents[0]', status: 'INVALID_ARGUMENT' } }))
    expect(bad).toMatchObject({ status: 400, kind: 'invalid_request', code: 'invalid_argument', type: 'invalid_request_error', message: 'Invalid value at contents[0]' })
    const limited = fromGeminiError(429, JSON.stringify([{ error: { code: 429, message: 'quota', status: 'RESOURCE_EXHAUSTED' } }]))
    expect(limited).toMatchObject({ status: 429, code: 'resource_exhausted', type: 'rate_limit_error', retryable: true })
    const overloaded = fromGeminiError(503, JSON.stringify({ error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } }))
    expect(overloaded).toMatchObject({ status: 503, kind: 'upstream_error', code: 'unavailable', message: 'The model is overloaded.' })
    expect(fromGeminiError(500, '<html>oops</html>')).toMatchObject({ status: 500, kind: 'upstream_error', code: 'upstream_error', message: 'upstream answered HTTP 500' })
  })

  it('reports an invalid account key (400 API_KEY_INVALID) as refused account credentials, not a client error', () => {
    const body = { error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT', details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID' }] } }
    expect(fromGeminiError(400, JSON.stringify(body))).toMatchObject({ status: 401, kind: 'upstream_error', code: 'upstream_error' })
  })
})

const sse = (res: Obj) => ({ data: JSON.stringify(res) })
const textChunk = (text: string, extra: Obj = {}) => sse({ candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0, ...extra.candidate }], usageMetadata: { promptTokenCount: 7, totalTokenCount: 7 }, responseId: 'r1', ...extra.top })
const FINAL_USAGE = { promptTokenCount: 7, candidatesTokenCount: 3, thoughtsTokenCount: 4, totalTokenCount: 14 }

describe('gemini streamTranslator', () => {
  it('emits role, text deltas, the finish chunk, then the usage chunk and [DONE] when the client asked for usage', () => {
    const t = geminiChat.streamTranslator({ includeUsage: true }, ctx)
    const frames = [
      ...t.push(sse({ candidates: [{ content: { parts: [{ text: 'thinking...', thought: true }] }, index: 0 }], responseId: 'r1' })),
      ...t.push(textChunk('Hello')),
      ...t.push(textChunk(' world', { candidate: { finishReason: 'STOP' }, top: { usageMetadata: FINAL_USAGE } })),
    ]
    const p = payloads(frames)
    expect(p.at(-1)).toBe('[DONE]')
    const chunks = p.slice(0, -1) as Obj[]
    expect(new Set(chunks.map((c) => c.id))).toEqual(new Set(['chatcmpl-r1']))
    expect(chunks.every((c) => c.object === 'chat.completion.chunk' && c.model === 'gemini-3.8-flash')).toBe(true)
    expect(chunks.map((c) => c.choices[0]?.delta)).toEqual([
      { role: 'assistant', reasoning_content: 'thinking...' }, { content: 'Hello' }, { content: ' world' }, {}, undefined,
    ])
    expect(chunks[3].choices[0].finish_reason).toBe('stop')
    expect(chunks.slice(0, 4).every((c) => c.usage === null)).toBe(true)
    expect(chunks[4]).toMatchObject({ choices: [], usage: { prompt_tokens: 7, completion_tokens: 7, total_tokens: 14, completion_tokens_details: { reasoning_tokens: 4 } } })
    expect(t.finished()).toBe(true)
    expect(t.usage()).toMatchObject({ inputTokens: 7, outputTokens: 7 })
    expect(t.producedText()).toBe('thinking...Hello world')
    expect(t.push(textChunk('late'))).toEqual([])
  })

  it('leaves the usage chunk out without include_usage but still reports usage()', () => {
    const t = geminiChat.streamTranslator({ includeUsage: false }, ctx)
    const p = payloads([...t.push(textChunk('Hi')), ...t.push(sse({ candidates: [{ content: { parts: [{ text: '' }] }, finishReason: 'MAX_TOKENS', index: 0 }], usageMetadata: FINAL_USAGE }))])
    expect(p.map((x) => (x === '[DONE]' ? x : x.choices[0].finish_reason))).toEqual([null, 'length', '[DONE]'])
    expect(p.slice(0, -1).every((x: Obj) => !('usage' in x))).toBe(true)
    expect(t.usage()).toMatchObject({ inputTokens: 7, outputTokens: 7 })
  })

  it('streams each function call whole as one tool_calls fragment, finish_reason tool_calls', () => {
    const t = geminiChat.streamTranslator({ includeUsage: false }, ctx)
    const frames = [
      ...t.push(textChunk('Checking.')),
      ...t.push(sse({ candidates: [{ content: { parts: [
        { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'U0lH' },
        { functionCall: { name: 'get_time', args: { tz: 'CET' } } },
      ] }, finishReason: 'STOP', index: 0 }], usageMetadata: FINAL_USAGE })),
    ]
    const [first, calls, finish, done] = payloads(frames) as Obj[]
    expect(first.choices[0].delta).toEqual({ role: 'assistant', content: 'Checking.' })
    expect(calls.choices[0].delta.tool_calls).toEqual([
      { index: 0, id: expect.stringMatching(/^call_gs1_/), type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' }, extra_content: { google: { thought_signature: 'U0lH' } } },
      { index: 1, id: expect.stringMatching(/^call_[0-9a-f]{24}$/), type: 'function', function: { name: 'get_time', arguments: '{"tz":"CET"}' } },
    ])
    expect(decodeToolCallId(calls.choices[0].delta.tool_calls[0].id).signature).toBe('U0lH')
    expect(finish.choices[0].finish_reason).toBe('tool_calls')
    expect(done).toBe('[DONE]')
    expect(t.producedText()).toBe('Checking.{"city":"Paris"}{"tz":"CET"}')
  })

  it('finishes only after every candidate finished (n > 1)', () => {
    const t = geminiChat.streamTranslator({ includeUsage: false }, ctx)
    const both = (f0?: string, f1?: string) => sse({ candidates: [
      { content: { parts: [{ text: 'a' }] }, index: 0, ...(f0 ? { finishReason: f0 } : {}) },
      { content: { parts: [{ text: 'b' }] }, index: 1, ...(f1 ? { finishReason: f1 } : {}) },
    ] })
    t.push(both())
    const mid = payloads(t.push(both('STOP')))
    expect(mid.map((x: Obj) => [x.choices[0].index, x.choices[0].finish_reason])).toEqual([[0, null], [0, 'stop'], [1, null]])
    expect(t.finished()).toBe(false)
    expect(payloads(t.push(sse({ candidates: [{ index: 1, finishReason: 'STOP' }] }))).at(-1)).toBe('[DONE]')
    expect(t.finished()).toBe(true)
  })

  it('throws a 400 for a prompt blocked in a stream, and the upstream error for an error event', () => {
    const blocked = geminiChat.streamTranslator({ includeUsage: true }, ctx)
    expect(thrownBy(() => blocked.push(sse({ promptFeedback: { blockReason: 'SAFETY' } })))).toMatchObject({ status: 400, code: 'prompt_blocked' })
    const broken = geminiChat.streamTranslator({ includeUsage: true }, ctx)
    broken.push(textChunk('Hi'))
    expect(thrownBy(() => broken.push(sse({ error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } })))).toMatchObject({ status: 503, code: 'unavailable' })
    expect(broken.finished()).toBe(false)
  })

  it('reports a safety stop as content_filter and ignores blank or unparseable events', () => {
    const t = geminiChat.streamTranslator({ includeUsage: false }, ctx)
    expect(t.push({ data: '' })).toEqual([])
    expect(t.push({ data: '{oops' })).toEqual([])
    const p = payloads(t.push(sse({ candidates: [{ finishReason: 'SAFETY', index: 0 }], usageMetadata: FINAL_USAGE }))) as Obj[]
    expect(p[0].choices[0]).toMatchObject({ delta: { role: 'assistant' }, finish_reason: 'content_filter' })
  })
})

describe('gemini thought signatures across two turns', () => {
  const firstTurn = {
    candidates: [{ content: { role: 'model', parts: [
      { functionCall: { name: 'get_weather', args: { city: 'Paris' }, id: 'fc-9' }, thoughtSignature: 'Rmlyc3RTaWc+Lw==' },
      { functionCall: { name: 'get_weather', args: { city: 'Rome' } } },
    ] }, finishReason: 'STOP', index: 0 }],
  }
  const turnTwo = (assistant: Obj) => requestOf({
    messages: [
      user('Weather?'), assistant,
      ...assistant.tool_calls.map((c: Obj, i: number) => ({ role: 'tool', tool_call_id: c.id, content: `{"tempC":${20 + i}}` })),
    ],
  })
  const expected = [
    { role: 'user', parts: [{ text: 'Weather?' }] },
    { role: 'model', parts: [
      { functionCall: { id: 'fc-9', name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'Rmlyc3RTaWc+Lw==' },
      { functionCall: { name: 'get_weather', args: { city: 'Rome' } } },
    ] },
    { role: 'user', parts: [
      { functionResponse: { id: 'fc-9', name: 'get_weather', response: { tempC: 20 } } },
      { functionResponse: { name: 'get_weather', response: { tempC: 21 } } },
    ] },
  ]

  it('restores the signature from the message sent back unchanged (extra_content)', () => {
    const message = completion(firstTurn).body.choices[0].message
    expect(turnTwo(message).contents).toEqual(expected)
  })

  it('restores it from the id alone when the client rebuilt tool_calls with only id/type/function', () => {
    const message = completion(firstTurn).body.choices[0].message
    const rebuilt = { role: 'assistant', content: null, tool_calls: message.tool_calls.map((c: Obj) => ({ id: c.id, type: c.type, function: c.function })) }
    expect(turnTwo(rebuilt).contents).toEqual(expected)
  })
})

describe('gemini adapter against the fake Gemini server', () => {
  let fake: FakeGemini
  const live = () => ctxFor('gemini-3.8-flash', fake.url)
  const send = (spec: HttpSpec) => fetch(spec.url, { method: spec.method, headers: spec.headers, body: spec.body as string })
  async function streamed(spec: HttpSpec, includeUsage: boolean) {
    const t = geminiChat.streamTranslator({ includeUsage }, live())
    const res = await send(spec)
    expect(res.status).toBe(200)
    const frames: string[] = []
    const parser = createParser({ onEvent: (e) => frames.push(...t.push(e)) })
    parser.feed(await res.text())
    return { t, frames, payloads: payloads(frames) }
  }

  beforeAll(async () => {
    fake = await startFakeGemini({ apiKey: 'AIza-test-key' })
  })
  afterAll(async () => {
    await fake.close()
  })
  beforeEach(() => fake.reset())

  it('non-stream: the translated request is accepted and the answer translated back', async () => {
    fake.setScenario({ kind: 'ok', text: 'Bonjour tout le monde', thoughts: 'hmm', usage: { cachedContentTokenCount: 1 } })
    const spec = geminiChat.toRequest({
      model: 'gemini-3.8-flash', messages: [{ role: 'system', content: 'French' }, user('Hello')], max_tokens: 50,
      extra_body: { google: { thinking_config: { include_thoughts: true } } },
    }, live())
    const res = await send(spec)
    expect(res.status).toBe(200)
    const result = geminiChat.fromResponse(await res.text(), live())
    const body = JSON.parse(result.body)
    expect(body.choices[0]).toMatchObject({ finish_reason: 'stop', message: { role: 'assistant', content: 'Bonjour tout le monde', reasoning_content: 'hmm' } })
    expect(body.usage).toMatchObject({ prompt_tokens: expect.any(Number), completion_tokens: 4 + 1, prompt_tokens_details: { cached_tokens: 1 } })
    expect(result.usage).toMatchObject({ outputTokens: 5, cachedInputTokens: 1 })
    const call = fake.calls[0]
    expect(call.path).toBe('/v1beta/models/gemini-3.8-flash:generateContent')
    expect(call.headers['x-goog-api-key']).toBe('AIza-test-key')
    expect(call.body).toMatchObject({ systemInstruction: { parts: [{ text: 'French' }] }, generationConfig: { maxOutputTokens: 50, thinkingConfig: { includeThoughts: true } } })
  })

  it('stream: SSE chunks become chat.completion.chunk frames ending in [DONE]', async () => {
    fake.setScenario({ kind: 'ok', text: 'one two three' })
    const spec = geminiChat.toRequest({ model: 'x', messages: [user('count')], stream: true, stream_options: { include_usage: true } }, live())
    const { t, payloads: p } = await streamed(spec, false)
    expect(fake.calls[0].path).toBe('/v1beta/models/gemini-3.8-flash:streamGenerateContent?alt=sse')
    const chunks = p.slice(0, -1) as Obj[]
    expect(p.at(-1)).toBe('[DONE]')
    expect(chunks[0].choices[0].delta.role).toBe('assistant')
    expect(chunks.map((c) => c.choices[0].delta.content ?? '').join('')).toBe('one two three')
    expect(chunks.at(-1)!.choices[0].finish_reason).toBe('stop')
    expect(chunks.some((c) => c.choices.length === 0)).toBe(false)
    expect(t.finished()).toBe(true)
    expect(t.usage()).toMatchObject({ outputTokens: 3 })
  })

  it('stream with include_usage ends with the usage-only chunk', async () => {
    fake.setScenario({ kind: 'ok', text: 'a b' })
    const { payloads: p } = await streamed(geminiChat.toRequest({ messages: [user('x')], stream: true }, live()), true)
    expect(p.at(-2)).toMatchObject({ choices: [], usage: { completion_tokens: 2 } })
  })

  it('function calling over two turns: the signature survives a client that keeps only id/type/function', async () => {
    const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }]
    fake.once({ kind: 'function_call', name: 'get_weather', args: { city: 'Paris' } })
    const turn1 = await send(geminiChat.toRequest({ messages: [user('Weather in Paris?')], tools, tool_choice: 'auto', stream: true }, live()))
    const t = geminiChat.streamTranslator({ includeUsage: false }, live())
    const frames: string[] = []
    createParser({ onEvent: (e) => frames.push(...t.push(e)) }).feed(await turn1.text())
    const calls = (payloads(frames) as Obj[]).flatMap((c) => c.choices?.[0]?.delta?.tool_calls ?? [])
    expect(calls).toHaveLength(1)
    const issued = [...fake.signatures]
    expect(issued).toHaveLength(1)
    expect(calls[0].extra_content.google.thought_signature).toBe(issued[0])

    fake.once({ kind: 'ok', text: 'It is 21C in Paris.' })
    const history = [
      user('Weather in Paris?'),
      { role: 'assistant', content: null, tool_calls: [{ id: calls[0].id, type: 'function', function: calls[0].function }] },
      { role: 'tool', tool_call_id: calls[0].id, content: '{"tempC":21}' },
    ]
    const turn2 = await send(geminiChat.toRequest({ messages: history, tools }, live()))
    expect(turn2.status).toBe(200)
    expect(JSON.parse(geminiChat.fromResponse(await turn2.text(), live()).body).choices[0].message.content).toBe('It is 21C in Paris.')
    expect(fake.calls[1].body.contents[1].parts[0]).toEqual({ functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: issued[0] })
    expect(fake.calls[1].body.contents[2].parts[0]).toEqual({ functionResponse: { name: 'get_weather', response: { tempC: 21 } } })
  })

  it('the fake enforces Gemini 3 signatures: unsigned or tampered calls are refused, the placeholder is accepted', async () => {
    const contents = (signature?: string) => [
      { role: 'user', parts: [{ text: 'Weather?' }] },
      { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: {} }, ...(signature ? { thoughtSignature: signature } : {}) }] },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { output: 'sunny' } } }] },
    ]
    const raw = (signature?: string) => send({ ...geminiChat.toRequest({ messages: [user('x')] }, live()), body: JSON.stringify({ contents: contents(signature) }) })
    const missing = await raw()
    expect(missing.status).toBe(400)
    const error = fromGeminiError(missing.status, await missing.text())
    expect(error).toMatchObject({ status: 400, code: 'invalid_argument' })
    expect(error.message).toMatch(/missing a thought_signature.*default_api:get_weather.*position 2/)
    expect((await raw('Zm9yZ2Vk')).status).toBe(400)
    expect((await raw(SKIP_SIGNATURE)).status).toBe(200)
    // the adapter signs history it cannot restore with the placeholder, so the request still goes through
    const adapted = await send(geminiChat.toRequest({
      messages: [user('Weather?'), { role: 'assistant', tool_calls: [{ id: 'other_vendor_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] }, { role: 'tool', tool_call_id: 'other_vendor_1', content: 'sunny' }],
    }, live()))
    expect(adapted.status).toBe(200)
  })

  it('blocked prompt -> 400; safety stop -> content_filter', async () => {
    fake.once({ kind: 'blocked', reason: 'BLOCKLIST' }, { kind: 'safety', text: 'partial answer' })
    const blocked = await send(geminiChat.toRequest({ messages: [user('bad')] }, live()))
    expect(blocked.status).toBe(200)
    const blockedText = await blocked.text()
    expect(thrownBy(() => geminiChat.fromResponse(blockedText, live()))).toMatchObject({ status: 400, code: 'prompt_blocked' })
    const { payloads: p } = await streamed(geminiChat.toRequest({ messages: [user('bad')], stream: true }, live()), false)
    expect(p.map((c) => (c === '[DONE]' ? c : c.choices[0].finish_reason))).toEqual([null, null, 'content_filter', '[DONE]'])
  })

  it('upstream errors: 503 UNAVAILABLE and 429 RESOURCE_EXHAUSTED keep their status; a wrong account key reads as refused credentials', async () => {
    fake.once({ kind: 'status', status: 503 }, { kind: 'status', status: 429 })
    const spec = geminiChat.toRequest({ messages: [user('hi')] }, live())
    const overloaded = await send(spec)
    expect(fromGeminiError(overloaded.status, await overloaded.text())).toMatchObject({ status: 503, kind: 'upstream_error', code: 'unavailable', message: 'The model is overloaded. Please try again later.' })
    const limited = await send(spec)
    expect(fromGeminiError(limited.status, await limited.text())).toMatchObject({ status: 429, code: 'resource_exhausted' })
    const wrongKey = await send({ ...spec, headers: { ...spec.headers, 'x-goog-api-key': 'nope' } })
    expect(wrongKey.status).toBe(400)
    expect(fromGeminiError(wrongKey.status, await wrongKey.text())).toMatchObject({ status: 401, kind: 'upstream_error' })
  })

  it('an error event mid-stream throws; a cut stream never finishes', async () => {
    fake.once({ kind: 'stream_error', after: 2 }, { kind: 'break_after', chunks: 2 })
    const spec = geminiChat.toRequest({ messages: [user('hi')], stream: true }, live())
    const t = geminiChat.streamTranslator({ includeUsage: true }, live())
    const res = await send(spec)
    const parser = createParser({ onEvent: (e) => void t.push(e) })
    const body = await res.text()
    expect(() => parser.feed(body)).toThrow(GatewayError)
    expect(t.producedText()).not.toBe('')
    const cut = geminiChat.streamTranslator({ includeUsage: true }, live())
    const broken = await send(spec)
    let text = ''
    try {
      text = await broken.text()
    } catch {
      // the socket was destroyed mid-body
    }
    createParser({ onEvent: (e) => void cut.push(e) }).feed(text)
    expect(cut.finished()).toBe(false)
    expect(cut.usage()).toBeUndefined()
  })
})
