// Real recorded xAI answers (test/fixtures/recorded/xai/, INDEX.md there) replayed through the gateway's xAI chat
// adapter and read by the official `openai` SDK. xAI counts reasoning apart from completion_tokens (total = prompt +
// completion + reasoning) and bills it as output: each recording's own `cost_in_usd_ticks` (1e-10 USD) is the bill.
import OpenAI from 'openai'
import type { ChatCompletionTool } from 'openai/resources/chat/completions'
import { describe, expect, it } from 'vitest'
import { recordedBytes, recordedChunks } from '../fakes/replay.js'
import { TEST_KEY } from '../helpers/gateway.js'
import { nextLedgerRow, tokenCostNano, withRecordedGateway } from '../helpers/recorded.js'
import { collect } from '../helpers/sse.js'

// grok-3-mini's list prices, USD per 1M tokens
const PRICES = { input: 0.3, output: 0.5, cachedInput: 0.075 }
const MODEL = 'grok-3-mini'
const { gw, fakes } = withRecordedGateway('xai', [{ id: MODEL, family: 'gpt', pricing: PRICES }], '/v1')
const client = () => new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: TEST_KEY, maxRetries: 0 })

const weather: ChatCompletionTool = {
  type: 'function',
  function: { name: 'weather', description: 'Get the weather in a location', parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] } },
}
const question = [{ role: 'user' as const, content: 'What is the weather in San Francisco?' }]

interface XaiUsage { prompt_tokens: number; completion_tokens: number; total_tokens: number; prompt_tokens_details: { cached_tokens: number }; completion_tokens_details: { reasoning_tokens: number }; cost_in_usd_ticks: number }
const jsonUsage = (file: string) => (JSON.parse(recordedBytes(file).toString('utf8')) as { usage: XaiUsage }).usage
const streamUsage = (file: string) => (JSON.parse(recordedChunks(file).at(-1)!) as { usage: XaiUsage }).usage

/** The bill of a recorded usage: the vendor's own cost, and the same figure from the model row's prices. */
function expectVendorBill(row: { cost_nano: number; input_tokens: number | null; output_tokens: number | null }, usage: XaiUsage) {
  const output = usage.completion_tokens + usage.completion_tokens_details.reasoning_tokens
  expect(usage.total_tokens).toBe(usage.prompt_tokens + output)
  expect(row.input_tokens).toBe(usage.prompt_tokens)
  expect(row.output_tokens).toBe(output)
  // 10 ticks are one nano-USD
  expect(row.cost_nano).toBe(usage.cost_in_usd_ticks / 10)
  expect(row.cost_nano).toBe(tokenCostNano(PRICES, { input: usage.prompt_tokens, cached: usage.prompt_tokens_details.cached_tokens, output }))
}

describe('recorded xAI chat completions (grok-3-mini)', () => {
  it('a tool call (JSON) reaches the client byte for byte: call id, name and arguments, reasoning apart from the empty content', async () => {
    const file = 'xai/xai-tool-call.json'
    fakes.replay.serve({ file })
    const row = await nextLedgerRow(gw)
    const res = await gw.post('/v1/chat/completions', { model: MODEL, messages: question, tools: [weather] })
    expect(res.status).toBe(200)
    expect(Buffer.from(await res.arrayBuffer()).equals(recordedBytes(file))).toBe(true)

    expect(fakes.replay.calls).toHaveLength(1)
    expect(fakes.replay.calls[0]).toMatchObject({ method: 'POST', path: '/v1/chat/completions' })
    expect(fakes.replay.calls[0]!.headers.authorization).toBe('Bearer recorded-xai-secret')
    expect(JSON.parse(fakes.replay.calls[0]!.body)).toMatchObject({ model: MODEL, tools: [weather] })
    expectVendorBill(await row(), jsonUsage(file))
  })

  it('the openai SDK reads the same answer: the tool call, finish reason tool_calls, no reasoning in content', async () => {
    fakes.replay.serve({ file: 'xai/xai-tool-call.json' })
    const completion = await client().chat.completions.create({ model: MODEL, messages: question, tools: [weather] })
    const choice = completion.choices[0]!
    expect(choice.finish_reason).toBe('tool_calls')
    expect(choice.message.content).toBe('')
    expect(choice.message.tool_calls).toEqual([{ id: 'call_93562515', type: 'function', function: { name: 'weather', arguments: '{"location":"San Francisco"}' } }])
    expect((choice.message as unknown as { reasoning_content: string }).reasoning_content).toMatch(/^First, the user is asking about the weather in San Francisco\./)
  })

  it('a streamed tool call: the SDK assembles it, reasoning rides in reasoning_content only, usage comes last as recorded', async () => {
    const file = 'xai/xai-tool-call.chunks.txt'
    fakes.replay.serve({ file, framing: 'chat' })
    const row = await nextLedgerRow(gw)
    const stream = client().chat.completions.stream({ model: MODEL, messages: question, tools: [weather], stream_options: { include_usage: true } })
    const chunks = await collect(stream)
    const final = await stream.finalChatCompletion()

    expect(final.choices[0]!.finish_reason).toBe('tool_calls')
    expect(final.choices[0]!.message.tool_calls).toEqual([{ id: 'call_55117580', type: 'function', function: { name: 'weather', arguments: '{"location":"San Francisco"}' } }])
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('')
    const reasoning = chunks.map((c) => (c.choices[0]?.delta as { reasoning_content?: string } | undefined)?.reasoning_content ?? '').join('')
    expect(reasoning).toBe('First, the user is')
    // One usage chunk, the last, with empty choices: the vendor's usage object unchanged.
    expect(chunks.filter((c) => c.usage)).toHaveLength(1)
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: streamUsage(file) })
    expect(JSON.parse(fakes.replay.calls[0]!.body)).toMatchObject({ stream: true, stream_options: { include_usage: true } })
    expectVendorBill(await row(), streamUsage(file))
  })

  it('a streamed text answer: content "Hello" after the reasoning, finish stop; without include_usage no chunk carries usage', async () => {
    const file = 'xai/xai-text.chunks.txt'
    fakes.replay.serve({ file, framing: 'chat' })
    const row = await nextLedgerRow(gw)
    const chunks = await collect(await client().chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }], stream: true }))
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('Hello')
    expect(chunks.map((c) => c.choices[0]?.finish_reason).filter(Boolean)).toEqual(['stop'])
    expect(chunks.every((c) => c.usage === undefined || c.usage === null)).toBe(true)
    expect(chunks.every((c) => c.id === '7327b9f5-1c2f-0a15-3fef-c14a71c460d3' && c.model === MODEL)).toBe(true)
    // Usage was asked upstream for the bill all the same.
    expect(JSON.parse(fakes.replay.calls[0]!.body)).toMatchObject({ stream_options: { include_usage: true } })
    expectVendorBill(await row(), streamUsage(file))
  })
})
