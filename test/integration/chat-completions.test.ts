import { describe, expect, it } from 'vitest'
import { fakeOpenAIChat, withGateway } from '../helpers/gateway.js'
import { readSse } from '../helpers/sse.js'

const hello = [{ role: 'user', content: 'hello there' }]

const { gw, fakes: { openai: fake } } = withGateway({
  ...fakeOpenAIChat({
    models: [
      { id: 'test-gpt', family: 'gpt', vendor: 'openai', pricing: { unit: 'token', input: 2, output: 8 }, limits: { maxOutputTokens: 4096 } },
      { id: 'test-image', family: 'gpt-image', vendor: 'openai', pricing: { unit: 'image', price: 0.04 } },
      { id: 'test-orphan', family: 'gpt', vendor: 'xai', pricing: { unit: 'token', input: 1, output: 1 }, limits: { maxOutputTokens: 4096 } },
    ],
    groups: [
      { id: 'main', protocol: 'chat', models: ['test-gpt', 'test-image', 'test-orphan'], upstreams: ['a'] },
      { id: 'anthropic-only', protocol: 'messages', models: ['test-gpt'], upstreams: ['a'] },
    ],
  }),
  resetFakes: true,
})

async function expectError(res: Response, status: number, code: string, message?: string | RegExp) {
  const body = (await res.json()) as { error: { code: string; message: string; type: string } }
  expect(res.status).toBe(status)
  expect(body.error.code).toBe(code)
  expect(typeof body.error.type).toBe('string')
  if (typeof message === 'string') expect(body.error.message).toBe(message)
  else if (message) expect(body.error.message).toMatch(message)
  return body
}

describe('relay', () => {
  it('forwards the body unchanged, unknown fields included, and returns the upstream completion', async () => {
    const res = await gw.post('/v1/chat/completions', { model: 'test-gpt', messages: hello, temperature: 0.2, seed: 7, metadata: { a: 'b' }, service_tier: 'flex' })
    expect(res.status).toBe(200)
    const body = (await res.json()) as { choices: Array<{ message: { content: string } }>; usage: { total_tokens: number } }
    expect(body.choices[0].message.content).toBe('Hello from the fake upstream.')
    expect(fake.calls).toHaveLength(1)
    expect(fake.calls[0].path).toBe('/v1/chat/completions')
    expect(fake.calls[0].body).toEqual({ model: 'test-gpt', messages: hello, temperature: 0.2, seed: 7, metadata: { a: 'b' }, service_tier: 'flex' })
    expect(fake.calls[0].headers.authorization).toBe('Bearer upstream-secret-a')
  })

  it.each([['priority', true], ['flex', true], ['auto', false], ['default', false], ['scale', false]])(
    'service_tier %s is kept: %s',
    async (tier, kept) => {
      const res = await gw.post('/v1/chat/completions', { model: 'test-gpt', messages: hello, service_tier: tier })
      expect(res.status).toBe(200)
      expect('service_tier' in fake.calls[0].body).toBe(kept)
      if (kept) expect(fake.calls[0].body.service_tier).toBe(tier)
    },
  )

  it('streams chunk by chunk and always asks the upstream for usage, but hides the usage chunk unless asked', async () => {
    const res = await gw.post('/v1/chat/completions', { model: 'test-gpt', messages: hello, stream: true })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const events = await readSse(res)
    expect(fake.calls[0].body.stream_options).toEqual({ include_usage: true })
    expect(events.at(-1)?.data).toBe('[DONE]')
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data))
    expect(chunks.every((c) => c.choices.length > 0)).toBe(true)
    expect(chunks.some((c) => 'usage' in c)).toBe(false)
    expect(chunks.map((c) => c.choices[0].delta.content ?? '').join('')).toBe('Hello from the fake upstream.')
  })

  it('sends the final usage-only chunk when the client asks for it', async () => {
    const res = await gw.post('/v1/chat/completions', { model: 'test-gpt', messages: hello, stream: true, stream_options: { include_usage: true } })
    const chunks = (await readSse(res)).slice(0, -1).map((e) => JSON.parse(e.data))
    const last = chunks.at(-1)
    expect(last.choices).toEqual([])
    expect(last.usage.completion_tokens).toBe(5)
  })

  it('relays a streamed tool call in order', async () => {
    fake.setScenario({ kind: 'tool_call', name: 'get_weather', arguments: '{"city":"Paris"}' })
    const res = await gw.post('/v1/chat/completions', { model: 'test-gpt', messages: hello, stream: true, tools: [{ type: 'function', function: { name: 'get_weather' } }] })
    const chunks = (await readSse(res)).slice(0, -1).map((e) => JSON.parse(e.data))
    const args = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []).map((t) => t.function?.arguments ?? '').join('')
    expect(args).toBe('{"city":"Paris"}')
    expect(chunks.at(-1).choices[0].finish_reason).toBe('tool_calls')
  })

  it('passes the model\'s own 400 through without failover', async () => {
    fake.setScenario({ kind: 'status', status: 400, body: { error: { message: 'max_tokens is too large', type: 'invalid_request_error', param: 'max_tokens', code: 'invalid_value' } } })
    const res = await gw.post('/v1/chat/completions', { model: 'test-gpt', messages: hello, max_tokens: 10_000_000 })
    await expectError(res, 400, 'invalid_value', 'max_tokens is too large')
    expect(fake.calls).toHaveLength(1)
  })
})

