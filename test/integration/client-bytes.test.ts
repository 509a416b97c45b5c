// A Messages or Responses request whose body goes upstream as the client sent it goes as the client's own bytes, not
// encoded again (an agent's conversation can be hundreds of kilobytes); a body the gateway changed, or one for an
// account that names the model its own way, is encoded from what was admitted, as chat completions' are.
import { describe, expect, it } from 'vitest'
import { startFakeAnthropic } from '../fakes/anthropic.js'
import { startFakeOpenAI } from '../fakes/openai.js'
import { chatConfig, withGateway } from '../helpers/gateway.js'

const KEY = 'sk-messages-raw-body-0123456789'
const MAPPED_KEY = 'sk-messages-mapped-0123456789'
const RESPONSES_KEY = 'sk-responses-raw-body-0123456789'

const { gw, fakes: { claude, openai } } = withGateway({
  fakes: { claude: () => startFakeAnthropic({ apiKey: 'claude-key' }), openai: startFakeOpenAI },
  config({ openai }) {
    const config = chatConfig([{ id: 'a', baseUrl: openai.url }])
    config.keys!.push({ key: RESPONSES_KEY, group: 'main' })
    config.keys!.push({ key: KEY, group: 'claude' }, { key: MAPPED_KEY, group: 'mapped' })
    config.models!.push({ id: 'test-claude', family: 'claude', vendor: 'anthropic', pricing: { unit: 'token', input: 3, output: 15 } })
    config.upstreams!.push(
      { id: 'claude', vendor: 'anthropic', baseUrl: claude.url, apiKey: 'claude-key' },
      { id: 'claude-mapped', vendor: 'anthropic', baseUrl: claude.url, apiKey: 'claude-key', models: { 'test-claude': 'claude-sonnet-4-5' } },
    )
    config.groups!.push(
      { id: 'claude', protocol: 'messages', models: ['test-claude'], upstreams: ['claude'] },
      { id: 'mapped', protocol: 'messages', models: ['test-claude'], upstreams: ['claude-mapped'] },
    )
    return config
  },
  resetFakes: true,
})

const request = { model: 'test-claude', max_tokens: 64, messages: [{ role: 'user', content: 'Read this file and say what it does.' }] }

async function send(key: string, text: string, path = '/v1/messages') {
  const res = await fetch(`${gw.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: text })
  expect(res.status).toBe(200)
  await res.json()
  return (path === '/v1/messages' ? claude : openai).calls.at(-1)!
}

describe('the body a Messages request sends upstream', () => {
  it("as the client sent it: the client's own bytes, spacing and all", async () => {
    const text = JSON.stringify(request, null, 2)
    const call = await send(KEY, text)
    expect(call.body).toEqual(request)
    expect(Number(call.headers['content-length'])).toBe(Buffer.byteLength(text))
  })

  it('for an account that names the model its own way: encoded anew, with its name', async () => {
    const text = JSON.stringify(request, null, 2)
    const call = await send(MAPPED_KEY, text)
    expect(call.body).toEqual({ ...request, model: 'claude-sonnet-4-5' })
    expect(Number(call.headers['content-length'])).toBe(Buffer.byteLength(JSON.stringify({ ...request, model: 'claude-sonnet-4-5' })))
  })

  it('a Responses request as the client sent it goes as its own bytes; one whose service_tier the rules dropped, encoded anew', async () => {
    const asked = { model: 'test-gpt', input: 'Read this file and say what it does.', max_output_tokens: 64 }
    const text = JSON.stringify(asked, null, 2)
    const call = await send(RESPONSES_KEY, text, '/v1/responses')
    expect(call.body).toEqual(asked)
    expect(Number(call.headers['content-length'])).toBe(Buffer.byteLength(text))
    const changed = await send(RESPONSES_KEY, JSON.stringify({ ...asked, service_tier: 'unknown-tier' }, null, 2), '/v1/responses')
    expect(changed.body).toEqual(asked)
    expect(Number(changed.headers['content-length'])).toBe(Buffer.byteLength(JSON.stringify(asked)))
  })
})
