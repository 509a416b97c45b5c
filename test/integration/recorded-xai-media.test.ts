// Real recorded xAI image and video answers (test/fixtures/recorded/xai/, INDEX.md there: RubyLLM's cassettes of
// grok-imagine-image and grok-imagine-video) replayed through the gateway's xAI image and video adapters. Both answers
// carry xAI's own cost (`usage.cost_in_usd_ticks`, 1e10 ticks a dollar), which the bill at the built-in catalog row's
// price must equal. Their result links are on xAI's hosts: a fake resolver points those names at 127.0.0.1, which the
// link guard refuses, so no test reaches the network and the copies are simply not kept.
import { describe, expect, it } from 'vitest'
import { loadBuiltinModels } from '../../electron/gateway/catalog/catalog.js'
import { pollVideoTask } from '../../electron/gateway/tasks/video-poller.js'
import { DEFAULT_VIDEO_POLL } from '../../electron/gateway/tasks/video-runtime.js'
import { recordedBytes, startReplayUpstream } from '../fakes/replay.js'
import { fakeResolver } from '../helpers/fake-resolver.js'
import { TEST_KEY, withGateway } from '../helpers/gateway.js'
import { nextLedgerRow } from '../helpers/recorded.js'

const IMAGE = 'grok-imagine-image'
const VIDEO = 'grok-imagine-video'
const POLL = { ...DEFAULT_VIDEO_POLL, enabled: false }

const { gw, fakes } = withGateway({
  fakes: { replay: startReplayUpstream },
  resetFakes: true,
  config: ({ replay }) => ({
    account: { balance: 100, concurrency: 5 },
    upstreams: [{ id: 'recorded', vendor: 'xai', baseUrl: `${replay.url}/v1`, apiKey: 'recorded-xai-secret' }],
    groups: [{ id: 'media', protocol: 'chat', models: [IMAGE, VIDEO], upstreams: ['recorded'] }],
    keys: [{ key: TEST_KEY, group: 'media' }],
  }),
  // The poller is off: the test polls the task one step at a time.
  options: { videoPoll: { enabled: false }, resolveLinkHost: fakeResolver({ 'imgen.x.ai': ['127.0.0.1'], 'vidgen.x.ai': ['127.0.0.1'] }) },
})

const recorded = <T>(file: string) => JSON.parse(recordedBytes(`xai/${file}`).toString('utf8')) as T
/** xAI's own cost of a recorded answer in nano-USD: 10 ticks are one nano-USD. */
const vendorCostNano = (answer: { usage: { cost_in_usd_ticks: number } }) => answer.usage.cost_in_usd_ticks / 10

function catalogPricing(id: string) {
  const pricing = loadBuiltinModels().find((m) => m.id === id)?.pricing
  if (!pricing) throw new Error(`the catalog has no row for ${id}`)
  return pricing
}

describe('recorded xAI images (grok-imagine-image)', () => {
  it('a generation answered with a link: the link and its type as recorded; billed one image at the catalog price, which is xAI\'s own cost', async () => {
    const file = 'ruby-llm-grok-imagine-image.json'
    const answer = recorded<{ data: Array<{ url: string; mime_type: string }>; usage: { cost_in_usd_ticks: number } }>(file)
    fakes.replay.serve({ file: `xai/${file}` })
    const row = await nextLedgerRow(gw)
    const res = await gw.post('/v1/images/generations', { model: IMAGE, prompt: 'a siamese cat' })
    expect(res.status).toBe(200)
    const body = (await res.json()) as { data: Array<{ url: string; mime_type: string }> }
    expect(body.data).toHaveLength(1)
    expect(body.data[0]).toMatchObject({ url: answer.data[0]!.url, mime_type: 'image/jpeg' })

    expect(fakes.replay.calls).toHaveLength(1)
    expect(fakes.replay.calls[0]).toMatchObject({ method: 'POST', path: '/v1/images/generations' })
    expect(fakes.replay.calls[0]!.headers.authorization).toBe('Bearer recorded-xai-secret')
    expect(JSON.parse(fakes.replay.calls[0]!.body)).toMatchObject({ model: IMAGE, prompt: 'a siamese cat' })

    const pricing = catalogPricing(IMAGE)
    expect(pricing.unit).toBe('image')
    const cost = Math.round(1 * (pricing as { price: number }).price * 1e9)
    expect(cost).toBe(vendorCostNano(answer))
    expect(await row()).toMatchObject({ endpoint: 'images.generations', status: 200, usage_source: 'upstream', cost_nano: cost })
  })
})

describe('recorded xAI video (grok-imagine-video)', () => {
  it('created, polled through HTTP 202 "pending" answers with their progress, done: the link and the recorded second, billed at the 480p rate, which is xAI\'s own cost', async () => {
    const done = recorded<{ video: { url: string; duration: number }; usage: { cost_in_usd_ticks: number } }>('ruby-llm-grok-imagine-video-done.json')
    fakes.replay.serve([
      { file: 'xai/ruby-llm-grok-imagine-video-create.json' },
      { file: 'xai/ruby-llm-grok-imagine-video-pending.json', status: 202 },
      { file: 'xai/ruby-llm-grok-imagine-video-pending-94.json', status: 202 },
      { file: 'xai/ruby-llm-grok-imagine-video-done.json' },
    ])
    const res = await gw.post('/v1/video/generate', { model: VIDEO, prompt: 'a calm ocean wave at sunset', duration: 1, resolution: '480p' })
    expect(res.status).toBe(202)
    const accepted = (await res.json()) as { task_id: string }
    const vendorId = recorded<{ request_id: string }>('ruby-llm-grok-imagine-video-create.json').request_id
    expect(fakes.replay.calls[0]).toMatchObject({ method: 'POST', path: '/v1/videos/generations' })
    expect(JSON.parse(fakes.replay.calls[0]!.body)).toMatchObject({ model: VIDEO, prompt: 'a calm ocean wave at sunset', duration: 1, resolution: '480p' })

    const task = async () => (await (await gw.get(`/v1/video/tasks/${accepted.task_id}`)).json()) as Record<string, any>
    expect(await pollVideoTask(gw.services, accepted.task_id, POLL)).toBe('pending')
    expect(await task()).toMatchObject({ status: 'running', progress: 1, vendor_status: 'pending' })
    expect(await pollVideoTask(gw.services, accepted.task_id, POLL)).toBe('pending')
    expect(await task()).toMatchObject({ status: 'running', progress: 94, vendor_status: 'pending' })
    expect(await pollVideoTask(gw.services, accepted.task_id, POLL)).toBe('settled')
    const final = await task()
    expect(final).toMatchObject({ status: 'succeeded', progress: 100, vendor_status: 'done' })
    expect(final.result.videos[0].url).toBe(done.video.url)

    expect(fakes.replay.calls.slice(1).map((c) => [c.method, c.path])).toEqual(Array(3).fill(['GET', `/v1/videos/${vendorId}`]))
    const pricing = catalogPricing(VIDEO) as { byResolution: Record<string, number> }
    const cost = Math.round(done.video.duration * pricing.byResolution['480p']! * 1e9)
    expect(cost).toBe(vendorCostNano(done))
    expect(final.usage).toEqual({ seconds: done.video.duration, cost: cost / 1e9 })
    const rows = await gw.services.store.sql.all<{ cost_nano: number; status: number; usage_source: string | null }>('SELECT cost_nano, status, usage_source FROM requests WHERE id = ?', [accepted.task_id])
    expect(rows).toEqual([{ cost_nano: cost, status: 200, usage_source: 'upstream' }])
  })
})
