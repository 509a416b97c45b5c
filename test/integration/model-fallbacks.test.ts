// Model fallbacks (README "Model mapping and fallbacks"): a model's ordered fallbacks, each with the error classes
// that lead to it. Before any content reached the client, a request whose model failed with one of them is admitted
// again for the fallback and served by its accounts, billed once at the served model's price.
import { describe, expect, it } from 'vitest'
import { loadBuiltinModels } from '../../electron/gateway/catalog/catalog.js'
import type { GatewayConfig } from '../../electron/gateway/config/load-config.js'
import { formatMessage } from '../../shared/messages.js'
import { startFakeOpenAIImages } from '../fakes/images/openai-images.js'
import { startFakeOpenAI } from '../fakes/openai.js'
import { answer } from '../fakes/video/task-script.js'
import { startFakeXai, xaiError } from '../fakes/video/xai.js'
import { TEST_KEY, withGateway, type TestGateway } from '../helpers/gateway.js'
import { readSse } from '../helpers/sse.js'

const token = (input: number, output: number) => ({ unit: 'token' as const, input, output })
// Each model's output limit: what a request without max_tokens holds against the budget as its worst case.
const limits = { maxOutputTokens: 4096 }
const imageModel = (id: string, price: number) => ({ id, family: 'gpt-image' as const, vendor: 'openai' as const, pricing: { unit: 'image' as const, price }, variant: '2.5', sizeTiers: [], maxN: 10, maxReferenceImages: 16 })
const grok = loadBuiltinModels().find((m) => m.id === 'grok-imagine-video')!

const { gw, fakes } = withGateway({
  fakes: {
    primary: startFakeOpenAI, large: startFakeOpenAI, backup: startFakeOpenAI, spare: startFakeOpenAI, outside: startFakeOpenAI,
    imagesDown: () => startFakeOpenAIImages({ apiKey: 'img' }), imagesUp: () => startFakeOpenAIImages({ apiKey: 'img' }),
    videoDown: () => startFakeXai({ apiKey: 'xai' }), videoUp: () => startFakeXai({ apiKey: 'xai' }),
  },
  config: (f): GatewayConfig => ({
    account: { balance: 100, concurrency: 5 },
    models: [
      {
        id: 'primary', family: 'gpt', vendor: 'openai', pricing: token(1, 2), limits,
        fallbacks: [
          // Listed first, never used: the key's group does not have it.
          { model: 'outside', on: ['unavailable', 'rate_limited', 'context_length'] },
          { model: 'large', on: ['context_length'] },
          { model: 'backup', on: ['unavailable'] },
          { model: 'spare', on: ['rate_limited'] },
        ],
      },
      { id: 'guarded', family: 'gpt', vendor: 'openai', pricing: token(1, 2), limits, fallbacks: [{ model: 'outside', on: ['unavailable'] }] },
      { id: 'large', family: 'gpt', vendor: 'openai', pricing: token(5, 10), limits },
      { id: 'backup', family: 'gpt', vendor: 'openai', pricing: token(3, 6), limits },
      { id: 'spare', family: 'gpt', vendor: 'openai', pricing: token(4, 8), limits },
      { id: 'outside', family: 'gpt', vendor: 'openai', pricing: token(1, 1), limits },
      { ...imageModel('img-a', 0.04), fallbacks: [{ model: 'img-b', on: ['unavailable'] }] },
      imageModel('img-b', 0.08),
      { id: grok.id, fallbacks: [{ model: 'grok-video-b', on: ['unavailable'] }] },
      { ...grok, id: 'grok-video-b' } as never,
    ],
    upstreams: [
      { id: 'primary', vendor: 'openai', baseUrl: f.primary.url, apiKey: 'k', models: ['primary', 'guarded'] },
      { id: 'large', vendor: 'openai', baseUrl: f.large.url, apiKey: 'k', models: ['large'] },
      { id: 'backup', vendor: 'openai', baseUrl: f.backup.url, apiKey: 'k', models: ['backup'] },
      { id: 'spare', vendor: 'openai', baseUrl: f.spare.url, apiKey: 'k', models: ['spare'] },
      { id: 'outside', vendor: 'openai', baseUrl: f.outside.url, apiKey: 'k', models: ['outside'] },
      { id: 'images-down', vendor: 'openai', baseUrl: f.imagesDown.url, apiKey: 'img', models: ['img-a'] },
      { id: 'images-up', vendor: 'openai', baseUrl: f.imagesUp.url, apiKey: 'img', models: ['img-b'] },
      { id: 'video-down', vendor: 'xai', baseUrl: `${f.videoDown.url}/v1`, apiKey: 'xai', models: [grok.id] },
      { id: 'video-up', vendor: 'xai', baseUrl: `${f.videoUp.url}/v1`, apiKey: 'xai', models: { 'grok-video-b': grok.id } },
    ],
    groups: [{
      id: 'main', protocol: 'chat',
      models: ['primary', 'guarded', 'large', 'backup', 'spare', 'img-a', 'img-b', grok.id, 'grok-video-b'],
      // The outside model's account is in the group; the model is not.
      upstreams: ['primary', 'large', 'backup', 'spare', 'outside', 'images-down', 'images-up', 'video-down', 'video-up'],
    }],
    keys: [{ key: TEST_KEY, group: 'main' }],
  }),
  resetFakes: true,
})

