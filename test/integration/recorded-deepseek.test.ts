// Real recorded DeepSeek answers (test/fixtures/recorded/deepseek/, INDEX.md there) replayed through the gateway's
// OpenAI-compatible chat adapter (an `openai` account at DeepSeek's base URL) and read by the official `openai` SDK.
// DeepSeek counts reasoning inside completion_tokens (total = prompt + completion) and its cache hits inside
// prompt_tokens (prompt_tokens_details.cached_tokens = prompt_cache_hit_tokens).
import OpenAI from 'openai'
import type { ChatCompletionTool } from 'openai/resources/chat/completions'
import { describe, expect, it } from 'vitest'
import { recordedBytes, recordedChunks } from '../fakes/replay.js'
import { TEST_KEY } from '../helpers/gateway.js'
import { nextLedgerRow, tokenCostNano, withRecordedGateway } from '../helpers/recorded.js'
import { collect } from '../helpers/sse.js'

// DeepSeek's list prices, USD per 1M tokens (cache miss, cache hit, output)
const PRICES = { input: 0.28, output: 0.42, cachedInput: 0.028 }
const MODEL = 'deepseek-v4-flash'
const { gw, fakes } = withRecordedGateway('openai', [{ id: MODEL, family: 'gpt', pricing: PRICES }], '/v1')
const client = () => new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: TEST_KEY, maxRetries: 0 })

const weather: ChatCompletionTool = {
  type: 'function',
  function: { name: 'weather', description: 'Get the weather in a location', parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] } },
}

interface DeepSeekUsage { prompt_tokens: number; completion_tokens: number; total_tokens: number; prompt_cache_hit_tokens: number; completion_tokens_details: { reasoning_tokens: number } }

function expectBill(row: { cost_nano: number; input_tokens: number | null; output_tokens: number | null }, usage: DeepSeekUsage) {
  expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens)
  expect(row.input_tokens).toBe(usage.prompt_tokens)
  // reasoning is inside completion_tokens: billed once
  expect(row.output_tokens).toBe(usage.completion_tokens)
  expect(row.cost_nano).toBe(tokenCostNano(PRICES, { input: usage.prompt_tokens, cached: usage.prompt_cache_hit_tokens, output: usage.completion_tokens }))
}

describe('recorded DeepSeek chat completions (deepseek-v4-flash)', () => {
  it('a reasoning answer (JSON): relayed byte for byte, the SDK reads the answer in content and the reasoning apart', async () => {
    const file = 'deepseek/deepseek-reasoning.json'
    fakes.replay.serve({ file })
    const row = await nextLedgerRow(gw)
    const raw = await gw.post('/v1/chat/completions', { model: MODEL, messages: [{ role: 'user', content: 'How many "r"s are in the word "strawberry"?' }] })
    expect(raw.status).toBe(200)
    expect(Buffer.from(await raw.arrayBuffer()).equals(recordedBytes(file))).toBe(true)
    expectBill(await row(), (JSON.parse(recordedBytes(file).toString('utf8')) as { usage: DeepSeekUsage }).usage)

    const completion = await client().chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'How many "r"s are in the word "strawberry"?' }] })
    const message = completion.choices[0]!.message as typeof completion.choices[0]['message'] & { reasoning_content: string }
    expect(completion.choices[0]!.finish_reason).toBe('stop')
    expect(message.content).toBe('There are **3** “r”s in **“strawberry”**.')
    expect(message.reasoning_content).toMatch(/^We need answer simple\. Count r in strawberry\./)
    expect(message.content).not.toContain('Count r in strawberry')
  })

  it('a streamed tool call after reasoning, usage on the finish chunk: the SDK assembles the call; usage comes once, last', async () => {
    const file = 'deepseek/deepseek-tool-call.chunks.txt'
    fakes.replay.serve({ file, framing: 'chat' })
    const row = await nextLedgerRow(gw)
    const stream = client().chat.completions.stream({ model: MODEL, messages: [{ role: 'user', content: 'What is the weather in San Francisco?' }], tools: [weather], stream_options: { include_usage: true } })
    const chunks = await collect(stream)
    const final = await stream.finalChatCompletion()
    expect(final.choices[0]!.finish_reason).toBe('tool_calls')
    expect(final.choices[0]!.message.tool_calls).toEqual([{ id: 'call_00_IhCAliIHtM9gKpgfqbBV9873', type: 'function', function: { name: 'weather', arguments: '{"location": "San Francisco"}' } }])
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('')
    expect(chunks.map((c) => (c.choices[0]?.delta as { reasoning_content?: string | null } | undefined)?.reasoning_content ?? '').join(''))
      .toBe('The user asks about the weather in San Francisco. I should use the weather tool.')

    // The vendor's usage rode on the finish chunk: the client gets it once, as the final chunk with empty choices.
    const recordedUsage = (JSON.parse(recordedChunks(file).at(-1)!) as { usage: DeepSeekUsage }).usage
    expect(chunks.filter((c) => c.usage)).toHaveLength(1)
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: recordedUsage })
    expect(chunks.find((c) => c.choices[0]?.finish_reason === 'tool_calls')?.usage ?? undefined).toBeUndefined()
    expectBill(await row(), recordedUsage)
  })
})
