import OpenAI from 'openai'
import { beforeAll, describe, expect, it } from 'vitest'
import { openAIResponses } from '../../electron/gateway/upstreams/openai-responses.js'
import { fakeOpenAIChat, TEST_KEY, withGateway } from '../helpers/gateway.js'

const { gw, fakes: { openai: fake } } = withGateway({
  ...fakeOpenAIChat({
    models: [
      // An output limit, as every real model has: a request without max_output_tokens holds it as its worst case.
      { id: 'test-gpt', family: 'gpt', vendor: 'openai', pricing: { unit: 'token', input: 2, output: 8 }, limits: { maxOutputTokens: 4096 } },
      { id: 'test-glm', family: 'glm', vendor: 'openai', pricing: { unit: 'token', input: 1, output: 1 }, endpoints: ['chat.completions'] },
    ],
    groups: [{ id: 'main', protocol: 'chat', models: ['test-gpt', 'test-glm'], upstreams: ['a'] }],
    keys: [{ key: TEST_KEY, group: 'main' }],
  }),
  resetFakes: true,
})
let client: OpenAI
beforeAll(() => {
  client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: TEST_KEY, maxRetries: 0 })
})

const lastRow = async () => (await gw.services.store.ledger.recent(null, 1))[0]

describe('POST /v1/responses', () => {
  it('relays responses.create and bills from the response usage', async () => {
    const response = await client.responses.create({ model: 'test-gpt', input: 'Say hello', instructions: 'Be brief' })
    expect(response.status).toBe('completed')
    expect(response.output_text.length).toBeGreaterThan(0)
    expect(fake.calls[0].path).toBe('/v1/responses')
    expect(fake.calls[0].body).toMatchObject({ model: 'test-gpt', input: 'Say hello', instructions: 'Be brief' })
    const row = (await lastRow())
    expect(row).toMatchObject({ endpoint: 'responses', status: 200, input_tokens: response.usage!.input_tokens, output_tokens: response.usage!.output_tokens })
    expect(row.cost_nano).toBe(response.usage!.input_tokens * 2000 + response.usage!.output_tokens * 8000)
  })

  it('relays the event stream with its event names and bills from response.completed', async () => {
    const stream = await client.responses.create({ model: 'test-gpt', input: 'Say hello', stream: true })
    const types: string[] = []
    let usage: { output_tokens: number } | undefined
    for await (const event of stream) {
      types.push(event.type)
      if (event.type === 'response.completed') usage = event.response.usage ?? undefined
    }
    expect(types[0]).toBe('response.created')
    expect(types.at(-1)).toBe('response.completed')
    expect(types).toContain('response.output_text.delta')
    expect((await lastRow())).toMatchObject({ status: 200, output_tokens: usage!.output_tokens })
  })

  it('a family without the Responses protocol answers 400', async () => {
    const error = await client.responses.create({ model: 'test-glm', input: 'hi' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(OpenAI.BadRequestError)
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).code).toBe('unsupported_model_endpoint')
    expect((error as Error).message).toContain('The model `test-glm` does not support /v1/responses.')
    expect(fake.calls).toHaveLength(0)
  })

  it('missing model: 400', async () => {
    const res = await gw.post('/v1/responses', { input: 'hi' })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe('missing model field')
  })
})

describe('responses stream translator', () => {
  it('ends a broken stream with response.failed carrying the response id and the next sequence number', () => {
    const translator = openAIResponses('/responses').streamTranslator({ includeUsage: false }, undefined as never)
    translator.push({ event: 'response.created', data: JSON.stringify({ type: 'response.created', sequence_number: 0, response: { id: 'resp_1', status: 'in_progress' } }) })
    translator.push({ event: 'response.output_text.delta', data: JSON.stringify({ type: 'response.output_text.delta', sequence_number: 1, delta: 'Hel' }) })
    expect(translator.producedText()).toBe('Hel')
    const frame = translator.errorFrame!('stream_interrupted', 'broken')
    const [eventLine, dataLine] = frame.trim().split('\n')
    expect(eventLine).toBe('event: response.failed')
    expect(JSON.parse(dataLine.slice('data: '.length))).toEqual({
      type: 'response.failed', sequence_number: 2,
      response: { id: 'resp_1', object: 'response', status: 'failed', error: { code: 'stream_interrupted', message: 'broken' }, output: [], usage: null },
    })
  })
})
