// Real recorded Azure OpenAI answers (test/fixtures/recorded/azure/, INDEX.md there) replayed through the gateway's
// OpenAI chat completions and responses adapters (an `openai` account at the Azure resource's /openai/v1 base URL),
// read by the official `openai` SDK.
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { recordedBytes, recordedChunks } from '../fakes/replay.js'
import { TEST_KEY } from '../helpers/gateway.js'
import { nextLedgerRow, tokenCostNano, withRecordedGateway } from '../helpers/recorded.js'
import { collect } from '../helpers/sse.js'

// List prices, USD per 1M tokens
const GPT5_NANO = { input: 0.05, output: 0.4, cachedInput: 0.005 }
const GPT51 = { input: 1.25, output: 10, cachedInput: 0.125 }
const { gw, fakes } = withRecordedGateway('openai', [
  { id: 'gpt-5-nano', family: 'gpt', pricing: GPT5_NANO },
  { id: 'gpt-5.1', family: 'gpt', pricing: GPT51 },
], '/openai/v1')
const client = () => new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: TEST_KEY, maxRetries: 0 })

describe('recorded Azure OpenAI chat completions (gpt-5-nano via the model router)', () => {
  it('a stream opening with a choice-less content-filter chunk: the SDK reads the text and finish reason; reasoning billed inside completion_tokens', async () => {
    const file = 'azure/azure-model-router.1.chunks.txt'
    fakes.replay.serve({ file, framing: 'chat' })
    const row = await nextLedgerRow(gw)
    const stream = client().chat.completions.stream({ model: 'gpt-5-nano', messages: [{ role: 'user', content: 'What is the capital of Denmark?' }], stream_options: { include_usage: true } })
    const chunks = await collect(stream)
    const final = await stream.finalChatCompletion()
    expect(fakes.replay.calls[0]).toMatchObject({ method: 'POST', path: '/openai/v1/chat/completions' })
    expect(final.choices[0]!.message.content).toBe('Capital of Denmark.')
    expect(final.choices[0]!.finish_reason).toBe('stop')
    const usage = (JSON.parse(recordedChunks(file).at(-1)!) as { usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number } }).usage
    expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens)
    expect(chunks.filter((c) => c.usage)).toHaveLength(1)
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage })
    expect(await row()).toMatchObject({ status: 200, input_tokens: 15, output_tokens: 78, cost_nano: tokenCostNano(GPT5_NANO, { input: 15, output: 78 }) })
  })
})

describe('recorded Azure OpenAI responses (gpt-5.1)', () => {
  it('a function call (JSON): byte for byte to the client, the SDK reads call id, name and arguments', async () => {
    const file = 'azure/azure-tool-call.1.json'
    fakes.replay.serve({ file })
    const row = await nextLedgerRow(gw)
    const raw = await gw.post('/v1/responses', { model: 'gpt-5.1', input: 'What is the weather in San Francisco?', tools: [{ type: 'function', name: 'weather', parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'], additionalProperties: false }, strict: true }] })
    expect(raw.status).toBe(200)
    expect(Buffer.from(await raw.arrayBuffer()).equals(recordedBytes(file))).toBe(true)
    expect(fakes.replay.calls[0]).toMatchObject({ method: 'POST', path: '/openai/v1/responses' })
    expect(await row()).toMatchObject({ status: 200, endpoint: 'responses', input_tokens: 45, output_tokens: 24, cost_nano: tokenCostNano(GPT51, { input: 45, output: 24 }) })

    const response = await client().responses.create({ model: 'gpt-5.1', input: 'What is the weather in San Francisco?' })
    expect(response.status).toBe('completed')
    expect(response.output_text).toBe('')
    expect(response.output).toEqual([{ id: 'fc_0a2fa1b539ba14ba00698c519ebab0819494302fc0b5c31440', type: 'function_call', status: 'completed', arguments: '{"location":"San Francisco"}', call_id: 'call_YunNGbIwdVJ2i0y0Mybva4Pw', name: 'weather' }])
  })
})
