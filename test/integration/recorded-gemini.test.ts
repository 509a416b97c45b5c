// Real recorded Gemini answers (test/fixtures/recorded/gemini/, INDEX.md there) replayed through the gateway's Gemini
// chat adapter (OpenAI chat completions translated to generateContent) and read by the official `openai` SDK. Gemini
// bills thinking tokens (thoughtsTokenCount, outside candidatesTokenCount) as output.
import OpenAI from 'openai'
import type { ChatCompletionTool } from 'openai/resources/chat/completions'
import { describe, expect, it } from 'vitest'
import { decodeToolCallId } from '../../electron/gateway/upstreams/gemini-tool-ids.js'
import { recordedBytes, recordedChunks } from '../fakes/replay.js'
import { TEST_KEY } from '../helpers/gateway.js'
import { nextLedgerRow, tokenCostNano, withRecordedGateway } from '../helpers/recorded.js'
import { collect } from '../helpers/sse.js'

// gemini-3-pro-preview's list prices (prompts up to 200k tokens), USD per 1M tokens
const PRICES = { input: 2, output: 12, cachedInput: 0.2 }
const MODEL = 'gemini-3-pro-preview'
const IMAGE_MODEL = 'gemini-3.1-flash-image-replay'
const { gw, fakes } = withRecordedGateway('gemini', [
  { id: MODEL, family: 'gemini', pricing: PRICES, maxOutputTokens: 65_536 },
  // the recording's gemini-3.1-flash-image-preview, at its per-image price
  { id: IMAGE_MODEL, family: 'gemini-image', pricing: { unit: 'image', price: 0.067 } },
])
const client = () => new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: TEST_KEY, maxRetries: 0 })

const weather: ChatCompletionTool = {
  type: 'function',
  function: { name: 'weather', description: 'Get the weather in a location', parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] } },
}
interface UsageMetadata { promptTokenCount: number; candidatesTokenCount: number; thoughtsTokenCount: number; totalTokenCount: number }
const jsonUsage = (file: string) => (JSON.parse(recordedBytes(file).toString('utf8')) as { usageMetadata: UsageMetadata }).usageMetadata
const streamUsage = (file: string) => (JSON.parse(recordedChunks(file).at(-1)!) as { usageMetadata: UsageMetadata }).usageMetadata

/** Billed: the prompt as input, the candidates and the thoughts as output (totalTokenCount counts all three). */
function expectBill(row: { cost_nano: number; input_tokens: number | null; output_tokens: number | null }, u: UsageMetadata) {
  const output = u.candidatesTokenCount + u.thoughtsTokenCount
  expect(u.totalTokenCount).toBe(u.promptTokenCount + output)
  expect(row).toMatchObject({ input_tokens: u.promptTokenCount, output_tokens: output, cost_nano: tokenCostNano(PRICES, { input: u.promptTokenCount, output }) })
}

