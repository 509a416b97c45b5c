// The gateway's copies of vendor links (shared/kept-copy.ts): each in one state, saving → kept, or failed (why, the
// link's expiry, the next try) → retrying → kept, read at GET /admin/v1/media-copies and retried at
// POST /admin/v1/media-copies/retry. Fake vendors whose result links fail, then recover.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { keepLinkedImage } from '../../electron/gateway/images/save-media.js'
import { copyTracker } from '../../electron/gateway/media/copy-tracker.js'
import { LINK_LIFETIME_MS } from '../../shared/kept-copy.js'
import { startFakeArkSeedream, type FakeArkSeedream } from '../fakes/images/ark-seedream.js'
import { startFakeKling } from '../fakes/video/kling.js'
import type { FakeVideoServer } from '../fakes/video/task-script.js'
import { startTestGateway, TEST_KEY, type TestGateway } from '../helpers/gateway.js'
import { adminClient } from './admin/admin-helpers.js'
import { IMG_SEEDREAM } from '../helpers/image-models.js'

const KLING = 'kling-v2-5-turbo'

let ark: FakeArkSeedream
let kling: FakeVideoServer
let gw: TestGateway
let admin: ReturnType<typeof adminClient>
beforeAll(async () => {
  ark = await startFakeArkSeedream({ apiKey: 'ark' })
  kling = await startFakeKling({ script: ['succeeded'] })
  gw = await startTestGateway({
    account: { balance: 100, concurrency: 5 },
    models: [IMG_SEEDREAM] as never,
    upstreams: [{ id: 'ark', vendor: 'ark', baseUrl: ark.url, apiKey: 'ark' }, { id: 'kling', vendor: 'kling', baseUrl: kling.url, apiKey: 'kling-ak:kling-sk' }],
    groups: [{ id: 'main', protocol: 'chat', models: ['img-seedream', KLING], upstreams: ['ark', 'kling'] }],
    keys: [{ key: TEST_KEY, group: 'main' }],
  }, undefined, { videoPoll: { intervalMs: 20, maxIntervalMs: 40, timeoutMs: 1_000, downloadAttempts: 2 } })
  admin = adminClient(gw)
})
afterAll(async () => {
  await gw?.stop()
  await ark?.close()
  await kling?.close()
})

type Copy = { state: string; attempts: number; reason?: { code: string; detail?: string }; retryAt?: number | null; linkExpiresAt: number | null; sourceUrl: string | null; media?: { url: string } }
const copies = async (request: string): Promise<Copy[]> => {
  const res = await admin.get(`/admin/v1/media-copies?request=${request}`)
  expect(res.status).toBe(200)
  return res.json as Copy[]
}
async function until(request: string, done: (c: Copy[]) => boolean, ms = 8_000): Promise<Copy[]> {
  const deadline = Date.now() + ms
  for (;;) {
    const now = await copies(request)
    if (done(now)) return now
    if (Date.now() > deadline) throw new Error(`copies of ${request} never got there: ${JSON.stringify(now)}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

describe('an image whose vendor link fails, then recovers', () => {
  it('failed with the reason and the next try, Retry makes it retrying, then kept with its media', async () => {
    ark.failDownloads(2)
    const before = Date.now()
    const res = await gw.post('/v1/images/generations', { model: 'img-seedream', prompt: 'a fox', size: '2K' })
    expect(res.status).toBe(200)
    const id = res.headers.get('x-request-id')!
    const url = ((await res.json()) as { data: Array<{ url: string }> }).data[0].url
    // The first try failed: 503, the next automatic try in 2 s, the link good for 24 h.
    const [failed] = await until(id, (c) => c[0]?.state === 'failed')
    expect(failed).toMatchObject({ state: 'failed', attempts: 1, sourceUrl: url, reason: { code: 'vendor_status', detail: '503' } })
    expect(failed.retryAt! - Date.now()).toBeGreaterThan(0)
    expect(failed.retryAt! - Date.now()).toBeLessThanOrEqual(2_000)
    expect(failed.linkExpiresAt! - before).toBeGreaterThanOrEqual(LINK_LIFETIME_MS)
    expect(failed.media).toBeUndefined()
    // The automatic retry fails too (the second 503); Retry then finds the vendor serving.
    const [second] = await until(id, (c) => c[0].state === 'failed' && c[0].attempts === 2, 5_000)
    expect(second.retryAt! - Date.now()).toBeGreaterThan(2_000)
    const retried = await admin.post(`/admin/v1/media-copies/retry?request=${id}&index=0`)
    expect(retried.status).toBe(200)
    expect((retried.json as Copy[])[0]).toMatchObject({ attempts: 3 })
    expect(['retrying', 'kept']).toContain((retried.json as Copy[])[0].state)
    const [kept] = await until(id, (c) => c[0].state === 'kept')
    expect(kept.reason).toBeUndefined()
    expect(kept.retryAt).toBeUndefined()
    const file = await fetch(`${gw.url}${kept.media!.url}`, { headers: { authorization: `Bearer ${gw.adminToken}` } })
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toBe('image/jpeg')
    // Kept is final: a second Retry finds nothing to retry.
    const again = await admin.post(`/admin/v1/media-copies/retry?request=${id}&index=0`)
    expect(again.status).toBe(404)
    expect(again.json.error.code).toBe('not_found')
  })

  it('given up after its tries: failed with no next try', async () => {
    const id = 'req_copy_given_up'
    // A link the fake vendor refuses (it asks for its key there): 401 at each of the two tries.
    const link = `${new URL(ark.url).origin}/no-such-file.jpeg`
    copyTracker(gw.services).start(id, 0, 'image', link, Date.now())
    await keepLinkedImage(gw.services, id, 0, link, [10], () => {})
    const [copy] = await copies(id)
    expect(copy).toMatchObject({ state: 'failed', attempts: 2, retryAt: null, reason: { code: 'vendor_status', detail: '401' } })
  })

  it('a request without linked images has no copies; a missing request parameter is a 400', async () => {
    expect(await copies('req_none')).toEqual([])
    const res = await admin.get('/admin/v1/media-copies')
    expect(res.status).toBe(400)
    expect(res.json.error.param).toBe('request')
  })
})

describe('a video whose copy fails, then recovers', () => {
  it('never stays saving: failed once its tries are spent, Retry keeps it', async () => {
    kling.switches.failFiles = 100
    const res = await gw.post('/v1/video/generate', { model: KLING, prompt: 'a boat', duration: 5, resolution: '720p' })
    expect(res.status).toBe(202)
    const id = ((await res.json()) as { task_id: string }).task_id
    const [failed] = await until(id, (c) => c[0]?.state === 'failed' && c[0].retryAt === null)
    expect(failed).toMatchObject({ state: 'failed', reason: { code: 'vendor_status', detail: '503' } })
    expect(failed.sourceUrl).toMatch(/\/files\/.+\.mp4$/)
    kling.switches.failFiles = 0
    const retried = await admin.post(`/admin/v1/media-copies/retry?request=${id}`)
    expect(retried.status).toBe(200)
    const [kept] = await until(id, (c) => c[0].state === 'kept')
    expect(kept.media!.url).toMatch(/^\/admin\/v1\/media\//)
    const view = (await (await fetch(`${gw.url}/v1/video/tasks/${id}`, { headers: { authorization: `Bearer ${TEST_KEY}` } })).json()) as { result: { videos: Array<{ content_url?: string }> } }
    expect(view.result.videos[0].content_url).toBe(`/v1/video/tasks/${id}/content`)
  })
})
