// Real recorded OpenAI answers (test/fixtures/recorded/openai/, INDEX.md there) replayed through the gateway's OpenAI
// chat completions and responses adapters, read by the official `openai` SDK.
import OpenAI from 'openai'
import type { ResponseStreamEvent } from 'openai/resources/responses/responses'
import { describe, expect, it } from 'vitest'
import { recordedBytes, recordedChunks } from '../fakes/replay.js'
import { TEST_KEY } from '../helpers/gateway.js'
import { nextLedgerRow, tokenCostNano, withRecordedGateway } from '../helpers/recorded.js'

// List prices, USD per 1M tokens
const NANO = { input: 0.1, output: 0.4, cachedInput: 0.025 }
const MINI = { input: 0.15, output: 0.6, cachedInput: 0.075 }
const GPT51 = { input: 1.25, output: 10, cachedInput: 0.125 }
const { gw, fakes } = withRecordedGateway('openai', [
  { id: 'gpt-4.1-nano', family: 'gpt', pricing: NANO },
  { id: 'gpt-4o-mini', family: 'gpt', pricing: MINI },
  { id: 'gpt-5.1-replay', family: 'gpt', pricing: GPT51 },
], '/v1')
const client = () => new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: TEST_KEY, maxRetries: 0 })

describe('recorded OpenAI chat completions (gpt-4.1-nano)', () => {
  it('a text answer: byte for byte to the client, the SDK reads content and finish reason; billed from its usage', async () => {
    const file = 'openai/openai-text.json'
    fakes.replay.serve({ file })
    const row = await nextLedgerRow(gw)
    const raw = await gw.post('/v1/chat/completions', { model: 'gpt-4.1-nano', messages: [{ role: 'user', content: 'Invent a new holiday and describe its traditions.' }] })
    expect(raw.status).toBe(200)
    expect(Buffer.from(await raw.arrayBuffer()).equals(recordedBytes(file))).toBe(true)
    expect(fakes.replay.calls[0]).toMatchObject({ method: 'POST', path: '/v1/chat/completions' })
    expect(fakes.replay.calls[0]!.headers.authorization).toBe('Bearer recorded-openai-secret')
    expect(await row()).toMatchObject({ status: 200, input_tokens: 16, output_tokens: 363, cost_nano: tokenCostNano(NANO, { input: 16, output: 363 }) })

    const completion = await client().chat.completions.create({ model: 'gpt-4.1-nano', messages: [{ role: 'user', content: 'Invent a new holiday and describe its traditions.' }] })
    expect(completion.choices[0]!.finish_reason).toBe('stop')
    expect(completion.choices[0]!.message.content).toMatch(/^\*\*Holiday Name:\*\* Galaxy Day {2}\n\n/)
    expect(completion.choices[0]!.message.content).toMatch(/dream beyond our world\.$/)
    expect(completion.usage).toMatchObject({ prompt_tokens: 16, completion_tokens: 363, total_tokens: 379 })
  })
})

describe('recorded OpenAI responses', () => {
  it('a streamed text answer (gpt-4o-mini): every event relayed in order with its event name, the SDK\'s final response reads "OK"; billed from response.completed', async () => {
    const file = 'openai/issue-20047-openai-responses.chunks.txt'
    fakes.replay.serve({ file, framing: 'events' })
    const row = await nextLedgerRow(gw)
    const stream = client().responses.stream({ model: 'gpt-4o-mini', input: 'Reply with OK.' })
    const events: ResponseStreamEvent[] = []
    for await (const event of stream) events.push(event)
    const final = await stream.finalResponse()
    expect(fakes.replay.calls[0]).toMatchObject({ method: 'POST', path: '/v1/responses' })
    expect(events.map((e) => e.type)).toEqual(recordedChunks(file).map((line) => (JSON.parse(line) as { type: string }).type))
    expect(events.map((e) => e.sequence_number)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8])
    expect(final.output_text).toBe('OK')
    expect(final.status).toBe('completed')
    expect(final.usage).toMatchObject({ input_tokens: 12, output_tokens: 2, total_tokens: 14 })
    expect(await row()).toMatchObject({ status: 200, endpoint: 'responses', input_tokens: 12, output_tokens: 2, cost_nano: tokenCostNano(MINI, { input: 12, output: 2 }) })
  })

  it('a streamed function call (gpt-5.1): the SDK assembles call id, name and arguments from the deltas; no text output', async () => {
    const file = 'openai/issue-19493-gpt-5.1-tool-call.chunks.txt'
    fakes.replay.serve({ file, framing: 'events' })
    const row = await nextLedgerRow(gw)
    const tools = [{ type: 'function' as const, name: 'get_weather', description: 'Get weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false }, strict: true }]
    const stream = client().responses.stream({ model: 'gpt-5.1-replay', input: 'What is the weather in Beijing?', tools, tool_choice: 'required' })
    const deltas: string[] = []
    for await (const event of stream) if (event.type === 'response.function_call_arguments.delta') deltas.push(event.delta)
    const final = await stream.finalResponse()
    expect(deltas.join('')).toBe('{"city":"Beijing"}')
    expect(final.output).toEqual([{ id: 'fc_0775572d10a16b66006a8d8528e8a887d2a32ef76463d40c98', type: 'function_call', status: 'completed', arguments: '{"city":"Beijing"}', call_id: 'call_2FQdm3Br7Qb35YUBSkDR7kue', name: 'get_weather', parsed_arguments: { city: 'Beijing' } }])
    expect(final.output_text).toBe('')
    expect(await row()).toMatchObject({ status: 200, endpoint: 'responses', input_tokens: 45, output_tokens: 25, cost_nano: tokenCostNano(GPT51, { input: 45, output: 25 }) })
  })
})
