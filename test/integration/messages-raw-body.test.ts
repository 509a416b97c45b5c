// A Messages request whose body goes to Anthropic as the client sent it goes as the client's own bytes, not encoded
// again (an agent's conversation can be hundreds of kilobytes); a body the gateway changed, or one for an account that
// names the model its own way, is encoded from what was admitted.
import { describe, expect, it } from 'vitest'
import { startFakeAnthropic } from '../fakes/anthropic.js'
import { chatConfig, withGateway } from '../helpers/gateway.js'

const KEY = 'sk-messages-raw-body-0123456789'
const MAPPED_KEY = 'sk-messages-mapped-0123456789'

const { gw, fakes: { claude } } = withGateway({
  fakes: { claude: () => startFakeAnthropic({ apiKey: 'claude-key' }) },
  config() {
    const config = chatConfig([])
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

async function send(key: string, text: string) {
  const res = await fetch(`${gw.url}/v1/messages`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: text })
  expect(res.status).toBe(200)
  await res.json()
  return claude.calls.at(-1)!
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
})
