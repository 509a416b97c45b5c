import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { xai as grok } from '../../../../electron/gateway/upstreams/video/xai.js'
import { FAKE_MP4, type FakeVideoServer } from '../../../fakes/video/task-script.js'
import { startFakeXai } from '../../../fakes/video/xai.js'
import { bodyOf, ctxFor, thrownBy, runTask, statesOf, submission } from './drive.js'

const MODEL = 'grok-imagine-video'
const ctx = ctxFor('xai', MODEL, 'https://api.x.ai/v1', 'xai-key')

describe('grok requests', () => {
  it('creates with duration, aspect ratio, resolution and the first frame as image.url; no seed', () => {
    const spec = grok.toStart(submission({
      model: MODEL, prompt: 'A candle flickers', duration: 8, aspect_ratio: '16:9', resolution: '720p', seed: 1,
      images: [{ url: 'https://img.example/start.jpg', role: 'first_frame' }],
    }), ctx, 0)
    expect(spec.url).toBe('https://api.x.ai/v1/videos/generations')
    expect(spec.headers.authorization).toBe('Bearer xai-key')
    expect(bodyOf(spec)).toEqual({
      model: MODEL, prompt: 'A candle flickers', duration: 8, aspect_ratio: '16:9', resolution: '720p', image: { url: 'https://img.example/start.jpg' },
    })
    expect(grok.toPoll('req-1', ctx, 0)).toMatchObject({ method: 'GET', url: 'https://api.x.ai/v1/videos/req-1' })
  })

  it('refuses last-frame and reference images', () => {
    expect(thrownBy(() => grok.toStart(submission({ model: MODEL, images: [{ url: 'https://i/l.png', role: 'last_frame' }] }), ctx, 0)).status).toBe(400)
  })

  it('reads request_id', () => {
    expect(grok.fromStart({ request_id: '4b2c' }, submission({ model: MODEL }))).toBe('4b2c')
    expect(thrownBy(() => grok.fromStart({ id: 'x' }, submission({ model: MODEL }))).status).toBe(502)
  })
})

describe('grok statuses and errors', () => {
  it.each([
    [{ status: 'pending' }, { state: 'running', vendorState: 'pending' }],
    [{ status: 'pending', progress: 40 }, { state: 'running', progress: 40, vendorState: 'pending' }],
    [{ status: 'queued' }, { state: 'queued', vendorState: 'queued' }],
    [{ status: 'processing', progress: 140 }, { state: 'running', progress: 100, vendorState: 'processing' }],
    [{ request_id: '4b2c' }, { state: 'running', vendorState: 'pending' }],
    [{ status: 'done', video: { url: 'https://vidgen.x.ai/v.mp4', duration: 6, respect_moderation: true } },
      { state: 'succeeded', videoUrls: ['https://vidgen.x.ai/v.mp4'], seconds: 6, vendorState: 'done' }],
    [{ status: 'done', video: { duration: 6, respect_moderation: false } }, { state: 'failed', error: { code: 'empty_output', message: expect.any(String) }, vendorState: 'done' }],
    [{ status: 'failed', error: { code: 'internal_error', message: 'boom' } }, { state: 'failed', error: { code: 'internal_error', message: 'boom' }, vendorState: 'failed' }],
    [{ status: 'expired' }, { state: 'failed', error: { code: 'expired', message: expect.any(String) }, vendorState: 'expired' }],
    [{ status: 'moderating' }, { state: 'running', vendorState: 'moderating' }],
  ])('maps %j', (body, expected) => {
    expect(grok.fromPoll(body)).toEqual(expected)
  })

  it('reads the flat error body; a bad key (HTTP 400) becomes 401', () => {
    expect(grok.fromError(429, JSON.stringify({ code: 'Some resource has been exhausted', error: 'Too many requests' })))
      .toMatchObject({ status: 429, code: 'Some resource has been exhausted', message: 'Too many requests', retryable: true })
    expect(grok.fromError(400, JSON.stringify({ code: 'Client specified an invalid argument', error: 'Incorrect API key provided: xa***QW.' })))
      .toMatchObject({ status: 401, retryable: false })
    expect(grok.fromError(400, JSON.stringify({ code: 'Client specified an invalid argument', error: 'duration must be between 1 and 15' })))
      .toMatchObject({ status: 400 })
    expect(grok.fromError(500, JSON.stringify({ error: { message: 'nested', code: 'server_error' } }))).toMatchObject({ status: 500, code: 'server_error' })
  })
})

describe('grok against the fake xAI', () => {
  let fake: FakeVideoServer
  let live: ReturnType<typeof ctxFor>
  beforeAll(async () => {
    fake = await startFakeXai()
    live = ctxFor('xai', MODEL, `${fake.url}/v1`, 'xai-test-key')
  })
  beforeEach(() => fake.reset())
  afterAll(() => fake.close())

  it('walks pending → done with progress and downloads the video', async () => {
    fake.script(['queued', 'running:30', 'running:80', 'succeeded'])
    const run = await runTask(grok, live, submission({ model: MODEL, prompt: 'a candle', duration: 6 }))
    expect(statesOf(run)).toEqual(['running', 'running', 'running', 'succeeded'])
    expect(run.polls.map((p) => ('progress' in p ? p.progress : undefined))).toEqual([undefined, 30, 80, undefined])
    expect(run.final).toMatchObject({ seconds: 6 })
    expect(run.download!.bytes.equals(FAKE_MP4)).toBe(true)
  })

  it('reports a failed job with its error code, and an expired one', async () => {
    fake.script(['queued', 'failed'])
    expect((await runTask(grok, live, submission({ model: MODEL, prompt: 'x' }))).final).toMatchObject({ state: 'failed', error: { code: 'internal_error' } })
    fake.script(['expired'])
    expect((await runTask(grok, live, submission({ model: MODEL, prompt: 'x' }))).final).toMatchObject({ state: 'failed', error: { code: 'expired' } })
  })

  it('a refused key fails over as 401', async () => {
    await expect(runTask(grok, ctxFor('xai', MODEL, `${fake.url}/v1`, 'nope'), submission({ model: MODEL, prompt: 'x' }))).rejects.toMatchObject({ status: 401 })
  })
})
