import { describe, expect, it } from 'vitest'
import { startFakeOpenAI } from '../fakes/openai.js'
import { TEST_KEY, withGateway } from '../helpers/gateway.js'

const glm = 'test-glm'
const qwen = 'test-qwen-text'

const { gw, fakes: { openai: fake } } = withGateway({
  fakes: { openai: startFakeOpenAI },
  config: ({ openai }) => ({
    account: { balance: 10 },
    models: [
      { id: glm, family: 'glm', vendor: 'zhipu', pricing: { unit: 'token', input: 1, output: 2 }, input: ['text'], reasoningEffort: ['low', 'high', 'max'], thinkingAlwaysOn: true, limits: { maxOutputTokens: 131072 } },
      { id: qwen, family: 'qwen', vendor: 'dashscope', pricing: { unit: 'token', input: 1, output: 2 }, input: ['text'], limits: { maxOutputTokens: 131072, maxInputTokens: 200 } },
    ],
    // One OpenAI-compatible fake stands in for Zhipu and DashScope's compatible mode.
    upstreams: [{ id: 'z', vendor: 'gateway', baseUrl: openai.origin, apiKey: 'k' }],
    groups: [{ id: 'main', protocol: 'chat', models: [glm, qwen], upstreams: ['z'] }],
    keys: [{ key: TEST_KEY, group: 'main' }],
  } as never),
  resetFakes: true,
})

const user = [{ role: 'user', content: 'hello' }]
async function expect400(body: Record<string, unknown>, message: string) {
  const res = await gw.post('/v1/chat/completions', body)
  const json = (await res.json()) as { error: { code: string; message: string } }
  expect([res.status, json.error.code, json.error.message]).toEqual([400, 'invalid_request', message])
  expect(fake.calls).toHaveLength(0)
}

describe('GLM rules on the way through the gateway (spec §4.1)', () => {
  it('max_tokens 131072 passes, 131073 answers 400', async () => {
    expect((await gw.post('/v1/chat/completions', { model: glm, messages: user, max_tokens: 131072 })).status).toBe(200)
    fake.reset()
    await expect400({ model: glm, messages: user, max_tokens: 131073 }, 'max_tokens invalid, allowed range [1,131072]')
  })
  it('a tool result with no matching call answers 400', async () => {
    await expect400(
      { model: glm, messages: [...user, { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }] }, { role: 'tool', tool_call_id: 'call_2', content: 'x' }] },
      'No tool call found for function call output',
    )
  })
  it('images on the text model answer 400', async () => {
    const res = await gw.post('/v1/chat/completions', { model: glm, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] }] })
    expect(res.status).toBe(400)
    expect(fake.calls).toHaveLength(0)
  })
  it('tool_choice defaults to auto when tools are sent', async () => {
    await gw.post('/v1/chat/completions', { model: glm, messages: user, tools: [{ type: 'function', function: { name: 'f' } }] })
    expect(fake.calls[0].body.tool_choice).toBe('auto')
  })
})

describe('Qwen input cap (spec §4.1)', () => {
  it('an input over the model\'s cap answers 400 before any upstream call', async () => {
    await expect400({ model: qwen, messages: [{ role: 'user', content: 'word '.repeat(400) }] }, 'Range of input length should be [1, 200]')
  })
  it('an input under it passes', async () => {
    expect((await gw.post('/v1/chat/completions', { model: qwen, messages: [{ role: 'user', content: 'word '.repeat(20) }] })).status).toBe(200)
  })
})
