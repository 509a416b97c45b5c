import OpenAI, { toFile } from 'openai'
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { makePng } from '../fakes/images/image-bytes.js'
import { startFakeArkSeedream } from '../fakes/images/ark-seedream.js'
import { startFakeGeminiImage } from '../fakes/images/gemini-image.js'
import { startFakeOpenAIImages } from '../fakes/images/openai-images.js'
import { startTestGateway, TEST_KEY, withGateway, type TestGateway } from '../helpers/gateway.js'
import { readSse } from '../helpers/sse.js'
import { IMG_GPT, IMG_SEEDREAM } from '../helpers/image-models.js'
import { until } from '../helpers/until.js'

const { gw, fakes: { openaiFake, geminiFake, arkFake } } = withGateway({
  fakes: {
    openaiFake: () => startFakeOpenAIImages({ apiKey: 'oa' }),
    geminiFake: () => startFakeGeminiImage({ apiKey: 'gm' }),
    arkFake: () => startFakeArkSeedream({ apiKey: 'ark' }),
  },
  config: ({ openaiFake, geminiFake, arkFake }) => ({
    account: { balance: 100, concurrency: 5 },
    models: [
      IMG_GPT,
      { id: 'img-gemini', family: 'gemini-image', vendor: 'gemini', pricing: { unit: 'image', price: 0.05, byTier: { '1K': 0.05, '2K': 0.1, '4K': 0.2 } }, imageSizes: ['1K', '2K', '4K'], maxNByTier: { '1K': 10, '2K': 5, '4K': 2 }, maxReferenceImages: 14, aspectRatios: ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'] },
      IMG_SEEDREAM,
    ] as never,
    upstreams: [
      { id: 'oa', vendor: 'openai', baseUrl: openaiFake.url, apiKey: 'oa' },
      { id: 'gm', vendor: 'gemini', baseUrl: geminiFake.url, apiKey: 'gm' },
      { id: 'ark', vendor: 'ark', baseUrl: arkFake.url, apiKey: 'ark' },
    ],
    groups: [{ id: 'main', protocol: 'chat', models: ['img-gpt', 'img-gemini', 'img-seedream'], upstreams: ['oa', 'gm', 'ark'] }],
    keys: [{ key: TEST_KEY, group: 'main' }],
  }),
  resetFakes: true,
})
let client: OpenAI
beforeAll(() => {
  client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: TEST_KEY, maxRetries: 0 })
})

const lastRow = async () => (await gw.services.store.ledger.recent(null, 1))[0]

