// Real recorded Alibaba DashScope (Qwen) answers (test/fixtures/recorded/dashscope/, INDEX.md there) replayed through
// the gateway's DashScope chat adapter (compatible mode) and read by the official `openai` SDK. DashScope counts
// reasoning inside completion_tokens (total = prompt + completion) and streams usage in a final chunk with empty
// choices.
import OpenAI from 'openai'
import type { ChatCompletionTool } from 'openai/resources/chat/completions'
import { describe, expect, it } from 'vitest'
import { recordedBytes, recordedChunks } from '../fakes/replay.js'
import { TEST_KEY } from '../helpers/gateway.js'
import { nextLedgerRow, tokenCostNano, withRecordedGateway } from '../helpers/recorded.js'
import { collect } from '../helpers/sse.js'

// qwen3-max's list prices (international, first tier), USD per 1M tokens
const PRICES = { input: 1.2, output: 6 }
const MODEL = 'qwen3-max'
const { gw, fakes } = withRecordedGateway('dashscope', [{ id: MODEL, family: 'qwen', pricing: PRICES }])
const client = () => new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: TEST_KEY, maxRetries: 0 })

const weatherTool: ChatCompletionTool = {
  type: 'function',
  function: { name: 'weather', description: 'Get the weather in a location', parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] } },
}
interface Usage { prompt_tokens: number; completion_tokens: number; total_tokens: number }

describe('recorded DashScope chat completions (qwen3-max)', () => {
  it('a streamed tool call whose later fragments carry an empty id: the SDK assembles one call; usage comes last', async () => {
    const file = 'dashscope/alibaba-tool-call.chunks.txt'
    fakes.replay.serve({ file, framing: 'chat' })
    const row = await nextLedgerRow(gw)
    const stream = client().chat.completions.stream({ model: MODEL, messages: [{ role: 'user', content: 'What is the weather in San Francisco?' }], tools: [weatherTool], stream_options: { include_usage: true } })
    const chunks = await collect(stream)
    const final = await stream.finalChatCompletion()
    expect(fakes.replay.calls[0]).toMatchObject({ method: 'POST', path: '/compatible-mode/v1/chat/completions' })
    expect(fakes.replay.calls[0]!.headers.authorization).toBe('Bearer recorded-dashscope-secret')
    expect(final.choices[0]!.finish_reason).toBe('tool_calls')
    expect(final.choices[0]!.message.tool_calls).toHaveLength(1)
    expect(final.choices[0]!.message.tool_calls![0]).toMatchObject({ id: 'call_eee11723464a4b9eb8cee71d', type: 'function', function: { name: 'weather', arguments: '{"location": "San Francisco"}' } })
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('')
    const usage = (JSON.parse(recordedChunks(file).at(-1)!) as { usage: Usage }).usage
    expect(chunks.filter((c) => c.usage)).toHaveLength(1)
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage })
    expect(await row()).toMatchObject({ status: 200, input_tokens: 295, output_tokens: 22, cost_nano: tokenCostNano(PRICES, { input: 295, output: 22 }) })
  })

  it('a thinking answer (JSON): byte for byte, the answer in content and the thinking in reasoning_content; billed once', async () => {
    const file = 'dashscope/alibaba-reasoning.json'
    fakes.replay.serve({ file })
    const row = await nextLedgerRow(gw)
    const raw = await gw.post('/v1/chat/completions', { model: MODEL, messages: [{ role: 'user', content: 'How many "r"s are in the word "strawberry"?' }] })
    expect(raw.status).toBe(200)
    expect(Buffer.from(await raw.arrayBuffer()).equals(recordedBytes(file))).toBe(true)
    const usage = (JSON.parse(recordedBytes(file).toString('utf8')) as { usage: Usage }).usage
    expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens)
    expect(await row()).toMatchObject({ input_tokens: 24, output_tokens: 1668, cost_nano: tokenCostNano(PRICES, { input: 24, output: 1668 }) })

    const completion = await client().chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'How many "r"s are in the word "strawberry"?' }] })
    const message = completion.choices[0]!.message as typeof completion.choices[0]['message'] & { reasoning_content: string }
    expect(completion.choices[0]!.finish_reason).toBe('stop')
    expect(message.content).toMatch(/^The word \*\*"strawberry"\*\* contains \*\*3\*\* instances/)
    expect(message.content).toMatch(/\*\*Answer: 3\*\* 🍓$/)
    expect(message.content).not.toContain('We are asked')
    expect(message.reasoning_content).toMatch(/^We are asked: "How many 'r's are in the word 'strawberry'\?"/)
  })
})
