// Per-account model mapping (README "Model mapping and fallbacks"): an account's `models` may map a gateway model id
// to its own name for it. The upstream gets the account's name; the client and the ledger see the gateway's id.
import { describe, expect, it } from 'vitest'
import { loadBuiltinModels } from '../../electron/gateway/catalog/catalog.js'
import type { GatewayConfig } from '../../electron/gateway/config/load-config.js'
import { startFakeAnthropic } from '../fakes/anthropic.js'
import { startFakeOpenAIImages } from '../fakes/images/openai-images.js'
import { startFakeOpenAI } from '../fakes/openai.js'
import { startFakeXai } from '../fakes/video/xai.js'
import { TEST_KEY, withGateway, type TestGateway } from '../helpers/gateway.js'
import { readSse } from '../helpers/sse.js'

const MESSAGES_KEY = 'sk-messages-0123456789abcdef'
const grokVideo = loadBuiltinModels().find((m) => m.id === 'grok-imagine-video')!

const { gw, fakes } = withGateway({
  fakes: {
    azure: startFakeOpenAI,
    plain: startFakeOpenAI,
    claude: () => startFakeAnthropic({ apiKey: 'claude-key' }),
    images: () => startFakeOpenAIImages({ apiKey: 'img-key' }),
    video: () => startFakeXai({ apiKey: 'xai-key' }),
  },
  config: ({ azure, plain, claude, images, video }): GatewayConfig => ({
    account: { balance: 100, concurrency: 5 },
    models: [
      // Output limits, as every real model has: a request without max_tokens holds its model's as its worst case.
      { id: 'test-gpt', family: 'gpt', vendor: 'openai', pricing: { unit: 'token', input: 2, output: 8 }, limits: { maxOutputTokens: 4096 } },
      { id: 'test-claude', family: 'claude', vendor: 'anthropic', pricing: { unit: 'token', input: 3, output: 15 }, limits: { maxOutputTokens: 4096 } },
      { id: 'test-image', family: 'gpt-image', vendor: 'openai', pricing: { unit: 'image', price: 0.04 }, variant: '2.5', sizeTiers: [], maxN: 10, maxReferenceImages: 16 },
    ],
    upstreams: [
      { id: 'azure', vendor: 'openai', baseUrl: azure.url, apiKey: 'azure-key', models: { 'test-gpt': 'my-azure-deployment' }, priority: 1 },
      // The same gateway id under its own name at another account (the array form).
      { id: 'plain', vendor: 'openai', baseUrl: plain.url, apiKey: 'plain-key', models: ['test-gpt'] },
      { id: 'claude', vendor: 'anthropic', baseUrl: claude.url, apiKey: 'claude-key', models: { 'test-claude': 'reseller/claude-sonnet' } },
      { id: 'images', vendor: 'openai', baseUrl: images.url, apiKey: 'img-key', models: { 'test-image': 'gpt-image-deploy' } },
      { id: 'video', vendor: 'xai', baseUrl: `${video.url}/v1`, apiKey: 'xai-key', models: { [grokVideo.id]: 'reseller/grok-video' } },
    ],
    groups: [
      { id: 'main', protocol: 'chat', models: ['test-gpt', 'test-image', grokVideo.id], upstreams: ['azure', 'plain', 'images', 'video'] },
      { id: 'claude', protocol: 'messages', models: ['test-claude'], upstreams: ['claude'] },
    ],
    keys: [{ key: TEST_KEY, group: 'main' }, { key: MESSAGES_KEY, group: 'claude' }],
  }),
  resetFakes: true,
})

const lastRow = async (g: TestGateway) => (await g.services.store.ledger.recent(null, 1))[0]
const chat = { model: 'test-gpt', messages: [{ role: 'user', content: 'hello' }] }

