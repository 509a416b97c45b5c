// Key headers that cannot be played against each other: a request shows one key, in one header, once, and every
// rule of that key holds whichever header carries it (spec §5). Runs on both stores (node and node-pg projects).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ROUTES } from '../../electron/gateway/routes/index.js'
import type { Route } from '../../electron/gateway/router.js'
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js'
import { chatConfig, startTestGateway, TEST_KEY, type TestGateway } from '../helpers/gateway.js'
import { rawRequest } from '../helpers/raw-http.js'
import { until } from '../helpers/until.js'

const MESSAGES_KEY = 'sk-messages-0123456789'
const OTHER_KEY = 'sk-other-0123456789'
const DISABLED_KEY = 'sk-disabled-0123456789'
const EXPIRED_KEY = 'sk-expired-0123456789'
const BROKE_KEY = 'sk-broke-0123456789'
const CAPPED_KEY = 'sk-capped-0123456789'
const NARROW_KEY = 'sk-narrow-0123456789'
const UNKNOWN_KEY = 'sk-unknown-0123456789'

const DIFFER = 'Authorization and x-api-key carry different API keys; send one key, in one of the two headers.'
const repeated = (header: string) => `The ${header} header is sent more than once; send one API key, in one header.`

/** Every route a gateway key opens (neither public nor admin): a route added later is covered here too. */
const KEYED = ROUTES.filter((r) => r.auth !== 'none' && r.auth !== 'admin')
const pathOf = (r: Route) => (r.docPath ?? String(r.path)).replace(/\{[^}]+\}/g, 'x')

let fake: FakeOpenAI
let gw: TestGateway

beforeAll(async () => {
  fake = await startFakeOpenAI()
  const config = chatConfig([{ id: 'a', baseUrl: fake.url }])
  config.groups!.push({ id: 'narrow', protocol: 'chat', models: ['test-image'], upstreams: ['a'] })
  config.keys!.push(
    { key: OTHER_KEY, group: 'main' },
    { key: DISABLED_KEY, group: 'main', disabled: true },
    { key: EXPIRED_KEY, group: 'main', expiresAt: '2020-01-01T00:00:00Z' },
    { key: BROKE_KEY, group: 'main', quota: 0 },
    { key: CAPPED_KEY, group: 'main', concurrency: 1 },
    { key: NARROW_KEY, group: 'narrow' },
  )
  gw = await startTestGateway(config)
})
afterAll(async () => {
  await gw?.stop()
  await fake?.close()
})
beforeEach(() => fake.reset())

const bearer = (key: string) => ({ authorization: `Bearer ${key}` })
const apiKey = (key: string) => ({ 'x-api-key': key })

interface Answer { status: number; json: unknown; requestId: string }

async function call(route: Pick<Route, 'method'> & { path: string }, headers: Record<string, string>, body = '{}'): Promise<Answer> {
  const res = await fetch(`${gw.url}${route.path}`, {
    method: route.method,
    headers: { 'content-type': 'application/json', ...headers },
    body: route.method === 'GET' ? undefined : body,
  })
  const text = await res.text()
  return { status: res.status, json: text ? JSON.parse(text) : undefined, requestId: res.headers.get('x-request-id')! }
}

/** An answer with its request id taken out (DashScope's error body names it), to compare two answers. */
const comparable = (a: Answer) => ({ status: a.status, json: JSON.parse(JSON.stringify(a.json ?? null).replaceAll(a.requestId, 'REQUEST_ID')) })

/** A 401 in the route's own error shape. */
function unauthorized(route: Route, code: string, message: string, requestId: string): object {
  if (route.protocol === 'messages') return { type: 'error', error: { type: 'authentication_error', message } }
  if (route.protocol === 'dashscope') return { request_id: requestId, code, message }
  return { error: { message, type: 'authentication_error', param: null, code } }
}

