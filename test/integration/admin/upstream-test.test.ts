import http from 'node:http'
import { describe, expect, it } from 'vitest'
import { startFakeAnthropic } from '../../fakes/anthropic.js'
import { startFakeGemini } from '../../fakes/gemini.js'
import { listenLocal } from '../../fakes/listen-local.js'
import { startFakeOpenAI } from '../../fakes/openai.js'
import { chatConfig, withGateway } from '../../helpers/gateway.js'
import { adminClient } from './admin-helpers.js'

const OPENAI_KEY = 'sk-proj-wizard-0123456789abcdef'
const ANTHROPIC_KEY = 'sk-ant-wizard-0123456789abcdef'
const GEMINI_KEY = 'AIza-wizard-0123456789abcdef'

const logs: string[] = []

const { gw, fakes: { openai, anthropic, gemini, stall, page } } = withGateway({
  fakes: {
    openai: () => startFakeOpenAI({ apiKey: OPENAI_KEY, models: ['gpt-6.1-sol', 'gpt-5.4-mini', 'gpt-5', 'my-own-model'] }),
    anthropic: () => startFakeAnthropic({ apiKey: ANTHROPIC_KEY }),
    gemini: () => startFakeGemini({ apiKey: GEMINI_KEY, models: ['gemini-3.8-flash', 'text-embedding-004'] }),
    // answers nothing, ever (its sockets are destroyed at close)
    stall: () => listenLocal(http.createServer(() => {})),
    // a web page where an API was expected
    page: () => listenLocal(http.createServer((req, res) => {
      // hostile lists: nested past the gateway's depth limit, or larger than it reads
      if (req.url?.startsWith('/deep/')) return void res.writeHead(200, { 'content-type': 'application/json' }).end(`{"data":${'['.repeat(5000)}${']'.repeat(5000)}}`)
      if (req.url?.startsWith('/huge/')) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [{ id: 'x'.repeat(5 * 1024 * 1024) }] }))
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>Welcome</html>')
    })),
  },
  config({ openai }) {
    const config = chatConfig([{ id: 'stored', baseUrl: openai.url }], { timeouts: { firstByteMs: 400 } })
    config.upstreams![0].apiKey = OPENAI_KEY
    return config
  },
  options: { log: (line) => logs.push(line) },
})
const admin = adminClient(gw)

const test = (body: object) => admin.post('/admin/v1/upstreams/test', body)

