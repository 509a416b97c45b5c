// Real recorded answers of Gemini's Interactions API (test/fixtures/recorded/gemini/interactions-*, INDEX.md there)
// replayed through POST /v1beta/interactions. They are of the API's current generation (`steps[]`, `step.delta`,
// `interaction.completed`). Thinking (total_thought_tokens, outside total_output_tokens) is billed as output.
import { describe, expect, it } from 'vitest'
import { recordedBytes, recordedChunks } from '../fakes/replay.js'
import { nextLedgerRow, tokenCostNano, withRecordedGateway } from '../helpers/recorded.js'
import { readSse } from '../helpers/sse.js'

// gemini-2.5-flash's list prices, USD per 1M tokens
const PRICES = { input: 0.3, output: 2.5, cachedInput: 0.03 }
const MODEL = 'gemini-2.5-flash'
const { gw, fakes } = withRecordedGateway('gemini', [{ id: MODEL, family: 'gemini-interactions', pricing: PRICES, maxOutputTokens: 65_536 }])
// The test gateway's requests carry TEST_KEY, the chat group's key.
const post = (body: Record<string, unknown>) => gw.post('/v1beta/interactions', body)

interface InteractionsUsage { total_tokens: number; total_input_tokens: number; total_cached_tokens: number; total_output_tokens: number; total_tool_use_tokens: number; total_thought_tokens: number }
const jsonUsage = (file: string) => (JSON.parse(recordedBytes(file).toString('utf8')) as { usage: InteractionsUsage }).usage
const streamUsage = (file: string) => (JSON.parse(recordedChunks(file).at(-1)!) as { interaction: { usage: InteractionsUsage } }).interaction.usage

/** The bill of a recorded usage: input as sent, output with the thinking, at the model row's prices. */
function expectBill(row: { status: number; endpoint: string; cost_nano: number; input_tokens: number | null; output_tokens: number | null }, usage: InteractionsUsage) {
  const output = usage.total_output_tokens + usage.total_thought_tokens
  expect(usage.total_tokens).toBe(usage.total_input_tokens + output)
  expect(row).toMatchObject({ status: 200, endpoint: 'interactions', input_tokens: usage.total_input_tokens, output_tokens: output })
  expect(row.cost_nano).toBe(tokenCostNano(PRICES, { input: usage.total_input_tokens, cached: usage.total_cached_tokens, output }))
}

const weather = { type: 'function', name: 'getWeather', description: 'Get the weather in a location', parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] } }

describe('recorded Gemini interactions (gemini-2.5-flash)', () => {
  it('a text answer reaches the client byte for byte: a thought step, then the model output; billed from its usage with the thinking as output', async () => {
    const file = 'gemini/interactions-basic.json'
    fakes.replay.serve({ file })
    const row = await nextLedgerRow(gw)
    const res = await post({ model: MODEL, input: 'Hello, how are you?' })
    expect(res.status).toBe(200)
    const bytes = Buffer.from(await res.arrayBuffer())
    expect(bytes.equals(recordedBytes(file))).toBe(true)
    const body = JSON.parse(bytes.toString('utf8')) as { status: string; steps: Array<{ type: string; content?: Array<{ text: string }> }> }
    expect(body.status).toBe('completed')
    expect(body.steps.map((s) => s.type)).toEqual(['thought', 'model_output'])
    expect(body.steps[1]!.content![0]!.text).toBe("Hello! I'm doing well, thank you for asking.\n\nHow are you today?")

    expect(fakes.replay.calls).toHaveLength(1)
    expect(fakes.replay.calls[0]).toMatchObject({ method: 'POST', path: '/v1beta/interactions' })
    expect(fakes.replay.calls[0]!.headers['x-goog-api-key']).toBe('recorded-gemini-secret')
    expect(JSON.parse(fakes.replay.calls[0]!.body)).toEqual({ model: MODEL, input: 'Hello, how are you?' })
    expectBill(await row(), jsonUsage(file))
  })

  it('a function call: status requires_action, the call\'s id, name and arguments as recorded; billed from its usage', async () => {
    const file = 'gemini/interactions-tool-call-step1.json'
    fakes.replay.serve({ file })
    const row = await nextLedgerRow(gw)
    const res = await post({ model: MODEL, input: 'What is the weather in San Francisco?', tools: [weather] })
    expect(res.status).toBe(200)
    const bytes = Buffer.from(await res.arrayBuffer())
    expect(bytes.equals(recordedBytes(file))).toBe(true)
    const body = JSON.parse(bytes.toString('utf8')) as { status: string; steps: Array<Record<string, unknown>> }
    expect(body.status).toBe('requires_action')
    expect(body.steps[1]).toEqual({ id: 'zggxzq8r', type: 'function_call', name: 'getWeather', arguments: { location: 'San Francisco' } })
    expect(JSON.parse(fakes.replay.calls[0]!.body)).toMatchObject({ tools: [weather] })
    expectBill(await row(), jsonUsage(file))
  })

  it('a streamed text answer: every recorded event relayed in order, unchanged; the text deltas read the answer; billed from interaction.completed', async () => {
    const file = 'gemini/interactions-basic.chunks.txt'
    fakes.replay.serve({ file, framing: 'interactions' })
    const row = await nextLedgerRow(gw)
    const res = await post({ model: MODEL, input: 'Hello, how are you?', stream: true })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const events = await readSse(res)
    // Relayed as recorded; the stream ends with interaction.completed (no terminator was recorded, none is added).
    expect(events.map((e) => e.data)).toEqual(recordedChunks(file))
    const payloads = events.map((e) => JSON.parse(e.data) as { event_type: string; delta?: { type: string; text?: string } })
    expect(payloads.map((p) => p.event_type)).toEqual(['interaction.created', 'interaction.status_update', 'step.start', 'step.delta', 'step.stop', 'step.start', 'step.delta', 'step.stop', 'interaction.completed'])
    const text = payloads.filter((p) => p.event_type === 'step.delta' && p.delta?.type === 'text').map((p) => p.delta!.text).join('')
    expect(text).toBe("I'm doing great, thank you for asking!\n\nHow are you doing today? And what can I do for you?")
    expect(fakes.replay.calls[0]!.headers.accept).toBe('text/event-stream')
    expectBill(await row(), streamUsage(file))
  })

  it('a streamed function call: the arguments arrive as an arguments_delta, the interaction completes as requires_action; billed from its usage', async () => {
    const file = 'gemini/interactions-tool-call-step1.chunks.txt'
    fakes.replay.serve({ file, framing: 'interactions' })
    const row = await nextLedgerRow(gw)
    const res = await post({ model: MODEL, input: 'What is the weather in San Francisco?', tools: [weather], stream: true })
    expect(res.status).toBe(200)
    const events = await readSse(res)
    expect(events.map((e) => e.data)).toEqual(recordedChunks(file))
    const payloads = events.map((e) => JSON.parse(e.data) as { event_type: string; step?: Record<string, unknown>; delta?: { type: string; arguments?: string }; interaction?: { status: string } })
    expect(payloads[5]).toMatchObject({ event_type: 'step.start', index: 1, step: { id: '61nzpsv4', type: 'function_call', name: 'getWeather' } })
    expect(payloads[6]!.delta).toEqual({ arguments: '{"location":"San Francisco"}', type: 'arguments_delta' })
    expect(payloads.at(-1)).toMatchObject({ event_type: 'interaction.completed', interaction: { status: 'requires_action' } })
    expectBill(await row(), streamUsage(file))
  })
})
