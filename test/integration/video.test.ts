// POST /v1/video/generate and GET /v1/video/tasks/*: normalized statuses through each vendor's script, the money
// (reservation, settlement by produced seconds, release), the duplicate guard, and the saved copy of the video.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { GatewayConfig } from '../../electron/gateway/config/load-config.js'
import type { RunningGateway } from '../../electron/gateway/gateway.js'
import { pollVideoTask } from '../../electron/gateway/tasks/video-poller.js'
import { DEFAULT_VIDEO_POLL, type VideoPollOptions } from '../../electron/gateway/tasks/video-runtime.js'
import { videoGenerateRequest } from '../../shared/schemas/video.js'
import { startFakeArk } from '../fakes/video/ark.js'
import { startFakeKling } from '../fakes/video/kling.js'
import { startFakeMiniMax } from '../fakes/video/minimax.js'
import { FAKE_MP4, type FakeVideoServer } from '../fakes/video/task-script.js'
import { startFakeXai } from '../fakes/video/xai.js'
import { startGatewayOnTestStore, TEST_KEY, tempDataDir } from '../helpers/gateway.js'
import { storedMediaPaths } from '../helpers/stored-media.js'
import { until as waitUntil } from '../helpers/until.js'

const SEEDANCE = 'doubao-seedance-2-0-260128'
const KLING = 'kling-v2-5-turbo'
const HAILUO = 'MiniMax-Hailuo-02'
const H3 = 'MiniMax-H3'
const GROK = 'grok-imagine-video'
const QUOTA_KEY = 'sk-quota-0123456789abcdef'
const SLOT_KEY = 'sk-oneslot-0123456789abcdef'

type Fakes = Record<'ark' | 'kling' | 'minimax' | 'xai', FakeVideoServer>
let fakes: Fakes
let manual: Gw // poller off: tests step each poll
let auto: Gw // poller on, fast

interface Gw extends RunningGateway {
  post(path: string, body: unknown, headers?: Record<string, string>, key?: string): Promise<Response>
  get(path: string, key?: string, headers?: Record<string, string>): Promise<Response>
  poll(id: string): ReturnType<typeof pollVideoTask>
  task(id: string): Promise<Record<string, any>>
  usage(): Promise<{ balance: number; reserved: number; key: { used: number } }>
  stop(): Promise<void>
}

function config(): GatewayConfig {
  return {
    account: { balance: 100, concurrency: 10 },
    upstreams: [
      { id: 'ark', vendor: 'ark', baseUrl: `${fakes.ark.url}/api/v3`, apiKey: 'ark-test-key' },
      { id: 'kling', vendor: 'kling', baseUrl: fakes.kling.url, apiKey: 'kling-ak:kling-sk' },
      { id: 'minimax', vendor: 'minimax', baseUrl: fakes.minimax.url, apiKey: 'minimax-test-key' },
      { id: 'xai', vendor: 'xai', baseUrl: `${fakes.xai.url}/v1`, apiKey: 'xai-test-key' },
    ],
    groups: [{ id: 'video', protocol: 'chat', models: [SEEDANCE, KLING, HAILUO, H3, GROK], upstreams: ['ark', 'kling', 'minimax', 'xai'] }],
    keys: [
      { key: TEST_KEY, group: 'video' },
      { key: QUOTA_KEY, group: 'video', quota: 0.5 },
      { key: SLOT_KEY, group: 'video', concurrency: 1 },
    ],
    // The fakes' video links are on 127.0.0.1.
    network: { allowPrivateAddresses: true },
  }
}

