// POST /v1/quote through the official `openai` client's raw `post`, with baseURL …/v1 like every other call.
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js'
import { chatConfig, startTestGateway, TEST_KEY, type TestGateway } from '../helpers/gateway.js'

let fake: FakeOpenAI
let gw: TestGateway
let client: OpenAI

beforeAll(async () => {
  fake = await startFakeOpenAI()
  gw = await startTestGateway(chatConfig([{ id: 'a', baseUrl: fake.url }]))
  client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: TEST_KEY, maxRetries: 0 })
})
afterAll(async () => {
  await gw.stop()
  await fake.close()
})

interface Quote { object: string; currency: string; min: number; max: number; basis: Record<string, unknown> }

describe('quote with the openai client', () => {
  it('client.post("/quote") answers the price range of a chat completion', async () => {
    const request = { model: 'test-gpt', messages: [{ role: 'user', content: 'Hello there' }], max_tokens: 100 }
    const quote = await client.post<Quote>('/quote', { body: { endpoint: '/v1/chat/completions', request } })
    expect(quote).toMatchObject({ object: 'quote', currency: 'USD', basis: { model: 'test-gpt', unit: 'token', max_output_tokens: 100, output_cap: 'max_tokens' } })
    // 2 USD per 1M input tokens, 8 per 1M output: max adds 100 × 8e-6 USD
    expect(quote.max - quote.min).toBeCloseTo(100 * 8e-6, 12)
    expect(quote.min).toBeCloseTo((quote.basis.input_tokens as number) * 2e-6, 12)
    expect(fake.calls).toHaveLength(0)
  })

  it('client.post("/quote") of images is the exact per-image price; an invalid request throws the SDK\'s BadRequestError', async () => {
    const quote = await client.post<Quote>('/quote', { body: { endpoint: '/v1/images/generations', request: { model: 'test-image', prompt: 'a fox', n: 3 } } })
    expect([quote.min, quote.max]).toEqual([0.12, 0.12])
    const error = await client.post('/quote', { body: { endpoint: '/v1/chat/completions', request: { model: 'test-gpt' } } }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(OpenAI.BadRequestError)
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).message).toBe('400 missing messages field')
  })
})