describe('Authorization and x-api-key cannot be played against each other', () => {
  it('two different keys, one in each header, get 401 invalid_api_key on every keyed route, whichever of them is valid; the same key in both is answered as in either alone', async () => {
    expect(KEYED.length).toBeGreaterThan(15)
    const pairs = [
      [TEST_KEY, DISABLED_KEY], [DISABLED_KEY, TEST_KEY], [TEST_KEY, EXPIRED_KEY], [EXPIRED_KEY, TEST_KEY],
      [TEST_KEY, BROKE_KEY], [BROKE_KEY, TEST_KEY], [TEST_KEY, UNKNOWN_KEY], [TEST_KEY, OTHER_KEY], [TEST_KEY, MESSAGES_KEY],
    ]
    for (const route of KEYED) {
      const path = pathOf(route)
      for (const [inBearer, inApiKey] of pairs) {
        const answer = await call({ method: route.method, path }, { ...bearer(inBearer), ...apiKey(inApiKey) })
        expect([route.method, path, inBearer, inApiKey, answer.status, answer.json])
          .toEqual([route.method, path, inBearer, inApiKey, 401, unauthorized(route, 'invalid_api_key', DIFFER, answer.requestId)])
      }
    }
    expect(fake.calls).toHaveLength(0)
    for (const route of KEYED) {
      const path = pathOf(route)
      for (const key of [TEST_KEY, DISABLED_KEY, EXPIRED_KEY, BROKE_KEY, MESSAGES_KEY]) {
        const both = comparable(await call({ method: route.method, path }, { ...bearer(key), ...apiKey(key) }))
        const alone = comparable(await call({ method: route.method, path }, bearer(key)))
        expect([route.method, path, key, both]).toEqual([route.method, path, key, alone])
      }
    }
  })

  it('a key header sent twice gets 401 invalid_api_key naming it, on every keyed route, even with the same key twice', async () => {
    const host = `host: 127.0.0.1:${gw.port}\r\n`
    const cases: Array<[string, string]> = [
      [`Authorization: Bearer ${TEST_KEY}\r\nAuthorization: Bearer ${TEST_KEY}\r\n`, 'Authorization'],
      [`Authorization: Bearer ${TEST_KEY}\r\nauthorization: Bearer ${DISABLED_KEY}\r\n`, 'Authorization'],
      [`x-api-key: ${TEST_KEY}\r\nx-api-key: ${TEST_KEY}\r\n`, 'x-api-key'],
      [`X-Api-Key: ${TEST_KEY}\r\nx-api-key: ${OTHER_KEY}\r\n`, 'x-api-key'],
      [`Authorization: Bearer ${TEST_KEY}\r\nx-api-key: ${TEST_KEY}\r\nx-api-key: ${TEST_KEY}\r\n`, 'x-api-key'],
    ]
    for (const route of KEYED) {
      const path = pathOf(route)
      const body = route.method === 'GET' ? '' : '{}'
      const length = route.method === 'GET' ? '' : `content-type: application/json\r\ncontent-length: ${body.length}\r\n`
      for (const [headers, header] of cases) {
        const answer = await rawRequest(gw.url, `${route.method} ${path} HTTP/1.1\r\n${host}${headers}${length}connection: close\r\n\r\n`, Buffer.from(body))
        expect(answer).toBeDefined()
        const requestId = answer!.headers.get('x-request-id')!
        expect([route.method, path, header, answer!.status, JSON.parse(answer!.text)])
          .toEqual([route.method, path, header, 401, unauthorized(route, 'invalid_api_key', repeated(header), requestId)])
      }
    }
    expect(fake.calls).toHaveLength(0)
  })
})