async function start(videoPoll: Partial<VideoPollOptions>): Promise<Gw> {
  const data = tempDataDir()
  const gw = await startGatewayOnTestStore({ dataDir: data.dir, config: config(), port: 0, log: () => {}, videoPoll })
  const opts = { ...DEFAULT_VIDEO_POLL, ...videoPoll }
  const auth = (key = TEST_KEY) => ({ authorization: `Bearer ${key}` })
  const get = (path: string, key?: string, headers: Record<string, string> = {}) => fetch(`${gw.url}${path}`, { headers: { ...auth(key), ...headers } })
  return {
    ...gw,
    post: (path, body, headers = {}, key) => fetch(`${gw.url}${path}`, { method: 'POST', headers: { ...auth(key), 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }),
    get,
    poll: (id) => pollVideoTask(gw.services, id, opts),
    task: async (id) => (await (await get(`/v1/video/tasks/${id}`)).json()) as Record<string, any>,
    usage: async () => (await (await get('/v1/usage')).json()) as never,
    async stop() {
      await gw.close(1_000)
      data.remove()
    },
  }
}

beforeAll(async () => {
  fakes = { ark: await startFakeArk(), kling: await startFakeKling(), minimax: await startFakeMiniMax(), xai: await startFakeXai() }
  manual = await start({ enabled: false, timeoutMs: 300 })
  auto = await start({ intervalMs: 15, maxIntervalMs: 40, timeoutMs: 300 })
})
afterAll(async () => {
  await Promise.all([manual?.stop(), auto?.stop()])
  await Promise.all(Object.values(fakes).map((f) => f.close()))
})
beforeEach(() => {
  for (const fake of Object.values(fakes)) fake.reset()
})

const creates = (fake: FakeVideoServer) => fake.calls.filter((c) => c.method === 'POST')

async function submit(gw: Gw, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, any> }> {
  const res = await gw.post('/v1/video/generate', body, headers)
  return { status: res.status, body: (await res.json()) as Record<string, any> }
}

/** Waits until the task view satisfies `done` (the background poller is at work). */
async function until(gw: Gw, id: string, done: (task: Record<string, any>) => boolean, ms = 5_000): Promise<Record<string, any>> {
  const deadline = Date.now() + ms
  for (;;) {
    const task = await gw.task(id)
    if (done(task)) return task
    if (Date.now() > deadline) throw new Error(`task ${id} never got there: ${JSON.stringify(task)}`)
    await new Promise((r) => setTimeout(r, 15))
  }
}

const nano = (gw: Gw) => gw.services.store.account.get()
const ledgerRows = (gw: Gw, id: string) => gw.services.store.sql.all<{ cost_nano: number; status: number; error_code: string | null; usage_source: string | null; breakdown: string | null }>('SELECT * FROM requests WHERE id = ?', [id])

describe('normalized statuses through each vendor\'s script', () => {
  it.each([
    ['Seedance (Ark)', 'ark', { model: SEEDANCE, prompt: 'a fox', duration: 5, resolution: '720p' },
      ['queued', 'vendor-word:paused', 'running', 'succeeded'],
      [['queued', null, 'queued'], ['running', null, 'paused'], ['running', null, 'running'], ['succeeded', 100, 'succeeded']]],
    ['Kling', 'kling', { model: KLING, prompt: 'a fox', duration: 5, resolution: '720p' },
      ['queued', 'running', 'vendor-word:reviewing', 'succeeded'],
      [['queued', null, 'submitted'], ['running', null, 'processing'], ['running', null, 'reviewing'], ['succeeded', 100, 'succeed']]],
    ['Hailuo v1 (file step)', 'minimax', { model: HAILUO, prompt: 'a fox', duration: 6, resolution: '768p' },
      ['queued', 'running', 'vendor-word:Rendering', 'succeeded'],
      [['queued', null, 'Queueing'], ['running', null, 'Processing'], ['running', null, 'Rendering'], ['succeeded', 100, 'Success']]],
    ['Hailuo H3 (v2)', 'minimax', { model: H3, prompt: 'a fox', duration: 6, resolution: '768p' },
      ['queued', 'vendor-word:moderating', 'succeeded'],
      [['queued', null, 'queued'], ['running', null, 'moderating'], ['succeeded', 100, 'succeeded']]],
    ['Grok (progress)', 'xai', { model: GROK, prompt: 'a fox', duration: 6, resolution: '480p' },
      ['queued', 'running:40', 'vendor-word:warming', 'succeeded'],
      [['running', null, 'pending'], ['running', 40, 'pending'], ['running', 40, 'warming'], ['succeeded', 100, 'done']]],
  ] as const)('%s', async (_name, vendor, body, script, expected) => {
    fakes[vendor].script([...script])
    const accepted = await submit(manual, body)
    expect(accepted.status).toBe(202)
    expect(accepted.body).toMatchObject({ object: 'video.task', status: 'queued', vendor_status: null, idempotent_replay: false, status_url: `/v1/video/tasks/${accepted.body.task_id}` })
    const seen: unknown[] = []
    for (let i = 0; i < expected.length; i++) {
      await manual.poll(accepted.body.task_id)
      const task = await manual.task(accepted.body.task_id)
      seen.push([task.status, task.progress, task.vendor_status])
    }
    expect(seen).toEqual(expected)
    const final = await manual.task(accepted.body.task_id)
    expect(final.result.videos[0].url).toMatch(/\/files\/.+\.mp4$/)
    expect(final.usage.seconds).toBe(body.duration)
  })
})

describe('money: reservation, settlement by produced seconds, release', () => {
  it('reserves the largest cost at once, settles the seconds produced, releases the rest (Grok, no duration asked)', async () => {
    const before = (await nano(auto))
    fakes.xai.script(['queued', 'running', 'running', 'succeeded'])
    const { status, body } = await submit(auto, { model: GROK, prompt: 'a fox', resolution: '720p' })
    expect(status).toBe(202)
    // 15 s (the model's longest clip) × $0.07 at 720p
    expect(body.reserved).toBe(1.05)
    const usage = await auto.usage()
    expect(usage.reserved).toBe(1.05)
    expect((await nano(auto)).reserved_nano - before.reserved_nano).toBe(1_050_000_000)
    const task = await until(auto, body.task_id, (t) => t.status === 'succeeded')
    // The fake made its default 8 s clip: 8 × 0.07 billed, the reservation released whole.
    expect(task.usage).toEqual({ seconds: 8, cost: 0.56 })
    expect(task.reserved).toBe(0)
    expect((await nano(auto)).balance_nano).toBe(before.balance_nano - 560_000_000)
    expect((await nano(auto)).reserved_nano).toBe(before.reserved_nano)
    expect((await auto.usage()).reserved).toBe(before.reserved_nano / 1e9)
    expect((await ledgerRows(auto, body.task_id))).toEqual([expect.objectContaining({ cost_nano: 560_000_000, status: 200 })])
    // The seconds are the vendor's; the row keeps its priced breakdown (docs/vendor-usage.md).
    expect((await ledgerRows(auto, body.task_id))).toEqual([expect.objectContaining({
      usage_source: 'upstream', breakdown: JSON.stringify([{ kind: 'seconds', units: 8, unitPrice: 0.07, per: 'second', cost: 0.56 }]),
    })])
  })

  it('a vendor that reports no seconds is billed for the requested duration, as reserved (Hailuo v1: usage_source reserved)', async () => {
    fakes.minimax.script(['queued', 'running', 'succeeded'])
    const { status, body } = await submit(auto, { model: HAILUO, prompt: 'a fox', duration: 6, resolution: '768p' })
    expect(status).toBe(202)
    const task = await until(auto, body.task_id, (t) => t.status === 'succeeded')
    // 6 s × $0.0467 at 768p
    expect(task.usage).toEqual({ seconds: 6, cost: 0.2802 })
    expect((await ledgerRows(auto, body.task_id))).toEqual([expect.objectContaining({
      cost_nano: 280_200_000, status: 200, usage_source: 'reserved',
      breakdown: JSON.stringify([{ kind: 'seconds', units: 6, unitPrice: 0.0467, per: 'second', cost: 0.2802 }]),
    })])
  })

  it('with no tier asked, reserves at the dearest tier and bills the catalog price; a longer clip than asked is not billed', async () => {
    const before = (await nano(auto))
    const seedance = await submit(auto, { model: SEEDANCE, prompt: 'a fox' })
    expect(seedance.body.reserved).toBe(4.7235) // 15 s × $0.3149 (1080p)
    const kling = await submit(auto, { model: KLING, prompt: 'a fox', duration: 5, resolution: '720p' })
    expect(kling.body.reserved).toBe(0.21) // 5 s × $0.042
    expect((await nano(auto)).reserved_nano - before.reserved_nano).toBe(4_723_500_000 + 210_000_000)
    const a = await until(auto, seedance.body.task_id, (t) => t.status === 'succeeded')
    const b = await until(auto, kling.body.task_id, (t) => t.status === 'succeeded')
    expect(a.usage).toEqual({ seconds: 5, cost: 0.6995 }) // Ark's default 5 s at the catalog price
    expect(b.result.seconds).toBe(5.1) // Kling reports 5.1 s for a 5 s clip …
    expect(b.usage).toEqual({ seconds: 5, cost: 0.21 }) // … and 5 s are billed
    expect((await nano(auto)).balance_nano).toBe(before.balance_nano - 699_500_000 - 210_000_000)
    expect((await nano(auto)).reserved_nano).toBe(before.reserved_nano)
  })

  it.each([
    ['failed', ['queued', 'failed'], 'failed', 'OutputVideoSensitiveContentDetected', 502],
    ['canceled', ['queued', 'canceled'], 'canceled', 'canceled', 499],
  ])('a %s task is not billed and its reservation is released', async (_name, script, status, code, ledgerStatus) => {
    const before = (await nano(manual))
    fakes.ark.script(script)
    const { body } = await submit(manual, { model: SEEDANCE, prompt: 'a fox', duration: 4, resolution: '480p' })
    expect((await manual.usage()).reserved).toBe((before.reserved_nano + 252_000_000) / 1e9) // 4 × 0.063
    expect(await manual.poll(body.task_id)).toBe('pending')
    expect(await manual.poll(body.task_id)).toBe('settled')
    const task = await manual.task(body.task_id)
    expect(task).toMatchObject({ status, reserved: 0, error: { code } })
    expect(task.usage).toBeUndefined()
    expect((await nano(manual))).toMatchObject({ balance_nano: before.balance_nano, reserved_nano: before.reserved_nano })
    expect((await manual.usage()).reserved).toBe(before.reserved_nano / 1e9)
    expect((await ledgerRows(manual, body.task_id))).toEqual([expect.objectContaining({ cost_nano: 0, status: ledgerStatus, error_code: code })])
    expect(await manual.poll(body.task_id)).toBe('idle') // ended: nothing more to do
  })

  it('402 insufficient_quota when the key\'s quota cannot cover the reservation, before any upstream call', async () => {
    const res = await manual.post('/v1/video/generate', { model: GROK, prompt: 'a fox', duration: 10, resolution: '720p' }, {}, QUOTA_KEY)
    expect(res.status).toBe(402)
    expect(await res.json()).toEqual({ error: { code: 'insufficient_quota', type: 'insufficient_quota', param: null, message: expect.stringContaining('0.7000 USD') } })
    expect(fakes.xai.calls).toHaveLength(0)
    const fits = await manual.post('/v1/video/generate', { model: GROK, prompt: 'a fox', duration: 5, resolution: '480p' }, {}, QUOTA_KEY)
    expect(fits.status).toBe(202) // 0.25 ≤ 0.5
    // The key's own reservation counts: 0.25 held, 0.25 left, 0.35 does not fit.
    const second = await manual.post('/v1/video/generate', { model: GROK, prompt: 'another fox', duration: 5, resolution: '720p' }, {}, QUOTA_KEY)
    expect(second.status).toBe(402)
    expect(creates(fakes.xai)).toHaveLength(1)
  })

  it('400 before anything is held for values outside the model\'s catalog lists', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ model: KLING, prompt: 'x', duration: 7 }, 'duration'],
      [{ model: SEEDANCE, prompt: 'x', resolution: '4k' }, 'resolution'],
      [{ model: HAILUO, prompt: 'x', duration: 10, resolution: '1080p' }, 'duration'],
      [{ model: SEEDANCE }, 'prompt'],
      [{ model: SEEDANCE, prompt: 'x', first_frame: 'ftp://nope' }, 'images'],
      [{ model: GROK, prompt: 'x', last_frame: 'https://i/l.png', first_frame: 'https://i/f.png' }, 'images'],
    ]
    for (const [body, param] of cases) {
      const res = await manual.post('/v1/video/generate', body)
      expect([res.status, ((await res.json()) as { error: { param: string } }).error.param], JSON.stringify(body)).toEqual([400, param])
    }
    expect(Object.values(fakes).flatMap((f) => f.calls)).toHaveLength(0)
  })
})

