import OpenAI from 'openai'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startFakeGemini, type FakeGemini } from '../fakes/gemini.js'
import { startTestGateway, TEST_KEY, type TestGateway } from '../helpers/gateway.js'

let fake: FakeGemini
let gw: TestGateway
let client: OpenAI
const MODEL = 'gemini-3-test'

beforeAll(async () => {
  fake = await startFakeGemini({ apiKey: 'gemini-upstream-key' })
  gw = await startTestGateway({
    account: { balance: 10, concurrency: 5 },
    // An output limit, as every real model has: a request without max_tokens holds it as its worst case.
    models: [{ id: MODEL, family: 'gemini', vendor: 'gemini', pricing: { unit: 'token', input: 1, output: 4 }, limits: { maxOutputTokens: 4096 }, endpoints: ['chat.completions'] }],
    upstreams: [{ id: 'g', vendor: 'gemini', baseUrl: fake.url, apiKey: 'gemini-upstream-key' }],
    groups: [{ id: 'main', protocol: 'chat', models: [MODEL], upstreams: ['g'] }],
    keys: [{ key: TEST_KEY, group: 'main' }],
  })
  client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: TEST_KEY, maxRetries: 0 })
})
afterAll(async () => {
  await gw.stop()
  await fake.close()
})
beforeEach(() => fake.reset())

const tools = [{ type: 'function' as const, function: { name: 'get_weather', description: 'Weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } }]

describe('the openai client on a gemini model, through the gateway', () => {
  it('chat.completions.create is translated to generateContent and back, and billed', async () => {
    const answer = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'system', content: 'Be brief' }, { role: 'user', content: 'Hello' }], max_tokens: 100, reasoning_effort: 'high' as never })
    expect(answer.object).toBe('chat.completion')
    expect(answer.choices[0].message.content).toBe('Hello from the fake Gemini.')
    expect(answer.choices[0].finish_reason).toBe('stop')
    const call = fake.calls[0]
    expect(call.path).toBe(`/v1beta/models/${MODEL}:generateContent`)
    expect(call.headers['x-goog-api-key']).toBe('gemini-upstream-key')
    expect(call.body.systemInstruction).toEqual({ parts: [{ text: 'Be brief' }] })
    expect(call.body.generationConfig).toMatchObject({ maxOutputTokens: 100, thinkingConfig: { thinkingBudget: 24576 } })
    const row = (await gw.services.store.ledger.recent(null, 1))[0]
    expect(row).toMatchObject({ status: 200, input_tokens: answer.usage!.prompt_tokens, output_tokens: answer.usage!.completion_tokens })
  })

  it('streams chunks with usage when asked, through streamGenerateContent?alt=sse', async () => {
    const stream = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }], stream: true, stream_options: { include_usage: true } })
    let text = ''
    let usage: OpenAI.CompletionUsage | undefined | null
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? ''
      if (chunk.usage) usage = chunk.usage
    }
    expect(text).toBe('Hello from the fake Gemini.')
    expect(usage?.total_tokens).toBeGreaterThan(0)
    expect(fake.calls[0].path).toBe(`/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`)
  })

  it('keeps a multi-turn tool loop working, thought signatures included, when the client rebuilds tool calls', async () => {
    fake.setScenario({ kind: 'function_call', name: 'get_weather', args: { city: 'Paris' }, signature: 'sig-abc-123' })
    const first = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Weather in Paris?' }], tools })
    const toolCall = first.choices[0].message.tool_calls![0] as OpenAI.ChatCompletionMessageFunctionToolCall
    expect(first.choices[0].finish_reason).toBe('tool_calls')
    expect(JSON.parse(toolCall.function.arguments)).toEqual({ city: 'Paris' })
    fake.setScenario({ kind: 'ok', text: 'It is sunny.' })
    // The client keeps only id, type and function: the signature must survive anyway.
    const second = await client.chat.completions.create({
      model: MODEL,
      tools,
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: null, tool_calls: [{ id: toolCall.id, type: 'function', function: { name: toolCall.function.name, arguments: toolCall.function.arguments } }] },
        { role: 'tool', tool_call_id: toolCall.id, content: '{"temp": 21}' },
      ],
    })
    expect(second.choices[0].message.content).toBe('It is sunny.')
    const contents = fake.calls[1].body.contents as Array<{ role: string; parts: Array<Record<string, unknown>> }>
    const callPart = contents[1].parts.find((p) => 'functionCall' in p)!
    expect(callPart.thoughtSignature).toBe('sig-abc-123')
    expect(contents[2].parts[0]).toMatchObject({ functionResponse: { name: 'get_weather', response: { temp: 21 } } })
  })

  it('an http image link is refused with 400 before any upstream call', async () => {
    const error = await client.chat.completions
      .create({ model: MODEL, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }, { type: 'text', text: 'what is it' }] }] })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(OpenAI.BadRequestError)
    expect((error as Error).message).toMatch(/image_url only supports data URLs/)
    expect(fake.calls).toHaveLength(0)
  })

  it('a blocked prompt is a 400 quoting the reason, not billed', async () => {
    fake.setScenario({ kind: 'blocked', reason: 'SAFETY' })
    const error = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'something' }] }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(OpenAI.BadRequestError)
    expect((error as Error).message).toContain('SAFETY')
    expect((await gw.services.store.ledger.recent(null, 1))[0]).toMatchObject({ status: 400, cost_nano: 0 })
  })
})