describe('gpt-image through the openai client', () => {
  it('images.generate answers b64_json PNGs and bills per image', async () => {
    const result = await client.images.generate({ model: 'img-gpt', prompt: 'a red fox', n: 2, size: '1536x1024' })
    expect(result.data).toHaveLength(2)
    const meta = await sharp(Buffer.from(result.data![0].b64_json!, 'base64')).metadata()
    expect([meta.width, meta.height]).toEqual([1536, 1024])
    expect(openaiFake.calls[0].body).toMatchObject({ model: 'img-gpt', prompt: 'a red fox', n: 2, size: '1536x1024' })
    expect((await lastRow())).toMatchObject({ endpoint: 'images.generations', status: 200, cost_nano: 2 * 0.04 * 1e9 })
  })

  it('images.edit sends the files and the mask scaled to the first image, with alpha', async () => {
    const first = makePng(512, 256)
    const second = makePng(64, 64)
    const mask = makePng(128, 64, { alpha: true, clearRect: [0, 0, 32, 32] })
    const result = await client.images.edit({
      model: 'img-gpt', prompt: 'make it blue',
      image: [await toFile(first, 'a.png', { type: 'image/png' }), await toFile(second, 'b.png', { type: 'image/png' })],
      mask: await toFile(mask, 'mask.png', { type: 'image/png' }),
    })
    expect(result.data).toHaveLength(1)
    const files = openaiFake.calls[0].body.files as Array<{ field: string; width: number; height: number; hasAlpha: boolean; bytes: Buffer }>
    expect(files.map((f) => f.field)).toEqual(['image[]', 'image[]', 'mask'])
    const sent = files[2]
    expect([sent.width, sent.height, sent.hasAlpha]).toEqual([512, 256, true])
    // The transparent corner (32x32 of 128x64) is now 128x128 of 512x256: alpha 0 there, 255 outside.
    const { data, info } = await sharp(sent.bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
    const alphaAt = (x: number, y: number) => data[(y * info.width + x) * info.channels + 3]
    expect([alphaAt(10, 10), alphaAt(127, 127), alphaAt(128, 128), alphaAt(400, 200)]).toEqual([0, 0, 255, 255])
  })

  it('a size off the grammar answers 400 before any upstream call, unbilled', async () => {
    const error = await client.images.generate({ model: 'img-gpt', prompt: 'x', size: '3856x1024' as never }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(OpenAI.BadRequestError)
    expect(openaiFake.calls).toHaveLength(0)
    expect((await lastRow())).toMatchObject({ status: 400, cost_nano: 0 })
  })

  it('Prefer: respond-async answers 202 with a task that completes and is billed once', async () => {
    const res = await gw.post('/v1/images/generations', { model: 'img-gpt', prompt: 'a fox' }, { prefer: 'respond-async' })
    expect(res.status).toBe(202)
    const accepted = (await res.json()) as { task_id: string; status_url: string }
    expect(accepted.status_url).toBe(`/v1/images/tasks?task_id=${accepted.task_id}`)
    const task = await until('the task ended', 5_000, async () => {
      const view = (await (await gw.get(accepted.status_url)).json()) as { status: string; result?: { data: unknown[] } }
      return view.status !== 'running' && view
    })
    expect(task.status).toBe('succeeded')
    expect(task.result!.data).toHaveLength(1)
    expect((await gw.services.store.ledger.get(accepted.task_id))).toMatchObject({ status: 200, cost_nano: 0.04 * 1e9 })
  })

  it('stream: true answers the gateway images SSE: keepalive, the images JSON, then [DONE]', async () => {
    const res = await gw.post('/v1/images/generations', { model: 'img-gpt', prompt: 'a fox', stream: true })
    const text = await res.clone().text()
    expect(text.startsWith(': keepalive\n\n')).toBe(true)
    const events = await readSse(res)
    expect(events.at(-1)?.data).toBe('[DONE]')
    expect(JSON.parse(events.at(-2)!.data).data).toHaveLength(1)
  })
})

describe('gemini-image', () => {
  it('n images are made in parallel, at the tier and ratio asked, billed per tier', async () => {
    const result = (await (await gw.post('/v1/images/generations', { model: 'img-gemini', prompt: 'a fox', n: 2, image_size: '2K', aspect_ratio: '16:9' })).json()) as { data: Array<{ mime_type: string }> }
    expect(result.data).toHaveLength(2)
    expect(geminiFake.calls).toHaveLength(2)
    expect(geminiFake.calls[0].body.generationConfig.imageConfig).toEqual({ aspectRatio: '16:9', imageSize: '2K' })
    expect((await lastRow()).cost_nano).toBe(2 * 0.1 * 1e9)
  })
  it('a text-only answer is a 400 quoting the text, unbilled', async () => {
    geminiFake.setScenario({ kind: 'text_only' } as never)
    const res = await gw.post('/v1/images/generations', { model: 'img-gemini', prompt: 'x' })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/^The model returned no image\. It said: /)
    expect((await lastRow()).cost_nano).toBe(0)
  })
})

describe('seedream', () => {
  it('answers signed links and keeps a copy of each image in the data dir', async () => {
    const res = await gw.post('/v1/images/generations', { model: 'img-seedream', prompt: 'a fox', size: '2K' })
    const requestId = res.headers.get('x-request-id')!
    const body = (await res.json()) as { data: Array<{ url: string; mime_type: string }> }
    expect(body.data[0].url).toMatch(/^http:\/\/127\.0\.0\.1/)
    const [saved] = await until('the image kept', 5_000, async () => {
      const kept = await gw.services.store.media.byRequest(requestId)
      return kept.length > 0 && kept
    })
    expect(saved).toMatchObject({ kind: 'image', source_url: body.data[0].url })
  })
})

describe('kling-image (a task at the vendor, polled within the request)', () => {
  it('creates the task with a signed JWT, polls it to success, and answers the links', async () => {
    const { startFakeKlingImages } = await import('../fakes/images/kling-images.js')
    const kling = await startFakeKlingImages({ accessKey: 'ak-test', secretKey: 'sk-secret' })
    const g = await startTestGateway({
      account: { balance: 10 },
      models: [{ id: 'img-kling', family: 'kling-image', vendor: 'kling', pricing: { unit: 'image', price: 0.02 }, aspectRatios: ['16:9', '9:16', '1:1', '4:3', '3:4', '3:2', '2:3', '21:9'] } as never],
      upstreams: [{ id: 'k', vendor: 'kling', baseUrl: kling.url, apiKey: 'ak-test:sk-secret' }],
      groups: [{ id: 'main', protocol: 'chat', models: ['img-kling'], upstreams: ['k'] }],
      keys: [{ key: TEST_KEY, group: 'main' }],
    })
    try {
      const res = await g.post('/v1/images/generations', { model: 'img-kling', prompt: 'a fox', n: 2, aspect_ratio: '16:9' })
      const body = (await res.json()) as { data: Array<{ url: string }> }
      expect(res.status).toBe(200)
      expect(body.data).toHaveLength(2)
      expect(body.data[0].url).toContain(kling.origin)
      expect(kling.calls[0].body).toMatchObject({ model_name: 'img-kling', prompt: 'a fox', n: 2, aspect_ratio: '16:9' })
      expect((await g.services.store.ledger.recent(null, 1))[0]).toMatchObject({ status: 200, cost_nano: 2 * 0.02 * 1e9 })
    } finally {
      await g.stop()
      await kling.close()
    }
  })
})

describe('async image tasks: failure and restart', () => {
  const pollUntilDone = async (g: TestGateway, url: string) => {
    return until('the task ended', 5_000, async () => {
      const view = (await (await g.get(url)).json()) as { status: string; error?: { code: string } }
      return view.status !== 'running' && view
    })
  }

  it('a failed task is recorded failed and not billed', async () => {
    openaiFake.setScenario({ kind: 'status', status: 400, body: { error: { message: 'Your request was rejected by the safety system.', type: 'image_generation_user_error', param: null, code: 'moderation_blocked' } } } as never)
    const before = gw.services.registry.account.balanceNano
    const accepted = (await (await gw.post('/v1/images/generations', { model: 'img-gpt', prompt: 'x' }, { prefer: 'respond-async' })).json()) as { task_id: string; status_url: string }
    const task = await pollUntilDone(gw, accepted.status_url)
    expect(task).toMatchObject({ status: 'failed', error: { code: 'moderation_blocked' } })
    // The account that refused is recorded, so the app can name it next to the error.
    expect((await gw.services.store.ledger.get(accepted.task_id))).toMatchObject({ cost_nano: 0, error_code: 'moderation_blocked', upstream_id: 'oa' })
    expect(gw.services.registry.account.balanceNano).toBe(before)
  })

  it('a refused request (no task) records the account that refused it in the request log', async () => {
    openaiFake.setScenario({ kind: 'status', status: 400, body: { error: { message: 'Your request was rejected by the safety system.', type: 'image_generation_user_error', param: null, code: 'moderation_blocked' } } } as never)
    const res = await gw.post('/v1/images/generations', { model: 'img-gpt', prompt: 'x' })
    expect(res.status).toBe(400)
    const id = res.headers.get('x-request-id')!
    await gw.services.store.ledger.flush()
    expect((await gw.services.store.ledger.get(id))).toMatchObject({ status: 400, cost_nano: 0, error_code: 'moderation_blocked', upstream_id: 'oa' })
  })

  it('another key cannot see the task', async () => {
    const accepted = (await (await gw.post('/v1/images/generations', { model: 'img-gpt', prompt: 'x' }, { prefer: 'respond-async' })).json()) as { status_url: string }
    await pollUntilDone(gw, accepted.status_url)
    await gw.services.store.apiKeys.upsert({ id: 'key_other', hash: 'h'.repeat(64), hint: 'x', group_id: 'main', name: null, concurrency: null, quota_nano: null, expires_at: null, disabled: 0, created_at: 0 })
    const res = await gw.get(accepted.status_url, { authorization: 'Bearer sk-missing-0123456789' })
    expect(res.status).toBe(401)
  })

  it('a task cut short by a restart fails cleanly, unbilled, and stays readable', async () => {
    const { startGatewayOnTestStore, tempDataDir } = await import('../helpers/gateway.js')
    const dir = tempDataDir()
    openaiFake.setScenario({ kind: 'stall' } as never)
    const config = {
      account: { balance: 10 },
      models: [IMG_GPT],
      upstreams: [{ id: 'oa', vendor: 'openai', baseUrl: openaiFake.url, apiKey: 'oa' }],
      groups: [{ id: 'main', protocol: 'chat', models: ['img-gpt'], upstreams: ['oa'] }],
      keys: [{ key: TEST_KEY, group: 'main' }],
    } as never
    let g = await startGatewayOnTestStore({ dataDir: dir.dir, config, port: 0, log: () => {} })
    const auth = { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' }
    const accepted = (await (await fetch(`${g.url}/v1/images/generations`, { method: 'POST', headers: { ...auth, prefer: 'respond-async' }, body: JSON.stringify({ model: 'img-gpt', prompt: 'x' }) })).json()) as { task_id: string; status_url: string }
    await new Promise((r) => setTimeout(r, 100))
    await g.close(50)
    g = await startGatewayOnTestStore({ dataDir: dir.dir, config, port: 0, log: () => {} })
    const task = (await (await fetch(`${g.url}${accepted.status_url}`, { headers: auth })).json()) as { status: string; error: { code: string } }
    expect(task).toMatchObject({ status: 'failed', error: { code: 'task_interrupted' } })
    expect((await g.services.store.ledger.get(accepted.task_id))).toMatchObject({ cost_nano: 0 })
    expect(g.services.registry.account.balanceNano).toBe(10e9)
    await g.close(50)
    dir.remove()
    openaiFake.reset()
  })
})

describe('GET /spec/models/index.json', () => {
  it('publishes each image model\'s request-body schema, without a key', async () => {
    const res = await fetch(`${gw.url}/spec/models/index.json`)
    expect(res.status).toBe(200)
    const index = (await res.json()) as { $schema: string; version: string; models: Record<string, { family: string; generations: object }> }
    expect(index.$schema).toBe('https://json-schema.org/draft/2020-12/schema')
    expect(index.models['img-gpt'].family).toBe('gpt-image')
    expect(index.models['img-seedream'].generations).toBeTypeOf('object')
    expect(Object.keys(index.models)).not.toContain('test-gpt')
  })
})

describe('group image limits (spec §4.2)', () => {
  it('a single-image group refuses n > 1; the official-direct group has no edits endpoint', async () => {
    const g = await startTestGateway({
      account: { balance: 10 },
      models: [
        IMG_GPT,
        { id: 'img-gemini', family: 'gemini-image', vendor: 'gemini', pricing: { unit: 'image', price: 0.05 }, imageSizes: ['1K', '2K'], maxNByTier: { '1K': 10, '2K': 5 }, maxReferenceImages: 14, aspectRatios: ['1:1', '16:9'] },
      ] as never,
      upstreams: [{ id: 'oa', vendor: 'openai', baseUrl: openaiFake.url, apiKey: 'oa' }, { id: 'gm', vendor: 'gemini', baseUrl: geminiFake.url, apiKey: 'gm' }],
      groups: [
        { id: 'single', protocol: 'chat', models: ['img-gpt'], upstreams: ['oa'], images: { singleImage: true } },
        { id: 'direct', protocol: 'chat', models: ['img-gemini'], upstreams: ['gm'], images: { officialDirect: true } },
      ],
      keys: [{ key: TEST_KEY, group: 'single' }, { key: 'sk-direct-0123456789', group: 'direct' }],
    })
    try {
      const many = await g.post('/v1/images/generations', { model: 'img-gpt', prompt: 'x', n: 2 })
      expect([many.status, ((await many.json()) as { error: { message: string } }).error.message]).toEqual([400, "This API key's group supports only one image per request: n must be 1 (got 2)."])
      expect((await g.post('/v1/images/generations', { model: 'img-gpt', prompt: 'x', n: 1 })).status).toBe(200)
      const direct = { authorization: 'Bearer sk-direct-0123456789' }
      const edit = await g.post('/v1/images/edits', { model: 'img-gemini', prompt: 'x', image: 'https://example.com/a.png' }, direct)
      expect([edit.status, ((await edit.json()) as { error: { code: string } }).error.code]).toEqual([404, 'route_not_found'])
      // References go in the generations body there, each at most 20 MiB decoded.
      const big = `data:image/png;base64,${Buffer.alloc(20 * 1024 * 1024 + 3).toString('base64')}`
      const tooBig = await g.post('/v1/images/generations', { model: 'img-gemini', prompt: 'x', image: big }, direct)
      expect(tooBig.status).toBe(400)
      expect(geminiFake.calls).toHaveLength(0)
    } finally {
      await g.stop()
    }
  })
})
