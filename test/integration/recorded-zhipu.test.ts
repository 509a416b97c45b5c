// Real recorded Zhipu GLM answers (test/fixtures/recorded/zhipu/, INDEX.md there: ReqLLM's fixtures, recorded from
// Z.AI's /api/paas/v4 with the wire bytes of the stream kept) replayed through the gateway's OpenAI-compatible chat
// adapter of a `zhipu` account and read by the official `openai` SDK. GLM streams its thinking in reasoning_content,
// counts it inside completion_tokens (total = prompt + completion) and sends its usage on the finish chunk.
import OpenAI from 'openai'
import type { ChatCompletionTool } from 'openai/resources/chat/completions'
import { describe, expect, it } from 'vitest'
import { recordedChunks } from '../fakes/replay.js'
import { TEST_KEY } from '../helpers/gateway.js'
import { nextLedgerRow, tokenCostNano, withRecordedGateway } from '../helpers/recorded.js'
import { collect } from '../helpers/sse.js'

// Z.AI's list prices of glm-4.5 and glm-4.6, USD per 1M tokens (input, cached input, output); the built-in catalog no
// longer lists these models.
const PRICES = { input: 0.6, output: 2.2, cachedInput: 0.11 }
const { gw, fakes } = withRecordedGateway('zhipu', [{ id: 'glm-4.5', family: 'glm', pricing: PRICES }, { id: 'glm-4.6', family: 'glm', pricing: PRICES }], '/api/paas/v4')
const client = () => new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: TEST_KEY, maxRetries: 0 })

interface GlmUsage { prompt_tokens: number; completion_tokens: number; total_tokens: number; prompt_tokens_details: { cached_tokens: number } }
interface GlmChunk { choices: Array<{ finish_reason?: string; delta: { content?: string; reasoning_content?: string } }>; usage?: GlmUsage }
const payloads = (file: string) => recordedChunks(file).map((line) => JSON.parse(line) as GlmChunk)
/** What the recording streamed in one delta field, joined. */
const joined = (file: string, field: 'content' | 'reasoning_content') => payloads(file).map((c) => c.choices[0]?.delta[field] ?? '').join('')

function expectBill(row: { cost_nano: number; input_tokens: number | null; output_tokens: number | null; usage_source?: string | null }, usage: GlmUsage) {
  expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens)
  expect(row.input_tokens).toBe(usage.prompt_tokens)
  // the thinking is inside completion_tokens: billed once
  expect(row.output_tokens).toBe(usage.completion_tokens)
  expect(row.usage_source).toBe('upstream')
  expect(row.cost_nano).toBe(tokenCostNano(PRICES, { input: usage.prompt_tokens, cached: usage.prompt_tokens_details.cached_tokens, output: usage.completion_tokens }))
}

const profile: ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'structured_output',
    description: 'Generate structured output matching the provided schema',
    parameters: {
      type: 'object',
      additionalProperties: false,
      properties: { age: { type: 'integer', minimum: 1, description: "Person's age in years" }, name: { type: 'string', description: "Person's full name" }, occupation: { type: 'string', description: "Person's job or profession" } },
      required: ['name', 'age'],
    },
  },
}

describe('recorded Zhipu GLM chat streams (Z.AI)', () => {
  it('glm-4.5 text after its thinking: the answer in content, the thinking in reasoning_content only; usage once, last; billed once', async () => {
    const file = 'zhipu/req-llm-glm-4.5-streaming.chunks.txt'
    fakes.replay.serve({ file, framing: 'chat' })
    const row = await nextLedgerRow(gw)
    const messages = [{ role: 'system' as const, content: 'You are a helpful, creative assistant.' }, { role: 'user' as const, content: 'Say hello in one short, imaginative sentence.' }]
    const stream = client().chat.completions.stream({ model: 'glm-4.5', messages, max_tokens: 2000, stream_options: { include_usage: true } })
    const chunks = await collect(stream)
    const final = await stream.finalChatCompletion()

    expect(final.choices[0]!.finish_reason).toBe('stop')
    expect(final.choices[0]!.message.content).toBe('Greetings from the realm where daydreams take flight!')
    expect(final.choices[0]!.message.content).toBe(joined(file, 'content'))
    const reasoning = chunks.map((c) => (c.choices[0]?.delta as { reasoning_content?: string } | undefined)?.reasoning_content ?? '').join('')
    expect(reasoning).toBe(joined(file, 'reasoning_content'))
    expect(reasoning).toMatch(/^\nI need to come up with a short, imaginative way to say hello\./)
    expect(final.choices[0]!.message.content).not.toContain('I need to come up with')

    expect(fakes.replay.calls).toHaveLength(1)
    expect(fakes.replay.calls[0]).toMatchObject({ method: 'POST', path: '/api/paas/v4/chat/completions' })
    expect(fakes.replay.calls[0]!.headers.authorization).toBe('Bearer recorded-zhipu-secret')
    expect(JSON.parse(fakes.replay.calls[0]!.body)).toMatchObject({ model: 'glm-4.5', messages, stream: true })

    // The vendor's usage rode on its finish chunk: the client gets it once, as the final chunk with empty choices.
    const usage = payloads(file).at(-1)!.usage!
    expect(payloads(file).at(-1)!.choices[0]!.finish_reason).toBe('stop')
    expect(chunks.filter((c) => c.usage)).toHaveLength(1)
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage })
    expectBill(await row(), usage)
  })

  it('glm-4.6 tool call: its arguments whole in one fragment, text and thinking apart; finish tool_calls; cached input at its own price', async () => {
    const file = 'zhipu/req-llm-glm-4.6-tool-call.chunks.txt'
    fakes.replay.serve({ file, framing: 'chat' })
    const row = await nextLedgerRow(gw)
    const stream = client().chat.completions.stream({ model: 'glm-4.6', messages: [{ role: 'user', content: 'Generate a software engineer profile' }], tools: [profile], tool_choice: 'auto', max_tokens: 500, stream_options: { include_usage: true } })
    const chunks = await collect(stream)
    const final = await stream.finalChatCompletion()

    expect(final.choices[0]!.finish_reason).toBe('tool_calls')
    expect(final.choices[0]!.message.tool_calls).toEqual([
      { id: 'call_9ac1144b3b134a9dbfc7ec91', type: 'function', function: { name: 'structured_output', arguments: '{"name":"Alexandra Chen","age":28,"occupation":"Software Engineer"}' } },
    ])
    // GLM streams a tool call's arguments whole, in one fragment, unless asked for tool_stream (docs/vendors/zhipu-glm.md).
    expect(chunks.filter((c) => c.choices[0]?.delta.tool_calls)).toHaveLength(1)
    expect(final.choices[0]!.message.content).toBe("\n\nI'll generate a software engineer profile for you using the structured output format.\n")
    const reasoning = chunks.map((c) => (c.choices[0]?.delta as { reasoning_content?: string } | undefined)?.reasoning_content ?? '').join('')
    expect(reasoning).toBe(joined(file, 'reasoning_content'))
    expect(reasoning).toMatch(/^The user wants me to generate a software engineer profile\./)
    expect(JSON.parse(fakes.replay.calls[0]!.body)).toMatchObject({ model: 'glm-4.6', tools: [profile], tool_choice: 'auto' })

    const usage = payloads(file).at(-1)!.usage!
    expect(usage).toEqual({ prompt_tokens: 219, completion_tokens: 165, total_tokens: 384, prompt_tokens_details: { cached_tokens: 43 } })
    expect(chunks.filter((c) => c.usage)).toHaveLength(1)
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage })
    expectBill(await row(), usage)
  })
})
