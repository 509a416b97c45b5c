// An upstream of vendor `gateway` takes the client's request as sent, but for the model: it is asked for the model
// served as the account knows it (README "Model mapping and fallbacks"): the account's own name for a mapped model,
// and a fallback model's id when the request fell back. Video submission (both paths) and images (JSON).
import { describe, expect, it } from 'vitest'
import { loadBuiltinModels } from '../../electron/gateway/catalog/catalog.js'
import type { GatewayConfig } from '../../electron/gateway/config/load-config.js'
import { startFakeGateway } from '../fakes/gateway.js'
import { TEST_KEY, withGateway } from '../helpers/gateway.js'

const IMAGE = 'gpt-image-2'
const SEEDANCE = 'doubao-seedance-2-0-260128'
const WAN = 'wan2.7-t2v'
const NATIVE = '/api/v1/services/aigc/video-generation/video-synthesis'
const KEY = 'sk-upstream-gateway-key-0123456789'
const seedance = loadBuiltinModels().find((m) => m.id === SEEDANCE)!

const { gw, fakes } = withGateway({
  fakes: { named: () => startFakeGateway({ apiKey: KEY }), down: () => startFakeGateway({ apiKey: KEY }), plain: () => startFakeGateway({ apiKey: KEY }) },
  config: ({ named, down, plain }): GatewayConfig => ({
    account: { balance: 50 },
    models: [
      { ...seedance, id: 'video-a', fallbacks: [{ model: 'video-b', on: ['unavailable'] }] } as never,
      { ...seedance, id: 'video-b' } as never,
    ],
    upstreams: [
      { id: 'named', vendor: 'gateway', baseUrl: named.url, apiKey: KEY, models: { [SEEDANCE]: 'their-seedance', [WAN]: 'their-wan', [IMAGE]: 'their-image' } },
      { id: 'down', vendor: 'gateway', baseUrl: down.url, apiKey: KEY, models: ['video-a'] },
      { id: 'plain', vendor: 'gateway', baseUrl: plain.url, apiKey: KEY, models: ['video-b'] },
    ],
    groups: [{ id: 'main', protocol: 'chat', models: [IMAGE, SEEDANCE, WAN, 'video-a', 'video-b'], upstreams: ['named', 'down', 'plain'] }],
    keys: [{ key: TEST_KEY, group: 'main' }],
  }),
  options: { videoPoll: { intervalMs: 15, maxIntervalMs: 40, timeoutMs: 1_000 } },
  resetFakes: true,
})

const posts = (fake: { calls: Array<{ method: string; path: string; raw: Buffer }> }) => fake.calls.filter((c) => c.method === 'POST')
const bodyOf = (call: { raw: Buffer }) => JSON.parse(call.raw.toString('utf8')) as Record<string, unknown>

describe('a gateway account asked for the model as it knows it', () => {
  it('video, POST /v1/video/generate: the account\'s own name for a mapped model; the rest of the body as sent; the task names the gateway id', async () => {
    const sent = { model: SEEDANCE, prompt: 'a kite', duration: 5, resolution: '720p', camera_fixed: true }
    const res = await gw.post('/v1/video/generate', sent)
    expect(res.status).toBe(202)
    const task = (await res.json()) as { task_id: string; model: string }
    expect(task.model).toBe(SEEDANCE)
    const [call] = posts(fakes.named)
    expect([call.path, bodyOf(call)]).toEqual(['/v1/video/generate', { ...sent, model: 'their-seedance' }])
    const row = (await gw.services.store.tasks.video.get(task.task_id))!
    expect([row.model, row.upstream_id]).toEqual([SEEDANCE, 'named'])
  })

  it('video, the DashScope-native path: the native body with the account\'s name for the model', async () => {
    const sent = { model: WAN, input: { prompt: 'a kite' }, parameters: { resolution: '720P', duration: 5 } }
    const res = await gw.post(NATIVE, sent)
    expect(res.status).toBe(200)
    const [call] = posts(fakes.named)
    expect([call.path, bodyOf(call)]).toEqual([NATIVE, { ...sent, model: 'their-wan' }])
  })

  it('video, a model fallback: the fallback\'s account is asked for the fallback model, not the one the client named', async () => {
    // 503s on every try of the first model's account (its retry included)
    fakes.down.failNext(...Array.from({ length: 4 }, () => ({ status: 503, code: 'upstream_unavailable', message: 'The upstream is overloaded' })))
    const sent = { model: 'video-a', prompt: 'a kite', duration: 5, resolution: '720p' }
    const res = await gw.post('/v1/video/generate', sent)
    expect(res.status).toBe(202)
    const task = (await res.json()) as { task_id: string; model: string }
    expect(task.model).toBe('video-b')
    expect(posts(fakes.down).map((c) => bodyOf(c).model)).toEqual(['video-a', 'video-a'])
    expect(posts(fakes.plain).map(bodyOf)).toEqual([{ ...sent, model: 'video-b' }])
    const row = (await gw.services.store.tasks.video.get(task.task_id))!
    expect([row.model, row.upstream_id]).toEqual(['video-b', 'plain'])
  })

  it('images, JSON: the account\'s own name for a mapped model; an unmapped body goes byte for byte (gateway-upstream.test.ts)', async () => {
    const sent = { model: IMAGE, prompt: 'a red square', size: '1024x1024', user: 'kept-as-sent' }
    const res = await gw.post('/v1/images/generations', sent)
    expect(res.status).toBe(200)
    const [call] = posts(fakes.named)
    expect([call.path, bodyOf(call)]).toEqual(['/v1/images/generations', { ...sent, model: 'their-image' }])
    const [row] = await gw.services.store.ledger.recent(null, 1)
    expect([row.model, row.upstream_id, row.status]).toEqual([IMAGE, 'named', 200])
  })
})
