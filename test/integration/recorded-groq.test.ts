// Real recorded Groq answers (test/fixtures/recorded/groq/, INDEX.md there) replayed through the gateway's
// OpenAI-compatible chat adapter (an `openai` account at Groq's base URL) and read by the official `openai` SDK.
// Groq counts reasoning inside completion_tokens (total = prompt + completion) and, streaming, puts usage on the
// finish chunk (and again under x_groq).
import OpenAI from 'openai'
import type { ChatCompletionTool } from 'openai/resources/chat/completions'
import { describe, expect, it } from 'vitest'
import { recordedBytes, recordedChunks } from '../fakes/replay.js'
import { TEST_KEY } from '../helpers/gateway.js'
import { nextLedgerRow, tokenCostNano, withRecordedGateway } from '../helpers/recorded.js'
import { collect } from '../helpers/sse.js'

// Groq's list prices, USD per 1M tokens
const LLAMA = { input: 0.59, output: 0.79 }
const QWEN = { input: 0.29, output: 0.59 }
const { gw, fakes } = withRecordedGateway('openai', [
  { id: 'llama-3.3-70b-versatile', family: 'gpt', pricing: LLAMA },
  { id: 'qwen/qwen3-32b', family: 'gpt', pricing: QWEN },
], '/openai/v1')
const client = () => new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: TEST_KEY, maxRetries: 0 })

const weatherTool: ChatCompletionTool = { type: 'function', function: { name: 'weather', parameters: { type: 'object', properties: {} } } }
const ask = [{ role: 'user' as const, content: 'What is the weather?' }]
interface Usage { prompt_tokens: number; completion_tokens: number; total_tokens: number }
const jsonUsage = (file: string) => (JSON.parse(recordedBytes(file).toString('utf8')) as { usage: Usage }).usage

describe('recorded Groq chat completions', () => {
  it('a tool call (JSON, llama-3.3-70b-versatile): byte for byte to the client, the SDK reads id, name and arguments', async () => {
    const file = 'groq/groq-tool-call.json'
    fakes.replay.serve({ file })
    const row = await nextLedgerRow(gw)
    const raw = await gw.post('/v1/chat/completions', { model: 'llama-3.3-70b-versatile', messages: ask, tools: [weatherTool] })
    expect(raw.status).toBe(200)
    expect(Buffer.from(await raw.arrayBuffer()).equals(recordedBytes(file))).toBe(true)
    expect(fakes.replay.calls[0]).toMatchObject({ method: 'POST', path: '/openai/v1/chat/completions' })
    const usage = jsonUsage(file)
    expect(await row()).toMatchObject({ status: 200, input_tokens: 218, output_tokens: 15, cost_nano: tokenCostNano(LLAMA, { input: usage.prompt_tokens, output: usage.completion_tokens }) })

    const completion = await client().chat.completions.create({ model: 'llama-3.3-70b-versatile', messages: ask, tools: [weatherTool] })
    expect(completion.choices[0]!.finish_reason).toBe('tool_calls')
    expect(completion.choices[0]!.message.tool_calls).toEqual([{ id: 'ax9fskhev', type: 'function', function: { name: 'weather', arguments: '{}' } }])
  })

  it('a streamed tool call with usage on the finish chunk: the SDK assembles it, usage comes once as the last chunk', async () => {
    const file = 'groq/groq-tool-call.chunks.txt'
    fakes.replay.serve({ file, framing: 'chat' })
    const row = await nextLedgerRow(gw)
    const stream = client().chat.completions.stream({ model: 'llama-3.3-70b-versatile', messages: ask, tools: [weatherTool], stream_options: { include_usage: true } })
    const chunks = await collect(stream)
    const final = await stream.finalChatCompletion()
    expect(final.choices[0]!.finish_reason).toBe('tool_calls')
    expect(final.choices[0]!.message.tool_calls).toEqual([{ id: 'tk85n1k4m', type: 'function', function: { name: 'weather', arguments: '{}' } }])
    const usage = (JSON.parse(recordedChunks(file).at(-1)!) as { usage: Usage }).usage
    expect(chunks.filter((c) => c.usage)).toHaveLength(1)
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage })
    expect(await row()).toMatchObject({ input_tokens: 210, output_tokens: 15, cost_nano: tokenCostNano(LLAMA, { input: 210, output: 15 }) })
  })

  it('a reasoning answer (JSON, qwen/qwen3-32b): the reasoning stays in `reasoning`, billed once inside completion_tokens', async () => {
    const file = 'groq/groq-reasoning.json'
    fakes.replay.serve({ file })
    const row = await nextLedgerRow(gw)
    const completion = await client().chat.completions.create({ model: 'qwen/qwen3-32b', messages: [{ role: 'user', content: 'How many "r"s are in the word "strawberry"?' }] })
    const message = completion.choices[0]!.message as typeof completion.choices[0]['message'] & { reasoning: string }
    expect(completion.choices[0]!.finish_reason).toBe('stop')
    expect(message.content).toMatch(/^The word "strawberry" contains \*\*3\*\* instances of the letter \*\*R\*\*\./)
    expect(message.content).not.toContain('Okay, so the user is asking')
    expect(message.reasoning).toMatch(/^Okay, so the user is asking how many times the letter "r" appears/)
    const usage = jsonUsage(file)
    expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens)
    expect(await row()).toMatchObject({ input_tokens: 17, output_tokens: 649, cost_nano: tokenCostNano(QWEN, { input: 17, output: 649 }) })
  })
})