describe('the duplicate guard (spec §7 rule 5)', () => {
  it('the same body twice from the same key is one task and one reservation; another body is another task', async () => {
    const body = { model: GROK, prompt: 'a fox', duration: 5, resolution: '480p', watermark: false }
    const before = (await nano(manual)).reserved_nano
    const first = await submit(manual, body)
    const again = await submit(manual, { resolution: '480P', watermark: false, duration: 5, prompt: 'a fox', model: GROK })
    expect([first.status, again.status]).toEqual([202, 200])
    expect(again.body).toMatchObject({ task_id: first.body.task_id, idempotent_replay: true })
    expect(creates(fakes.xai)).toHaveLength(1)
    expect(creates(fakes.xai)[0].body).toMatchObject({ watermark: false, duration: 5, resolution: '480p' })
    expect((await nano(manual)).reserved_nano - before).toBe(250_000_000)
    const other = await submit(manual, { ...body, seed: 2 })
    expect(other.status).toBe(202)
    expect(other.body.task_id).not.toBe(first.body.task_id)
    // After a failure the same body is a new, genuine attempt.
    fakes.xai.script(['failed'])
    const failing = await submit(manual, { model: GROK, prompt: 'doomed', duration: 1 })
    await manual.poll(failing.body.task_id)
    const retry = await submit(manual, { model: GROK, prompt: 'doomed', duration: 1 })
    expect([retry.status, retry.body.task_id === failing.body.task_id]).toEqual([202, false])
  })

  it('Idempotency-Key: the same key answers its task, a different body with it is 422, a new key is a new task', async () => {
    const body = { model: GROK, prompt: 'keyed fox', duration: 2 }
    const first = await submit(manual, body, { 'idempotency-key': 'order-17' })
    const replay = await manual.post('/v1/video/generate', body, { 'idempotency-key': 'order-17' })
    expect(replay.status).toBe(200)
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    expect(await replay.json()).toMatchObject({ task_id: first.body.task_id, idempotent_replay: true })
    const conflict = await manual.post('/v1/video/generate', { ...body, duration: 3 }, { 'idempotency-key': 'order-17' })
    expect(conflict.status).toBe(422)
    expect(((await conflict.json()) as { error: { code: string } }).error.code).toBe('idempotency_key_reused')
    const fresh = await submit(manual, body, { 'idempotency-key': 'order-18' })
    expect([fresh.status, fresh.body.task_id === first.body.task_id]).toEqual([202, false])
    expect((await manual.post('/v1/video/generate', body, { 'idempotency-key': 'has space' })).status).toBe(400)
    expect(creates(fakes.xai)).toHaveLength(2)
  })
})

