// The OpenAI-compatible chat adapter's transforms (OpenAI, Azure, DeepSeek, Groq, xAI, DashScope, Zhipu, Ark), fed
// real recorded answers from test/fixtures/recorded/ (INDEX.md there).
import { describe, expect, it } from 'vitest'
import { openAICompatibleChat, fromOpenAIError } from '../../../../electron/gateway/upstreams/openai-compatible.js'
import { recordedBytes, recordedChunks } from '../../../fakes/replay.js'
import { ctxOf, payloadOf, recordedEvents, thrownBy, translate } from './adapter-kit.js'

const chat = openAICompatibleChat('/chat/completions')
const xai = ctxOf('xai', 'https://api.x.ai/v1', 'grok-3-mini')
const DONE = { data: '[DONE]' }
const text = (file: string) => recordedBytes(file).toString('utf8')

describe('request building', () => {
  it('POSTs the body to the base URL plus the path, with the account key as a bearer token', () => {
    const spec = chat.toRequest({ model: 'grok-3-mini', messages: [{ role: 'user', content: 'Hi' }] }, xai)
    expect(spec).toEqual({
      method: 'POST',
      url: 'https://api.x.ai/v1/chat/completions',
      headers: { authorization: 'Bearer xai-account-key', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{"model":"grok-3-mini","messages":[{"role":"user","content":"Hi"}]}',
    })
  })

  it("sends the client's own bytes when they are what the body parses to, without serializing again", () => {
    const raw = Buffer.from('{ "model" : "grok-3-mini",\n  "messages": [] }')
    expect(chat.toRequest(JSON.parse(raw.toString()) as Record<string, unknown>, { ...xai, rawBody: raw }).body).toBe(raw)
  })

  it("DashScope's compatible mode is the same protocol at its own path", () => {
    const dashscope = openAICompatibleChat('/compatible-mode/v1/chat/completions')
    expect(dashscope.toRequest({ model: 'qwen3-max' }, ctxOf('dashscope', 'https://dashscope.aliyuncs.com', 'qwen3-max', 'qwen')).url).toBe('https://dashscope.aliyuncs.com/compatible-mode/v1/chat/completions')
  })
})

describe('answers (recorded JSON)', () => {
  it.each([
    ['openai/openai-text.json', 16, 0, 363],
    ['deepseek/deepseek-reasoning.json', 97, 0, 131],
    ['groq/groq-tool-call.json', 218, 0, 15],
    ['dashscope/alibaba-reasoning.json', 24, 0, 1668],
  ])('%s goes to the client unchanged, with its usage (%i in, %i cached, %i out)', (file, prompt, cached, output) => {
    const result = chat.fromResponse(text(file), xai)
    expect(result.body).toBe(text(file))
    expect(result.usage).toMatchObject({ inputTokens: prompt - cached, cachedInputTokens: cached, outputTokens: output })
  })

  it('the output counted when usage cannot be billed: reasoning, content and tool arguments, each once', () => {
    const deepseek = JSON.parse(text('deepseek/deepseek-reasoning.json')) as { choices: Array<{ message: { content: string; reasoning_content: string } }> }
    const { content, reasoning_content } = deepseek.choices[0]!.message
    expect(chat.fromResponse(text('deepseek/deepseek-reasoning.json'), xai).outputText!()).toBe(`${reasoning_content}\n${content}`)
    const grok = JSON.parse(text('xai/xai-tool-call.json')) as { choices: Array<{ message: { reasoning_content: string } }> }
    expect(chat.fromResponse(text('xai/xai-tool-call.json'), xai).outputText!()).toBe(`${grok.choices[0]!.message.reasoning_content}\n{"location":"San Francisco"}`)
  })

  it('a body that is not JSON is the upstream\'s error (502 upstream_error), not an empty answer', () => {
    const error = thrownBy(() => chat.fromResponse('<html>Bad gateway</html>', xai))
    expect(error).toMatchObject({ kind: 'upstream_error', status: 502 })
  })
})

describe('streams (recorded chunks)', () => {
  it('xAI: choice chunks relayed byte for byte; the usage-only chunk goes out once, just before [DONE], only when asked', () => {
    const file = 'xai/xai-tool-call.chunks.txt'
    const lines = recordedChunks(file)
    const asked = chat.streamTranslator({ includeUsage: true }, xai)
    expect(translate(asked, [...recordedEvents(file), DONE])).toEqual([...lines.map((l) => `data: ${l}\n\n`), 'data: [DONE]\n\n'])
    const unasked = chat.streamTranslator({ includeUsage: false }, xai)
    expect(translate(unasked, [...recordedEvents(file), DONE])).toEqual([...lines.slice(0, -1).map((l) => `data: ${l}\n\n`), 'data: [DONE]\n\n'])
    for (const translator of [asked, unasked]) {
      expect(translator.finished()).toBe(true)
      expect(translator.hasContent()).toBe(true)
      expect(translator.upstreamError?.()).toBeUndefined()
      // reasoning and tool arguments are output to count, not the answer's text
      expect(translator.producedText()).toBe('First, the user is{"location":"San Francisco"}')
      expect(translator.answerText?.()).toBeUndefined()
    }
  })

  it('DeepSeek: usage on the finish chunk is taken off it and sent as its own chunk with empty choices', () => {
    const file = 'deepseek/deepseek-tool-call.chunks.txt'
    const lines = recordedChunks(file)
    const frames = translate(chat.streamTranslator({ includeUsage: true }, xai), [...recordedEvents(file), DONE])
    expect(frames).toHaveLength(lines.length + 2)
    // Every chunk but the finish one as recorded.
    expect(frames.slice(0, -3)).toEqual(lines.slice(0, -1).map((l) => `data: ${l}\n\n`))
    const finish = JSON.parse(lines.at(-1)!) as Record<string, unknown>
    const { usage, ...withoutUsage } = finish
    expect(payloadOf(frames.at(-3)!)).toEqual(withoutUsage)
    expect(payloadOf(frames.at(-2)!)).toEqual({ ...withoutUsage, choices: [], usage })
    expect(frames.at(-1)).toBe('data: [DONE]\n\n')
  })

  it("OpenAI-style `\"usage\":null` on every chunk is dropped when the client did not ask for usage (Groq's, DashScope's)", () => {
    const file = 'dashscope/alibaba-tool-call.chunks.txt'
    const frames = translate(chat.streamTranslator({ includeUsage: false }, xai), [...recordedEvents(file), DONE])
    expect(frames.slice(0, -1).every((f) => !f.includes('"usage"'))).toBe(true)
    expect(frames.slice(0, -1).map(payloadOf)).toEqual(recordedChunks(file).slice(0, -1).map((l) => {
      const { usage: _null, ...chunk } = JSON.parse(l) as Record<string, unknown>
      return chunk
    }))
  })

  it('a body that ended after every finish reason but without [DONE]: the usage chunk and [DONE] are written for it', () => {
    const file = 'groq/groq-tool-call.chunks.txt'
    const translator = chat.streamTranslator({ includeUsage: true }, xai)
    translate(translator, recordedEvents(file))
    expect(translator.finished()).toBe(false)
    const end = translator.endOfAnswer!(translator.usage())
    expect(end).toHaveLength(2)
    expect(payloadOf(end![0]!)).toMatchObject({ choices: [], usage: { prompt_tokens: 210, completion_tokens: 15, total_tokens: 225 } })
    expect(end![1]).toBe('data: [DONE]\n\n')
  })

  it('a body that ended before the finish reason is not completed: it stays an interrupted stream', () => {
    const translator = chat.streamTranslator({ includeUsage: true }, xai)
    translate(translator, recordedEvents('xai/xai-text.chunks.txt').slice(0, 6))
    expect(translator.endOfAnswer!(undefined)).toBeUndefined()
    expect(translator.finished()).toBe(false)
  })

  it('an error payload in the stream ends it: relayed, and kept as the upstream error with its status', () => {
    const translator = chat.streamTranslator({ includeUsage: false }, xai)
    const data = '{"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}}'
    expect(translator.push({ data })).toEqual([`data: ${data}\n\n`])
    expect(translator.finished()).toBe(true)
    expect(translator.upstreamError?.()).toMatchObject({ kind: 'upstream_error', message: 'The server had an error while processing your request.' })
  })
})

describe('errors', () => {
  it("OpenAI's error body keeps the vendor's status, message, type, code and param", () => {
    const error = fromOpenAIError(400, '{"error":{"message":"Unsupported parameter: \'max_tokens\' is not supported with this model. Use \'max_completion_tokens\' instead.","type":"invalid_request_error","param":"max_tokens","code":"unsupported_parameter"}}')
    expect(error).toMatchObject({ kind: 'invalid_request', status: 400, type: 'invalid_request_error', code: 'unsupported_parameter', param: 'max_tokens' })
    expect(error.message).toBe("Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.")
  })

  it('a 5xx is the upstream\'s error; a body without a message says the status', () => {
    expect(fromOpenAIError(503, '<html>unavailable</html>')).toMatchObject({ kind: 'upstream_error', status: 503, message: 'upstream answered HTTP 503' })
    expect(fromOpenAIError(429, '{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}')).toMatchObject({ kind: 'invalid_request', status: 429, code: 'rate_limit_exceeded', retryable: true })
  })
})