describe("every rule of a key holds whichever header carries it; a valid key in the other header does not lift it", () => {
  const chat = { method: 'POST' as const, path: '/v1/chat/completions' }
  const body = JSON.stringify({ model: 'test-gpt', messages: [{ role: 'user', content: 'hi' }] })
  const chatError = (code: string, message: string, type: string, param: string | null = null) => ({ error: { message, type, param, code } })

  const RULES: Array<{ rule: string; key: string; route: typeof chat; status: number; json: object }> = [
    { rule: 'disabled', key: DISABLED_KEY, route: chat, status: 401, json: chatError('invalid_api_key', 'This API key is disabled: sk-dis…6789', 'authentication_error') },
    { rule: 'expired', key: EXPIRED_KEY, route: chat, status: 401, json: chatError('api_key_expired', 'This API key has expired: sk-exp…6789', 'authentication_error') },
    // "hi" counts 3 tokens; without max_tokens the cap is test-gpt's output limit, 4096: 3 × 2000 + 4096 × 8000 nano-USD.
    { rule: 'quota used up', key: BROKE_KEY, route: chat, status: 402, json: chatError('insufficient_quota', "This request could cost up to 0.032774 USD, and 0 USD is left of this API key's quota (less what its requests under way hold). Even a one-token answer does not fit.", 'insufficient_quota') },
    { rule: 'group protocol', key: MESSAGES_KEY, route: chat, status: 404, json: chatError('route_not_found', 'The current platform does not support this API path: /v1/chat/completions', 'not_found_error') },
    { rule: 'model access', key: NARROW_KEY, route: chat, status: 404, json: chatError('model_not_found', 'The model `test-gpt` does not exist or you do not have access to it.', 'not_found_error', 'model') },
  ]

  it.each(RULES)('$rule: the same answer in Authorization and in x-api-key, and 401 beside another valid key', async ({ key, route, status, json }) => {
    for (const headers of [bearer(key), apiKey(key), { ...bearer(key), ...apiKey(key) }]) {
      expect(await call(route, headers, body)).toMatchObject({ status, json })
    }
    for (const headers of [{ ...bearer(TEST_KEY), ...apiKey(key) }, { ...bearer(key), ...apiKey(TEST_KEY) }]) {
      expect(await call(route, headers, body)).toMatchObject({ status: 401, json: chatError('invalid_api_key', DIFFER, 'authentication_error') })
    }
    expect(fake.calls).toHaveLength(0)
  })

  it("the concurrency cap: a capped key's second request is refused in either header, and another key beside it does not get it through", async () => {
    fake.setScenario({ kind: 'slow', delayMs: 150 })
    const stream = JSON.stringify({ model: 'test-gpt', messages: [{ role: 'user', content: 'hi' }], stream: true })
    const capped = chatError('apikey_concurrency_limit', 'Too many requests in flight for this API key (limit 1); retry after the current ones finish.', 'rate_limit_error')
    for (const holder of [bearer(CAPPED_KEY), apiKey(CAPPED_KEY)]) {
      const held = fetch(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', ...holder }, body: stream })
      await until('the capped key holds its one slot', 3_000, () => gw.services.limiter.inFlight() === 1)
      for (const headers of [bearer(CAPPED_KEY), apiKey(CAPPED_KEY)]) expect(await call(chat, headers, body)).toMatchObject({ status: 429, json: capped })
      for (const headers of [{ ...bearer(OTHER_KEY), ...apiKey(CAPPED_KEY) }, { ...bearer(CAPPED_KEY), ...apiKey(OTHER_KEY) }]) {
        expect(await call(chat, headers, body)).toMatchObject({ status: 401, json: chatError('invalid_api_key', DIFFER, 'authentication_error') })
      }
      expect((await (await held).text()).endsWith('data: [DONE]\n\n')).toBe(true)
      await until('the slot is given back', 3_000, () => gw.services.limiter.inFlight() === 0)
      // In team mode the lease row goes a moment after the request ended: the next holder must find it gone.
      await gw.services.limiter.settled?.()
    }
    // Every request finished is forgotten by the requests-in-flight table too.
    expect(gw.services.keyRequests.count(gw.services.registry.findKey(CAPPED_KEY)!.id)).toBe(0)
  })

  it('GET /v1/usage is Bearer only: x-api-key alone is refused for any key, and a different key in x-api-key beside the Bearer one too', async () => {
    const usage = { method: 'GET' as const, path: '/v1/usage' }
    const bearerOnly = chatError('missing_api_key', 'GET /v1/usage accepts only "Authorization: Bearer sk-..."', 'authentication_error')
    for (const key of [TEST_KEY, DISABLED_KEY, EXPIRED_KEY]) expect(await call(usage, apiKey(key))).toMatchObject({ status: 401, json: bearerOnly })
    expect(await call(usage, bearer(TEST_KEY))).toMatchObject({ status: 200, json: { key: { group: 'main' } } })
    expect(await call(usage, { ...bearer(TEST_KEY), ...apiKey(TEST_KEY) })).toMatchObject({ status: 200, json: { key: { group: 'main' } } })
    for (const other of [DISABLED_KEY, EXPIRED_KEY, OTHER_KEY]) {
      expect(await call(usage, { ...bearer(TEST_KEY), ...apiKey(other) })).toMatchObject({ status: 401, json: chatError('invalid_api_key', DIFFER, 'authentication_error') })
    }
  })
})