describe('per-account model mapping', () => {
  it('chat: the account gets its own name; the answer and the ledger name the gateway id', async () => {
    const res = await gw.post('/v1/chat/completions', chat)
    expect(res.status).toBe(200)
    const body = (await res.json()) as { model: string; choices: Array<{ message: { content: string } }> }
    expect([body.model, body.choices[0].message.content]).toEqual(['test-gpt', 'Hello from the fake upstream.'])
    expect(fakes.azure.calls.map((c) => c.body.model)).toEqual(['my-azure-deployment'])
    expect(fakes.plain.calls).toHaveLength(0)
    const row = await lastRow(gw)
    expect([row.model, row.upstream_id, row.status]).toEqual(['test-gpt', 'azure', 200])
  })

  it('chat stream: every chunk names the gateway id', async () => {
    const res = await gw.post('/v1/chat/completions', { ...chat, stream: true, stream_options: { include_usage: true } })
    expect(res.status).toBe(200)
    const events = await readSse(res)
    const chunks = events.filter((e) => e.data !== '[DONE]').map((e) => JSON.parse(e.data) as { model: string })
    expect(chunks.length).toBeGreaterThan(2)
    expect(new Set(chunks.map((c) => c.model))).toEqual(new Set(['test-gpt']))
    expect(events.at(-1)?.data).toBe('[DONE]')
    expect(fakes.azure.calls.map((c) => c.body.model)).toEqual(['my-azure-deployment'])
    expect((await lastRow(gw)).model).toBe('test-gpt')
  })

  it('two accounts back one id: the next account gets the id under its own name', async () => {
    fakes.azure.setScenario({ kind: 'status', status: 500 })
    const res = await gw.post('/v1/chat/completions', chat)
    expect(res.status).toBe(200)
    expect(((await res.json()) as { model: string }).model).toBe('test-gpt')
    expect(fakes.azure.calls.map((c) => c.body.model)[0]).toBe('my-azure-deployment')
    expect(fakes.plain.calls.map((c) => c.body.model)).toEqual(['test-gpt'])
    const row = await lastRow(gw)
    expect([row.model, row.upstream_id]).toEqual(['test-gpt', 'plain'])
  })

  it('responses: the body and the stream name the gateway id', async () => {
    const res = await gw.post('/v1/responses', { model: 'test-gpt', input: 'hello' })
    expect(res.status).toBe(200)
    expect(((await res.json()) as { model: string }).model).toBe('test-gpt')
    const streamed = await gw.post('/v1/responses', { model: 'test-gpt', input: 'hello', stream: true })
    expect(streamed.status).toBe(200)
    const events = await readSse(streamed)
    const named = events.map((e) => JSON.parse(e.data) as { response?: { model?: string } }).filter((e) => e.response?.model !== undefined)
    expect(named.length).toBeGreaterThan(0)
    expect(new Set(named.map((e) => e.response!.model))).toEqual(new Set(['test-gpt']))
    expect(fakes.azure.calls.map((c) => [c.path, c.body.model])).toEqual([['/v1/responses', 'my-azure-deployment'], ['/v1/responses', 'my-azure-deployment']])
    expect((await lastRow(gw)).model).toBe('test-gpt')
  })

  it('messages: the reseller gets its name; the message and its stream name the gateway id', async () => {
    const auth = { authorization: `Bearer ${MESSAGES_KEY}` }
    const body = { model: 'test-claude', max_tokens: 64, messages: [{ role: 'user', content: 'hello' }] }
    const res = await gw.post('/v1/messages', body, auth)
    expect(res.status).toBe(200)
    expect(((await res.json()) as { model: string }).model).toBe('test-claude')
    const streamed = await gw.post('/v1/messages', { ...body, stream: true }, auth)
    expect(streamed.status).toBe(200)
    const start = (await readSse(streamed)).find((e) => e.event === 'message_start')!
    expect((JSON.parse(start.data) as { message: { model: string } }).message.model).toBe('test-claude')
    expect(fakes.claude.calls.map((c) => c.body.model)).toEqual(['reseller/claude-sonnet', 'reseller/claude-sonnet'])
    expect((await lastRow(gw)).model).toBe('test-claude')
  })

  it('images: the account gets its deployment name; the ledger names the gateway id', async () => {
    const res = await gw.post('/v1/images/generations', { model: 'test-image', prompt: 'a fox', size: '1024x1024' })
    expect(res.status).toBe(200)
    expect(fakes.images.calls.map((c) => c.body.model)).toEqual(['gpt-image-deploy'])
    const row = await lastRow(gw)
    expect([row.model, row.upstream_id, row.status]).toEqual(['test-image', 'images', 200])
  })

  it('video submission: the account gets its name; the task names the gateway id', async () => {
    const res = await gw.post('/v1/video/generate', { model: grokVideo.id, prompt: 'a fox', duration: 6, resolution: '480p' })
    expect(res.status).toBe(202)
    const task = (await res.json()) as { model: string; task_id: string }
    expect(task.model).toBe(grokVideo.id)
    expect(fakes.video.calls.filter((c) => c.method === 'POST').map((c) => c.body.model)).toEqual(['reseller/grok-video'])
    expect((await gw.services.store.tasks.video.get(task.task_id))!.model).toBe(grokVideo.id)
  })
})