const chat = (model: string, extra: Record<string, unknown> = {}) => ({ model, messages: [{ role: 'user', content: 'hello' }], ...extra })
const lastRows = async (g: TestGateway, n: number) => g.services.store.ledger.recent(null, n)
/** nano-USD of a token usage at USD per 1M tokens */
const tokenCost = (row: { input_tokens: number | null; output_tokens: number | null }, input: number, output: number) => row.input_tokens! * input * 1000 + row.output_tokens! * output * 1000
const callsOf = () => Object.fromEntries((['primary', 'large', 'backup', 'spare', 'outside'] as const).map((n) => [n, fakes[n].calls.length]))

const CONTEXT_LENGTH = {
  kind: 'status' as const, status: 400,
  body: { error: { message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.", type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } },
}

describe('model fallbacks on chat', () => {
  it('context_length: no retry on the model; the larger fallback answers, named and billed at its price', async () => {
    fakes.primary.once(CONTEXT_LENGTH)
    const res = await gw.post('/v1/chat/completions', chat('primary'))
    expect(res.status).toBe(200)
    const body = (await res.json()) as { model: string; usage: { prompt_tokens: number; completion_tokens: number } }
    expect(body.model).toBe('large')
    expect(callsOf()).toEqual({ primary: 1, large: 1, backup: 0, spare: 0, outside: 0 })
    expect(fakes.large.calls[0].body.model).toBe('large')
    const [row] = await lastRows(gw, 1)
    expect([row.model, row.upstream_id, row.status, row.input_tokens, row.output_tokens]).toEqual(['large', 'large', 200, body.usage.prompt_tokens, body.usage.completion_tokens])
    expect(row.cost_nano).toBe(tokenCost(row, 5, 10))
  })

  it('unavailable: the accounts answer 503; the fallback for outages answers', async () => {
    fakes.primary.setScenario({ kind: 'status', status: 503 })
    const res = await gw.post('/v1/chat/completions', chat('primary'))
    expect(res.status).toBe(200)
    expect(((await res.json()) as { model: string }).model).toBe('backup')
    expect({ ...callsOf(), primary: fakes.primary.calls.length > 0 }).toEqual({ primary: true, large: 0, backup: 1, spare: 0, outside: 0 })
    const [row] = await lastRows(gw, 1)
    expect([row.model, row.upstream_id, row.status]).toEqual(['backup', 'backup', 200])
    expect(row.cost_nano).toBe(tokenCost(row, 3, 6))
  })

  it('unavailable on a stream: the fallback streams, every chunk naming it', async () => {
    fakes.primary.setScenario({ kind: 'status', status: 503 })
    const res = await gw.post('/v1/chat/completions', chat('primary', { stream: true }))
    expect(res.status).toBe(200)
    const events = await readSse(res)
    expect(events.at(-1)?.data).toBe('[DONE]')
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data) as { model: string })
    expect(new Set(chunks.map((c) => c.model))).toEqual(new Set(['backup']))
    expect((await lastRows(gw, 1))[0].model).toBe('backup')
  })

  it('rate_limited: the accounts answer 429; the fallback for rate limits answers, not the one for outages', async () => {
    fakes.primary.setScenario({ kind: 'status', status: 429 })
    const res = await gw.post('/v1/chat/completions', chat('primary'))
    expect(res.status).toBe(200)
    expect(((await res.json()) as { model: string }).model).toBe('spare')
    expect({ ...callsOf(), primary: fakes.primary.calls.length > 0 }).toEqual({ primary: true, large: 0, backup: 0, spare: 1, outside: 0 })
    const [row] = await lastRows(gw, 1)
    expect([row.model, row.upstream_id]).toEqual(['spare', 'spare'])
    expect(row.cost_nano).toBe(tokenCost(row, 4, 8))
  })

  it('a fallback outside the key\'s group is never used: the model\'s own error stands', async () => {
    fakes.primary.setScenario({ kind: 'status', status: 503 })
    const res = await gw.post('/v1/chat/completions', chat('guarded'))
    expect(res.status).toBe(503)
    const body = (await res.json()) as { error: { code: string; message: string } }
    expect(body.error.code).toBe('upstream_unavailable')
    expect(body.error.message).toBe(formatMessage('upstream_unavailable', 'en'))
    expect(fakes.outside.calls).toHaveLength(0)
    const [row] = await lastRows(gw, 1)
    expect([row.model, row.status, row.cost_nano]).toEqual(['guarded', 503, 0])
  })

  it('a content filter\'s refusal never falls back: the reason reaches the client', async () => {
    const message = 'Your request was rejected as a result of our safety system.'
    fakes.primary.once({ kind: 'status', status: 400, body: { error: { message, type: 'invalid_request_error', param: null, code: 'content_filter' } } })
    const res = await gw.post('/v1/chat/completions', chat('primary'))
    expect(res.status).toBe(400)
    const body = (await res.json()) as { error: { code: string; message: string; type: string } }
    expect([body.error.code, body.error.message, body.error.type]).toEqual(['content_filter', message, 'invalid_request_error'])
    expect(callsOf()).toEqual({ primary: 1, large: 0, backup: 0, spare: 0, outside: 0 })
    const [row] = await lastRows(gw, 1)
    expect([row.model, row.status, row.cost_nano]).toEqual(['primary', 400, 0])
  })

  it('a healthy model answers itself: no fallback is asked', async () => {
    const res = await gw.post('/v1/chat/completions', chat('primary'))
    expect(res.status).toBe(200)
    expect(((await res.json()) as { model: string }).model).toBe('primary')
    expect(callsOf()).toEqual({ primary: 1, large: 0, backup: 0, spare: 0, outside: 0 })
  })
})