describe('POST /admin/v1/upstreams/test', () => {
  it('lists an OpenAI-compatible account\'s models, and which of them the catalog can serve', async () => {
    const res = await test({ vendor: 'openai', baseUrl: openai.url, apiKey: OPENAI_KEY })
    expect(res.status).toBe(200)
    // gpt-5 is deprecated, my-own-model is not in the catalog
    expect(res.json).toEqual({ ok: true, listed: true, models: ['gpt-6.1-sol', 'gpt-5.4-mini', 'gpt-5', 'my-own-model'], callable: ['gpt-6.1-sol', 'gpt-5.4-mini'] })
    expect(openai.calls.at(-1)).toMatchObject({ method: 'GET', path: '/v1/models', headers: { authorization: `Bearer ${OPENAI_KEY}` } })
  })

  it('tests a stored account by its id', async () => {
    expect((await test({ id: 'stored' })).json).toMatchObject({ ok: true, callable: ['gpt-6.1-sol', 'gpt-5.4-mini'] })
    const missing = await test({ id: 'nope' })
    expect(missing.status).toBe(404)
    expect(missing.json.error).toMatchObject({ code: 'not_found', message: 'No upstream account "nope"' })
  })

  it('Anthropic: GET /v1/models with x-api-key and anthropic-version', async () => {
    const res = await test({ vendor: 'anthropic', baseUrl: anthropic.url, apiKey: ANTHROPIC_KEY })
    expect(res.json).toEqual({ ok: true, listed: true, models: ['claude-sonnet-4-5-20250929', 'claude-haiku-4-5-20251001'], callable: ['claude-haiku-4-5-20251001'] })
    expect(anthropic.calls.at(-1)).toMatchObject({ method: 'GET', path: '/v1/models?limit=1000', headers: { 'x-api-key': ANTHROPIC_KEY, 'anthropic-version': '2023-06-01' } })
  })

  it('Gemini: GET /v1beta/models with the key in a header, never in the query', async () => {
    const res = await test({ vendor: 'gemini', baseUrl: gemini.url, apiKey: GEMINI_KEY })
    expect(res.json).toEqual({ ok: true, listed: true, models: ['gemini-3.8-flash', 'text-embedding-004'], callable: ['gemini-3.8-flash'] })
    const call = gemini.calls.at(-1)!
    expect(call.headers['x-goog-api-key']).toBe(GEMINI_KEY)
    expect(call.path).not.toContain(GEMINI_KEY)
  })

  it('a wrong key is "unauthorized" in plain words, with the vendor\'s own text quoted', async () => {
    const wrong = 'sk-proj-wrong-key-0123456789'
    const res = await test({ vendor: 'openai', baseUrl: openai.url, apiKey: wrong })
    expect(res.json).toEqual({
      ok: false, status: 401, reason: 'unauthorized',
      message: 'The vendor refused the key (HTTP 401): check that it is this vendor\'s key, copied whole, and still active.',
      detail: expect.stringContaining('Incorrect API key provided'),
    })
    expect(res.text).not.toContain(wrong)
    expect(res.text).not.toContain(wrong.slice(-4) + '"') // not even its tail quoted by the vendor
    const gem = await test({ vendor: 'gemini', baseUrl: gemini.url, apiKey: 'AIza-wrong-0123456789' })
    expect(gem.json).toEqual({ ok: false, status: 400, reason: 'unauthorized', message: expect.stringContaining('HTTP 400'), detail: 'API key not valid. Please pass a valid API key.' })
  })

  it('in Chinese for Accept-Language zh', async () => {
    const res = await fetch(`${gw.url}/admin/v1/upstreams/test`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.adminToken}`, 'content-type': 'application/json', 'accept-language': 'zh-CN' },
      body: JSON.stringify({ vendor: 'anthropic', baseUrl: anthropic.url, apiKey: 'sk-ant-wrong-0123456789' }),
    })
    expect((await res.json()).message).toBe('服务商拒绝了此密钥（HTTP 401）：请确认它是该服务商的密钥、已完整复制且仍然有效。')
  })

  it('a wrong base URL is "not found"; a closed port "unreachable"; silence "timeout"', async () => {
    const notFound = await test({ vendor: 'openai', baseUrl: `${openai.origin}/wrong/v1`, apiKey: OPENAI_KEY })
    expect(notFound.json).toEqual({ ok: false, status: 404, reason: 'not_found', message: 'Nothing answers at this address (HTTP 404): check the base URL.', detail: 'Invalid URL (GET /wrong/v1/models)' })
    const closed = await test({ vendor: 'openai', baseUrl: 'http://127.0.0.1:9/v1', apiKey: OPENAI_KEY })
    expect(closed.json).toEqual({ ok: false, status: null, reason: 'unreachable', message: 'Could not connect to 127.0.0.1:9: check the base URL and the network.', detail: null })
    const silent = await test({ vendor: 'openai', baseUrl: `${stall.origin}/v1`, apiKey: OPENAI_KEY })
    expect(silent.json).toEqual({ ok: false, status: null, reason: 'timeout', message: 'The vendor did not answer within 0.4 seconds.', detail: null })
  })

  it('an answer that is not a model list, and addresses never fetched', async () => {
    const html = await test({ vendor: 'openai', baseUrl: `${page.origin}/v1`, apiKey: OPENAI_KEY })
    expect(html.json).toEqual({ ok: false, status: 200, reason: 'bad_answer', message: 'The address answered, but not with a list of models: check the base URL.', detail: null })
    for (const hostile of ['deep', 'huge']) {
      const answer = await test({ vendor: 'openai', baseUrl: `${page.origin}/${hostile}/v1`, apiKey: OPENAI_KEY })
      expect(answer.json).toEqual({ ok: false, status: 200, reason: 'bad_answer', message: 'The address answered, but not with a list of models: check the base URL.', detail: null })
    }
    const metadata = await test({ vendor: 'openai', baseUrl: 'http://169.254.169.254/v1', apiKey: OPENAI_KEY })
    expect(metadata.json).toEqual({ ok: false, status: null, reason: 'refused', message: 'The base URL points to a private or reserved address (169.254.169.254), which the gateway does not fetch.', detail: null })
    // Every spelling of a metadata address is refused before any connection, IPv4 inside IPv6 included.
    for (const [host, shown] of [['[::ffff:169.254.169.254]', '::ffff:a9fe:a9fe'], ['[64:ff9b::a9fe:a9fe]', '64:ff9b::a9fe:a9fe'], ['[2002:a9fe:a9fe::]', '2002:a9fe:a9fe::'], ['[fd00:ec2::254]', 'fd00:ec2::254']]) {
      const spelled = await test({ vendor: 'openai', baseUrl: `http://${host}/v1`, apiKey: OPENAI_KEY })
      expect(spelled.json).toEqual({ ok: false, status: null, reason: 'refused', message: `The base URL points to a private or reserved address (${shown}), which the gateway does not fetch.`, detail: null })
    }
  })

  it('a vendor without a model list answers the catalog\'s models, unchecked', async () => {
    const res = await test({ vendor: 'minimax', baseUrl: 'https://api.minimax.io', apiKey: 'mm-key-0123456789' })
    expect(res.json).toMatchObject({ ok: true, listed: false })
    expect(res.json.models).toContain('MiniMax-H3')
    expect(res.json.models).toEqual(res.json.callable)
  })

  it('a body that is neither an account nor an id is a 400', async () => {
    expect((await test({ vendor: 'openai', baseUrl: openai.url })).status).toBe(400)
    expect((await test({ id: 'stored', apiKey: 'x' })).status).toBe(400)
    expect((await test({ vendor: 'nope', baseUrl: openai.url, apiKey: 'k' })).status).toBe(400)
  })

  it('no key tested ever shows in the logs', () => {
    const text = logs.join('\n')
    for (const key of [OPENAI_KEY, ANTHROPIC_KEY, GEMINI_KEY, 'sk-proj-wrong-key-0123456789']) expect(text).not.toContain(key)
  })
})
