import { describe, expect, it } from 'vitest'
import { ROUTES } from '../../electron/gateway/routes/index.js'
import { fakeOpenAIChat, TEST_KEY, withGateway } from '../helpers/gateway.js'
import { storeText } from '../helpers/store-text.js'

const body = { model: 'test-gpt', messages: [{ role: 'user', content: 'hi' }] }

const { gw, fakes: { openai: fake } } = withGateway(fakeOpenAIChat({}, [
  { key: 'sk-expired-0123456789', group: 'main', expiresAt: '2020-01-01T00:00:00Z' },
  { key: 'sk-disabled-0123456789', group: 'main', disabled: true },
  { key: 'sk-future-0123456789', group: 'main', expiresAt: Math.floor(Date.now() / 1000) + 3600 },
]))

const call = (headers: Record<string, string>, path = '/v1/chat/completions') =>
  fetch(`${gw.url}${path}`, { method: path === '/v1/usage' || path === '/v1/models' ? 'GET' : 'POST', headers: { 'content-type': 'application/json', ...headers }, body: path.startsWith('/v1/chat') ? JSON.stringify(body) : undefined })

async function expectCode(res: Response, status: number, code: string, message?: string) {
  const json = (await res.json()) as { error: { code: string; message: string; type: string } }
  expect([res.status, json.error.code]).toEqual([status, code])
  expect(json.error.type).toBe('authentication_error')
  if (message) expect(json.error.message).toBe(message)
}

describe('authentication (spec §5)', () => {
  it('accepts Authorization: Bearer and x-api-key', async () => {
    expect((await call({ authorization: `Bearer ${TEST_KEY}` })).status).toBe(200)
    expect((await call({ 'x-api-key': TEST_KEY })).status).toBe(200)
    expect((await call({ 'x-api-key': 'sk-future-0123456789' })).status).toBe(200)
  })
  it('no key: 401 missing_api_key', async () => {
    await expectCode(await call({}), 401, 'missing_api_key', 'No API key provided. Send it as "Authorization: Bearer sk-..." or "x-api-key: sk-...".')
  })
  it('a bare "Bearer" is no key; an empty Authorization leaves x-api-key to speak', async () => {
    await expectCode(await call({ authorization: 'Bearer' }), 401, 'missing_api_key')
    expect((await call({ authorization: '', 'x-api-key': TEST_KEY })).status).toBe(200)
  })
  it('?key= is refused', async () => {
    await expectCode(await call({}, `/v1/chat/completions?key=${TEST_KEY}`), 401, 'missing_api_key')
  })
  it('vendor key headers are not accepted', async () => {
    await expectCode(await call({ 'x-goog-api-key': TEST_KEY }), 401, 'missing_api_key')
    await expectCode(await call({ 'api-key': TEST_KEY }), 401, 'missing_api_key')
  })
  it('unknown key: 401 invalid_api_key, and the key is never echoed whole', async () => {
    const res = await call({ authorization: 'Bearer sk-unknown-key-0123456789' })
    const json = (await res.json()) as { error: { code: string; message: string } }
    expect([res.status, json.error.code]).toEqual([401, 'invalid_api_key'])
    expect(json.error.message).not.toContain('sk-unknown-key-0123456789')
  })
  it('truncated key: 401 invalid_api_key', async () => {
    await expectCode(await call({ authorization: `Bearer ${TEST_KEY.slice(0, -3)}` }), 401, 'invalid_api_key')
  })
  it('expired key: 401 api_key_expired', async () => {
    await expectCode(await call({ authorization: 'Bearer sk-expired-0123456789' }), 401, 'api_key_expired')
  })
  it('disabled key: 401 invalid_api_key', async () => {
    await expectCode(await call({ authorization: 'Bearer sk-disabled-0123456789' }), 401, 'invalid_api_key')
  })
  it('GET /v1/usage accepts only Bearer', async () => {
    await expectCode(await call({ 'x-api-key': TEST_KEY }, '/v1/usage'), 401, 'missing_api_key', 'GET /v1/usage accepts only "Authorization: Bearer sk-..."')
    const res = await call({ authorization: `Bearer ${TEST_KEY}` }, '/v1/usage')
    expect(res.status).toBe(200)
    const usage = (await res.json()) as { balance: number; key: { quota: null; used: number; group: string } }
    expect(typeof usage.balance).toBe('number')
    expect(usage.key.group).toBe('main')
  })
  it('Authorization carries a key only with the Bearer scheme: a bare key or another scheme is 401 missing_api_key on every endpoint', async () => {
    const message = 'The Authorization header must use the Bearer scheme: send "Authorization: Bearer sk-...".'
    fake.reset()
    const keyed = ROUTES.filter((r) => r.auth !== 'none' && !r.path.toString().includes('admin'))
    expect(keyed.length).toBeGreaterThan(10)
    for (const route of keyed) {
      const path = route.docPath?.replace(/\{[^}]+\}/g, 'x') ?? String(route.path)
      for (const authorization of [TEST_KEY, `Basic ${TEST_KEY}`, `Token ${TEST_KEY}`, `Bearer${TEST_KEY}`]) {
        const res = await fetch(`${gw.url}${path}`, { method: route.method, headers: { authorization, 'x-api-key': TEST_KEY, 'content-type': 'application/json' }, body: route.method === 'POST' ? '{}' : undefined })
        const json = (await res.json()) as { error?: { code?: string; type?: string; message?: string }; code?: string; message?: string }
        // each protocol's envelope: chat `{error:{code,message}}`, messages `{error:{type,message}}` (no code), DashScope `{code,message}`
        const got = route.protocol === 'dashscope' ? [json.code, json.message] : route.protocol === 'messages' ? [json.error?.type, json.error?.message] : [json.error?.code, json.error?.message]
        const code = route.protocol === 'messages' ? 'authentication_error' : 'missing_api_key'
        expect([route.method, path, res.status, got]).toEqual([route.method, path, 401, [code, message]])
      }
    }
    expect(fake.calls).toHaveLength(0)
  })
  it('the Bearer scheme is matched case-insensitively, as RFC 9110 auth schemes are', async () => {
    expect((await call({ authorization: `bearer ${TEST_KEY}` })).status).toBe(200)
  })
  it('no request reaches the upstream without a valid key', async () => {
    fake.reset()
    await call({ authorization: 'Bearer sk-nope-0123456789' })
    expect(fake.calls).toHaveLength(0)
  })
})