describe('model fallbacks on images and video submission', () => {
  it('images, unavailable: the fallback model makes them, billed at its price', async () => {
    fakes.imagesDown.setScenario({ kind: 'status', status: 503 })
    const res = await gw.post('/v1/images/generations', { model: 'img-a', prompt: 'a fox', size: '1024x1024' })
    expect(res.status).toBe(200)
    expect(((await res.json()) as { data: unknown[] }).data).toHaveLength(1)
    expect(fakes.imagesDown.calls.length).toBeGreaterThan(0)
    expect(fakes.imagesUp.calls.map((c) => c.body.model)).toEqual(['img-b'])
    const [row] = await lastRows(gw, 1)
    expect([row.model, row.upstream_id, row.status, row.cost_nano]).toEqual(['img-b', 'images-up', 200, 80_000_000])
  })

  it('video submission, unavailable: the task is the fallback model\'s, reserved at its price', async () => {
    for (let i = 0; i < 8; i++) fakes.videoDown.switches.nextStart.push(answer(503, xaiError(503)))
    const res = await gw.post('/v1/video/generate', { model: grok.id, prompt: 'a fox', duration: 6, resolution: '480p' })
    expect(res.status).toBe(202)
    const task = (await res.json()) as { model: string; task_id: string; status: string }
    expect([task.model, task.status]).toEqual(['grok-video-b', 'queued'])
    expect(fakes.videoDown.calls.filter((c) => c.method === 'POST').length).toBeGreaterThan(0)
    expect(fakes.videoUp.calls.filter((c) => c.method === 'POST').map((c) => c.body.model)).toEqual([grok.id])
    const row = (await gw.services.store.tasks.video.get(task.task_id))!
    expect([row.model, row.upstream_id]).toEqual(['grok-video-b', 'video-up'])
  })
})
