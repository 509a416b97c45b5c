// Model fallbacks (README "Model mapping and fallbacks") on the responses and messages protocols, the paths
// model-fallbacks.test.ts leaves out (it covers chat, images and video submission): the model's accounts answer 503,
// its `unavailable` fallback answers under the account's own name for it, and the client and the ledger see the
// fallback's gateway id, billed once at its price.
import { describe, expect, it } from 'vitest'
import type { GatewayConfig } from '../../electron/gateway/config/load-config.js'
import { startFakeAnthropic } from '../fakes/anthropic.js'
import { startFakeOpenAI } from '../fakes/openai.js'
import { TEST_KEY, withGateway, type TestGateway } from '../helpers/gateway.js'
import { readSse } from '../helpers/sse.js'

const MESSAGES_KEY = 'sk-messages-fallbacks-0123456789'
const token = (input: number, output: number) => ({ unit: 'token' as const, input, output })

const { gw, fakes } = withGateway({
  fakes: {
    respDown: startFakeOpenAI, respUp: startFakeOpenAI,
    claudeDown: () => startFakeAnthropic({ apiKey: 'ck' }), claudeUp: () => startFakeAnthropic({ apiKey: 'ck' }),
  },
  config: (f): GatewayConfig => ({
    account: { balance: 100, concurrency: 5 },
    models: [
      { id: 'resp-a', family: 'gpt', vendor: 'openai', pricing: token(1, 2), fallbacks: [{ model: 'resp-b', on: ['unavailable'] }] },
      { id: 'resp-b', family: 'gpt', vendor: 'openai', pricing: token(3, 6) },
      { id: 'claude-a', family: 'claude', vendor: 'anthropic', pricing: token(1, 5), fallbacks: [{ model: 'claude-b', on: ['unavailable'] }] },
      { id: 'claude-b', family: 'claude', vendor: 'anthropic', pricing: token(3, 15) },
    ],
    upstreams: [
      { id: 'resp-down', vendor: 'openai', baseUrl: f.respDown.url, apiKey: 'k', models: ['resp-a'] },
      { id: 'resp-up', vendor: 'openai', baseUrl: f.respUp.url, apiKey: 'k', models: { 'resp-b': 'deploy-b' } },
      { id: 'claude-down', vendor: 'anthropic', baseUrl: f.claudeDown.url, apiKey: 'ck', models: ['claude-a'] },
      { id: 'claude-up', vendor: 'anthropic', baseUrl: f.claudeUp.url, apiKey: 'ck', models: { 'claude-b': 'reseller/claude-b' } },
    ],
    groups: [
      { id: 'main', protocol: 'chat', models: ['resp-a', 'resp-b'], upstreams: ['resp-down', 'resp-up'] },
      { id: 'claude', protocol: 'messages', models: ['claude-a', 'claude-b'], upstreams: ['claude-down', 'claude-up'] },
    ],
    keys: [{ key: TEST_KEY, group: 'main' }, { key: MESSAGES_KEY, group: 'claude' }],
  }),
  resetFakes: true,
})

const rowOf = async (g: TestGateway, id: string | null) => (await g.services.store.ledger.flush(), (await g.services.store.ledger.get(id ?? ''))!)
/** nano-USD of a row's tokens at USD per 1M tokens */
const tokenCost = (row: { input_tokens: number | null; output_tokens: number | null }, input: number, output: number) => row.input_tokens! * input * 1000 + row.output_tokens! * output * 1000
const auth = { authorization: `Bearer ${MESSAGES_KEY}` }
const claudeBody = { model: 'claude-a', max_tokens: 64, messages: [{ role: 'user', content: 'hello' }] }

interface Served {
  down: { calls: Array<{ body: any }> }
  up: { calls: Array<{ body: any }> }
  /** the model the client named, tried twice on its account (a 503 is retried once) */
  asked: string
  /** the fallback, as the answer and the ledger name it */
  served: string
  /** the fallback's name at its account */
  name: string
  upstream: string
  /** USD per 1M input and output tokens of the fallback */
  price: [number, number]
}

/** A whole answer of the fallback, named for it, from its account under its own name, billed once at its price. */
async function expectFallbackServed(res: Response, e: Served): Promise<void> {
  expect(res.status).toBe(200)
  expect(((await res.json()) as { model: string }).model).toBe(e.served)
  expect(e.down.calls.map((c) => c.body.model)).toEqual([e.asked, e.asked])
  expect(e.up.calls.map((c) => c.body.model)).toEqual([e.name])
  const row = await rowOf(gw, res.headers.get('x-request-id'))
  expect([row.model, row.upstream_id, row.status]).toEqual([e.served, e.upstream, 200])
  expect(row.output_tokens).toBeGreaterThan(0)
  expect(row.cost_nano).toBe(tokenCost(row, ...e.price))
}

describe('model fallbacks on responses and messages', () => {
  it('responses, unavailable: the fallback answers under its account\'s name; the answer and the ledger name the fallback, billed at its price', async () => {
    fakes.respDown.setScenario({ kind: 'status', status: 503 })
    const res = await gw.post('/v1/responses', { model: 'resp-a', input: 'hello', max_output_tokens: 64 })
    await expectFallbackServed(res, { down: fakes.respDown, up: fakes.respUp, asked: 'resp-a', served: 'resp-b', name: 'deploy-b', upstream: 'resp-up', price: [3, 6] })
    expect(fakes.respUp.calls.map((c) => c.path)).toEqual(['/v1/responses'])
  })

  it('responses stream, unavailable: every event naming a model names the fallback', async () => {
    fakes.respDown.setScenario({ kind: 'status', status: 503 })
    const res = await gw.post('/v1/responses', { model: 'resp-a', input: 'hello', max_output_tokens: 64, stream: true })
    expect(res.status).toBe(200)
    const named = (await readSse(res)).map((e) => JSON.parse(e.data) as { response?: { model?: string } }).filter((e) => e.response?.model !== undefined)
    expect(named.length).toBeGreaterThan(0)
    expect(new Set(named.map((e) => e.response!.model))).toEqual(new Set(['resp-b']))
    expect(fakes.respUp.calls.map((c) => c.body.model)).toEqual(['deploy-b'])
    expect((await rowOf(gw, res.headers.get('x-request-id'))).model).toBe('resp-b')
  })

  it('messages, unavailable: the fallback answers under its account\'s name; the message and the ledger name the fallback, billed at its price', async () => {
    fakes.claudeDown.setScenario({ kind: 'status', status: 503 })
    const res = await gw.post('/v1/messages', claudeBody, auth)
    await expectFallbackServed(res, { down: fakes.claudeDown, up: fakes.claudeUp, asked: 'claude-a', served: 'claude-b', name: 'reseller/claude-b', upstream: 'claude-up', price: [3, 15] })
  })

  it('messages stream, unavailable: message_start names the fallback', async () => {
    fakes.claudeDown.setScenario({ kind: 'status', status: 503 })
    const res = await gw.post('/v1/messages', { ...claudeBody, stream: true }, auth)
    expect(res.status).toBe(200)
    const start = (await readSse(res)).find((e) => e.event === 'message_start')!
    expect((JSON.parse(start.data) as { message: { model: string } }).message.model).toBe('claude-b')
    expect(fakes.claudeUp.calls.map((c) => c.body.model)).toEqual(['reseller/claude-b'])
    expect((await rowOf(gw, res.headers.get('x-request-id'))).model).toBe('claude-b')
  })
})