describe('the saved copy', () => {
  it('keeps the finished video and serves it after the vendor link is gone', async () => {
    fakes.ark.script(['succeeded'])
    const { body } = await submit(manual, { model: SEEDANCE, prompt: 'keep me', duration: 4, resolution: '480p' })
    const notYet = await manual.get(`/v1/video/tasks/${body.task_id}/content`)
    expect([notYet.status, ((await notYet.json()) as { error: { code: string } }).error.code]).toEqual([404, 'video_content_not_available'])
    expect(await manual.poll(body.task_id)).toBe('settled')
    expect(await manual.poll(body.task_id)).toBe('saved')
    const task = await manual.task(body.task_id)
    expect(task.result.videos[0]).toEqual({ url: expect.stringContaining('/files/'), content_url: `/v1/video/tasks/${body.task_id}/content`, mime_type: 'video/mp4' })
    // Kept where the store keeps media: the data dir, or the database in team mode.
    expect(await storedMediaPaths(manual)).toContain(`media/videos/${body.task_id}-0.mp4`)
    fakes.ark.reset() // the vendor link now answers 404
    expect((await fetch(task.result.videos[0].url)).status).toBe(404)
    const res = await manual.get(task.result.videos[0].content_url)
    expect([res.status, res.headers.get('content-type'), res.headers.get('content-security-policy'), res.headers.get('x-content-type-options'), res.headers.get('content-disposition')])
      .toEqual([200, 'video/mp4', 'sandbox', 'nosniff', null])
    expect(Buffer.from(await res.arrayBuffer())).toEqual(FAKE_MP4)
    const part = await manual.get(task.result.videos[0].content_url, TEST_KEY, { range: 'bytes=4-11' })
    expect([part.status, part.headers.get('content-range')]).toEqual([206, `bytes 4-11/${FAKE_MP4.length}`])
    expect(Buffer.from(await part.arrayBuffer()).toString()).toBe('ftypmp42')
    expect((await manual.get(task.result.videos[0].content_url, QUOTA_KEY)).status).toBe(404) // key-scoped
  })
})

