import { describe, expect, it } from 'vitest'
import type { GatewayConfig } from '../../electron/gateway/config/load-config.js'
import { startFakeGemini } from '../fakes/gemini.js'
import { startFakeOpenAI } from '../fakes/openai.js'
import { TEST_KEY, withGateway } from '../helpers/gateway.js'
import { readSse } from '../helpers/sse.js'

// Spec §4.1 / §6 rule 2: whatever the vendor's own stream looks like, a client that asked for
// include_usage gets the usage as one final chunk with empty choices, and no content chunk carries it.

const token = { unit: 'token' as const, input: 1, output: 2 }
// Each model's output limit: what a request without max_tokens holds against the budget as its worst case.
const limits = { maxOutputTokens: 4096 }
// model id → the vendor whose stream shape it exercises
const MODELS: Record<string, string> = {
  's-openai': 'openai', 's-glm': 'zhipu', 's-ark': 'ark', 's-qwen': 'dashscope', 's-grok': 'xai', 's-gateway': 'gateway', 's-gemini': 'gemini',
}

const { gw } = withGateway({
  fakes: {
    openai: startFakeOpenAI,
    glm: () => startFakeOpenAI({ streamUsage: 'glm' }),
    xai: () => startFakeOpenAI({ streamUsage: 'xai' }),
    dashscope: () => startFakeOpenAI({ chatPath: '/compatible-mode/v1/chat/completions' }),
    gemini: startFakeGemini,
  },
  config: ({ openai, glm, xai, dashscope, gemini }): GatewayConfig => ({
    account: { balance: 100 },
    models: [
      { id: 's-openai', family: 'gpt', vendor: 'openai', pricing: token, limits },
      { id: 's-glm', family: 'glm', vendor: 'zhipu', pricing: token, limits },
      { id: 's-ark', family: 'gpt', vendor: 'ark', pricing: token, limits },
      { id: 's-qwen', family: 'qwen', vendor: 'dashscope', pricing: token, limits },
      { id: 's-grok', family: 'gpt', vendor: 'xai', pricing: token, limits },
      { id: 's-gateway', family: 'gpt', vendor: 'openai', pricing: token, limits },
      { id: 's-gemini', family: 'gemini', vendor: 'gemini', pricing: token, limits },
    ],
    upstreams: [
      { id: 'openai', vendor: 'openai', baseUrl: openai.url, apiKey: 'k-openai', models: ['s-openai'] },
      { id: 'zhipu', vendor: 'zhipu', baseUrl: glm.url, apiKey: 'k-zhipu' },
      { id: 'ark', vendor: 'ark', baseUrl: openai.url, apiKey: 'k-ark' },
      { id: 'dashscope', vendor: 'dashscope', baseUrl: dashscope.origin, apiKey: 'k-dashscope' },
      { id: 'xai', vendor: 'xai', baseUrl: xai.url, apiKey: 'k-xai' },
      { id: 'gateway', vendor: 'gateway', baseUrl: openai.origin, apiKey: 'k-gateway', models: ['s-gateway'] },
      { id: 'gemini', vendor: 'gemini', baseUrl: gemini.url, apiKey: 'k-gemini' },
    ],
    groups: [{ id: 'main', protocol: 'chat', models: Object.keys(MODELS), upstreams: ['openai', 'zhipu', 'ark', 'dashscope', 'xai', 'gateway', 'gemini'] }],
    keys: [{ key: TEST_KEY, group: 'main' }],
  }),
})

interface Chunk {
  choices: Array<{ delta?: { content?: string } }>
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | null
}

async function stream(model: string, includeUsage: boolean | undefined): Promise<{ chunks: Chunk[]; last: string }> {
  const body = { model, messages: [{ role: 'user', content: 'hello there' }], stream: true, ...(includeUsage === undefined ? {} : { stream_options: { include_usage: includeUsage } }) }
  const res = await gw.post('/v1/chat/completions', body)
  expect(res.status).toBe(200)
  const events = await readSse(res)
  const data = events.map((e) => e.data)
  return { chunks: data.slice(0, -1).map((d) => JSON.parse(d) as Chunk), last: data[data.length - 1] }
}

const answer = (model: string) => (model === 's-gemini' ? 'Hello from the fake Gemini.' : 'Hello from the fake upstream.')
const text = (chunks: Chunk[]) => chunks.flatMap((c) => c.choices.map((choice) => choice.delta?.content ?? '')).join('')

describe.each(Object.entries(MODELS))('%s (%s stream shape)', (model) => {
  it('include_usage: the usage arrives once, as the final chunk with empty choices, before [DONE]', async () => {
    const { chunks, last } = await stream(model, true)
    expect(last).toBe('[DONE]')
    const usageChunk = chunks[chunks.length - 1]
    expect(usageChunk.choices).toEqual([])
    expect(usageChunk.usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 })
    const content = chunks.slice(0, -1)
    expect(content.length).toBeGreaterThan(1)
    for (const chunk of content) {
      expect(chunk.choices.length).toBe(1)
      expect(chunk.usage ?? null).toBeNull()
    }
    expect(text(content)).toBe(answer(model))
  })

  it.each([false, undefined])('include_usage %s: no chunk carries usage', async (includeUsage) => {
    const { chunks, last } = await stream(model, includeUsage)
    expect(last).toBe('[DONE]')
    for (const chunk of chunks) {
      expect('usage' in chunk).toBe(false)
      expect(chunk.choices.length).toBe(1)
    }
    expect(text(chunks)).toBe(answer(model))
  })
})