describe('secrets at rest', () => {
  it('no table of the store holds a gateway key or an upstream key in clear (test/integration/auth-sqlite.test.ts reads the SQLite files)', async () => {
    const text = await storeText(gw.services.store.sql)
    // what the store does hold of them: the key's keyed hash, the account's row
    expect(text).toContain(gw.services.registry.keyHasher.hash(TEST_KEY))
    expect(text).toContain(fake.url)
    expect(text).not.toContain(TEST_KEY)
    expect(text).not.toContain('upstream-secret-a')
  })
})

describe('host and origin (DNS rebinding, CORS closed)', () => {
  const raw = (headers: Record<string, string>) => fetch(`${gw.url}/v1/models`, { headers: { authorization: `Bearer ${TEST_KEY}`, ...headers } })
  it('refuses a foreign Host header', async () => {
    const { request } = await import('undici')
    const res = await request(`${gw.url}/v1/models`, { headers: { host: 'evil.example.com', authorization: `Bearer ${TEST_KEY}` } })
    expect(res.statusCode).toBe(403)
    expect(((await res.body.json()) as { error: { code: string } }).error.code).toBe('host_not_allowed')
  })
  it('accepts localhost and IP literals', async () => {
    const { request } = await import('undici')
    for (const host of [`localhost:${gw.port}`, `127.0.0.1:${gw.port}`]) {
      const res = await request(`${gw.url}/v1/models`, { headers: { host, authorization: `Bearer ${TEST_KEY}` } })
      expect(res.statusCode).toBe(200)
      await res.body.dump()
    }
  })
  it('refuses browser origins and sends no CORS headers', async () => {
    const res = await raw({ origin: 'https://evil.example.com' })
    expect(res.status).toBe(403)
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('origin_not_allowed')
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    const preflight = await fetch(`${gw.url}/v1/chat/completions`, { method: 'OPTIONS', headers: { origin: 'https://evil.example.com', 'access-control-request-method': 'POST' } })
    expect(preflight.status).toBe(403)
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull()
    await preflight.arrayBuffer()
  })
})