describe('validation (spec §4.1)', () => {
  it('missing messages', async () => {
    await expectError(await gw.post('/v1/chat/completions', { model: 'test-gpt' }), 400, 'invalid_request', 'missing messages field')
  })
  it('empty messages', async () => {
    await expectError(await gw.post('/v1/chat/completions', { model: 'test-gpt', messages: [] }), 400, 'invalid_request', 'messages must not be an empty array')
  })
  it('missing model', async () => {
    await expectError(await gw.post('/v1/chat/completions', { messages: hello }), 400, 'invalid_request', 'missing model field')
  })
  it('malformed JSON', async () => {
    await expectError(await gw.post('/v1/chat/completions', '{"model": "test-gpt", '), 400, 'invalid_json', /^The request body is not valid JSON/)
  })
  it('a JSON body that is not an object', async () => {
    await expectError(await gw.post('/v1/chat/completions', '[1,2]'), 400, 'invalid_request', 'The request body must be a JSON object')
  })
  it.each([
    [{ messages: 'hi' }, 'messages: must be array'],
    [{ messages: [{ role: 'robot', content: 'x' }] }, 'messages[0].role: must be equal to one of the allowed values (system, user, assistant, tool)'],
    [{ messages: [{ role: 'user', content: 5 }] }, 'messages[0].content: must be of type string or array or null'],
    [{ messages: [{ role: 'user', content: [{ type: 'text' }] }] }, 'missing messages[0].content[0].text field'],
    [{ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: {} }] }] }, 'missing messages[0].content[0].image_url.url field'],
    [{ messages: hello, stream: 'yes' }, 'stream: must be of type boolean or null'],
    [{ messages: hello, max_tokens: 1.5 }, 'max_tokens: must be of type integer or null'],
    [{ messages: hello, tools: [{ type: 'function' }] }, 'missing tools[0].function field'],
    [{ messages: hello, tool_choice: 'sometimes' }, 'tool_choice: must be equal to one of the allowed values (auto, none, required)'],
  ])('wrong type %j', async (fields, message) => {
    await expectError(await gw.post('/v1/chat/completions', { model: 'test-gpt', ...fields }), 400, 'invalid_request', message)
    expect(fake.calls).toHaveLength(0)
  })
  it('answers in Chinese for Accept-Language zh, with the same code', async () => {
    await expectError(await gw.post('/v1/chat/completions', { model: 'test-gpt', messages: [] }, { 'accept-language': 'zh-CN,zh;q=0.9' }), 400, 'invalid_request', 'messages 不能为空数组')
  })
})

describe('models and groups', () => {
  it('a model outside the group: 404 model_not_found', async () => {
    await expectError(await gw.post('/v1/chat/completions', { model: 'gpt-nonexistent', messages: hello }), 404, 'model_not_found', 'The model `gpt-nonexistent` does not exist or you do not have access to it.')
  })
  it('an image model on chat completions: 400 pointing to the images API', async () => {
    await expectError(await gw.post('/v1/chat/completions', { model: 'test-image', messages: hello }), 400, 'unsupported_model_endpoint', /Image models do not support chat completions; use the images API/)
  })
  it('a group model no account serves: 404 saying so (spec §7 rule 1)', async () => {
    await expectError(await gw.post('/v1/chat/completions', { model: 'test-orphan', messages: hello }), 404, 'model_not_found', 'The model `test-orphan` is not supported by any configured account in this group.')
  })
  it('a deprecated catalog id: 400 naming the replacement', async () => {
    const deprecated = gw.services.registry.catalog.all().find((m) => m.deprecated && m.type === 'chat')!
    const res = await gw.post('/v1/chat/completions', { model: deprecated.id, messages: hello })
    await expectError(res, 400, 'model_deprecated', `The model \`${deprecated.id}\` is deprecated; use \`${deprecated.deprecated!.replacement}\` instead.`)
  })
  it('a retired catalog id: 404 model_not_found', async () => {
    const retired = gw.services.registry.catalog.all().find((m) => m.retired && m.type === 'chat')!
    await expectError(await gw.post('/v1/chat/completions', { model: retired.id, messages: hello }), 404, 'model_not_found')
  })
  it('GET /v1/models lists exactly the callable models of the key\'s group', async () => {
    const res = await gw.get('/v1/models')
    const body = (await res.json()) as { object: string; data: Array<{ id: string; object: string; owned_by: string }> }
    expect(body.object).toBe('list')
    expect(body.data.map((m) => m.id).sort()).toEqual(['test-gpt', 'test-image'])
    expect(body.data[0].object).toBe('model')
  })
  it('a messages-group key on /v1/chat/completions: 404 route_not_found', async () => {
    const res = await gw.post('/v1/chat/completions', { model: 'test-gpt', messages: hello }, { authorization: 'Bearer sk-messages-0123456789' })
    await expectError(res, 404, 'route_not_found', 'The current platform does not support this API path: /v1/chat/completions')
  })
  it('an unknown path: 404 route_not_found; a wrong method: 405 with Allow', async () => {
    await expectError(await gw.get('/v1/nothing-here'), 404, 'route_not_found')
    const res = await gw.get('/v1/chat/completions')
    expect(res.headers.get('allow')).toBe('POST')
    await expectError(res, 405, 'method_not_allowed')
  })
  it('every response carries x-request-id, errors included', async () => {
    for (const res of [await gw.get('/v1/models'), await gw.get('/v1/nothing'), await gw.post('/v1/chat/completions', '{')]) {
      expect(res.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/)
      await res.arrayBuffer()
    }
  })
})