describe('recorded Gemini answers through chat completions (gemini-3-pro-preview)', () => {
  it('a text answer: the SDK reads the text and finish reason stop; the thought signature beside the content, not in it; thoughts billed as output', async () => {
    const file = 'gemini/google-text.json'
    fakes.replay.serve({ file })
    const row = await nextLedgerRow(gw)
    const completion = await client().chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'How many "r"s are in the word "strawberry"?' }] })
    expect(fakes.replay.calls[0]).toMatchObject({ method: 'POST', path: `/v1beta/models/${MODEL}:generateContent` })
    expect(fakes.replay.calls[0]!.headers['x-goog-api-key']).toBe('recorded-gemini-secret')
    expect(completion.choices[0]!.message.content).toBe("There are **3** r's in strawberry.\n\nHere is the breakdown: st**r**awbe**rr**y.")
    expect(completion.choices[0]!.finish_reason).toBe('stop')
    // The signature rides beside the message, as Gemini's own OpenAI endpoint carries it, for the next turn.
    expect(completion.choices[0]!.message).toMatchObject({ extra_content: { google: { thought_signature: expect.stringMatching(/^EtoFCtcF.*olcg$/) } } })
    expect(completion.usage).toMatchObject({ prompt_tokens: 9, completion_tokens: 28 + 244, total_tokens: 281, completion_tokens_details: { reasoning_tokens: 244 } })
    expectBill(await row(), jsonUsage(file))
  })

  it('a streamed text answer: the deltas make the recorded text, finish stop once, usage once as the last chunk', async () => {
    const file = 'gemini/google-text.chunks.txt'
    fakes.replay.serve({ file, framing: 'gemini' })
    const row = await nextLedgerRow(gw)
    const chunks = await collect(await client().chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'How many "r"s are in the word "strawberry"?' }], stream: true, stream_options: { include_usage: true } }))
    expect(fakes.replay.calls[0]).toMatchObject({ method: 'POST', path: `/v1beta/models/${MODEL}:streamGenerateContent?alt=sse` })
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y')
    expect(chunks.flatMap((c) => c.choices.map((choice) => choice.finish_reason)).filter(Boolean)).toEqual(['stop'])
    expect(chunks.filter((c) => c.usage)).toHaveLength(1)
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 9, completion_tokens: 23 + 185, total_tokens: 217 } })
    expectBill(await row(), streamUsage(file))
  })

  it('a function call: name and arguments as recorded, finish reason tool_calls, its thought signature carried in the call id', async () => {
    const file = 'gemini/google-tool-call.json'
    fakes.replay.serve({ file })
    const row = await nextLedgerRow(gw)
    const completion = await client().chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'What is the weather in San Francisco?' }], tools: [weather] })
    const choice = completion.choices[0]!
    expect(choice.finish_reason).toBe('tool_calls')
    expect(choice.message.tool_calls).toHaveLength(1)
    const call = choice.message.tool_calls![0]!
    expect(call).toMatchObject({ type: 'function', function: { name: 'weather', arguments: '{"location":"San Francisco"}' } })
    const signature = 'EskgCsYgAb4+9vtF7/499YQS2bjZs3xcQI+iAl+ILn29nK1j0Kg6su7QsUUUk3nrAAfnS2w5WiVvlcCqu9fAebJ2cvfaEyBahEt5'
    expect(decodeToolCallId(call.id)).toEqual({ signature })
    expect(choice.message.content ?? '').toBe('')
    expectBill(await row(), jsonUsage(file))
  })

  it('a streamed function call: the SDK assembles one call with the recorded arguments; finish tool_calls', async () => {
    const file = 'gemini/google-tool-call.chunks.txt'
    fakes.replay.serve({ file, framing: 'gemini' })
    const row = await nextLedgerRow(gw)
    const stream = client().chat.completions.stream({ model: MODEL, messages: [{ role: 'user', content: 'What is the weather in San Francisco?' }], tools: [weather] })
    await collect(stream)
    const final = await stream.finalChatCompletion()
    expect(final.choices[0]!.finish_reason).toBe('tool_calls')
    expect(final.choices[0]!.message.tool_calls).toHaveLength(1)
    expect(final.choices[0]!.message.tool_calls![0]).toMatchObject({ type: 'function', function: { name: 'weather', arguments: '{"location":"San Francisco"}' } })
    expect(decodeToolCallId(final.choices[0]!.message.tool_calls![0]!.id).signature).toMatch(/^EqUCCqICAb4\+9vsh8Pd5/)
    expect(final.choices[0]!.message.content ?? '').toBe('')
    expectBill(await row(), streamUsage(file))
  })
})

describe('a recorded Gemini image refusal (gemini-3.1-flash-image-preview)', () => {
  it("NO_IMAGE: the client's 400 naming the vendor's reason, tried once (it would be refused again), nothing billed", async () => {
    fakes.replay.serve({ file: 'gemini/google-image-no-image-live.json' })
    const row = await nextLedgerRow(gw)
    const res = await gw.post('/v1/images/generations', { model: IMAGE_MODEL, prompt: 'a red fox in the snow' })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ error: {
      message: 'The model made no image: the vendor stopped it (NO_IMAGE). The same request will be refused again; change the prompt or the reference images.',
      type: 'invalid_request_error', param: null, code: 'image_refused',
    } })
    expect(fakes.replay.calls).toHaveLength(1)
    expect(fakes.replay.calls[0]).toMatchObject({ method: 'POST', path: `/v1beta/models/${IMAGE_MODEL}:generateContent` })
    expect(await row()).toMatchObject({ status: 400, cost_nano: 0, error_code: 'image_refused' })
  })
})