describe('concurrency and the documents', () => {
  it('a submission holds a concurrency slot, polling does not', async () => {
    const { body } = await submit(manual, { model: GROK, prompt: 'slot fox', duration: 1 })
    fakes.xai.switches.slow = 300
    const slow = manual.post('/v1/video/generate', { model: GROK, prompt: 'slow fox', duration: 1 }, {}, SLOT_KEY)
    // The slot is held from admission until the vendor answers (300 ms later): ask again once the vendor has the call.
    await waitUntil('the slow submission reached the vendor', 5_000, () => fakes.xai.calls.some((c) => JSON.stringify(c.body).includes('slow fox')))
    const blocked = await manual.post('/v1/video/generate', { model: GROK, prompt: 'other fox', duration: 1 }, {}, SLOT_KEY)
    expect([blocked.status, ((await blocked.json()) as { error: { code: string } }).error.code]).toEqual([429, 'apikey_concurrency_limit'])
    // While its only slot is taken, the key still polls (404: the task is another key's, not 429) and reads its usage.
    expect((await manual.get(`/v1/video/tasks/${body.task_id}`, SLOT_KEY)).status).toBe(404)
    expect((await manual.get('/v1/usage', SLOT_KEY)).status).toBe(200)
    const created = (await (await slow).json()) as { task_id: string }
    expect((await manual.get(`/v1/video/tasks/${created.task_id}`, SLOT_KEY)).status).toBe(200)
  })

  it('/openapi.json documents the submission and the polling endpoints', async () => {
    const doc = (await (await fetch(`${manual.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, any>> }
    expect(doc.paths['/v1/video/generate'].post.requestBody.content['application/json'].schema).toEqual(JSON.parse(JSON.stringify(videoGenerateRequest)))
    expect(doc.paths['/v1/video/generate'].post.description).toContain('202')
    expect(doc.paths['/v1/video/tasks/{task_id}'].get.responses['200'].content['application/json'].schema.properties.status.enum)
      .toEqual(['queued', 'running', 'succeeded', 'failed', 'canceled'])
    expect(doc.paths['/v1/video/tasks/{task_id}/content'].get).toBeDefined()
    expect(doc.paths['/api/v1/services/aigc/video-generation/video-synthesis'].post).toBeDefined()
    expect(doc.paths['/api/v1/tasks/{task_id}'].get).toBeDefined()
  })
})
