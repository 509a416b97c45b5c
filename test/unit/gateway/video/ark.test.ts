import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ark as seedance } from '../../../../electron/gateway/upstreams/video/ark.js'
import { startFakeArk } from '../../../fakes/video/ark.js'
import { FAKE_MP4, type FakeVideoServer } from '../../../fakes/video/task-script.js'
import { bodyOf, ctxFor, thrownBy, runTask, statesOf, submission } from './drive.js'

const MODEL = 'doubao-seedance-2-0-260128'
const ctx = ctxFor('ark', MODEL, 'https://ark.cn-beijing.volces.com/api/v3', 'ark-key')

describe('seedance toStart', () => {
  it('posts a content array with text first and the images in their Ark roles', () => {
    const spec = seedance.toStart(submission({
      model: MODEL,
      prompt: 'A kitten chases a butterfly',
      images: [
        { url: 'https://img.example/first.png', role: 'first_frame' },
        { url: 'data:image/png;base64,AAAA', role: 'last_frame' },
      ],
      duration: 5, resolution: '720p', aspect_ratio: '16:9', seed: 11,
    }), ctx, 0)
    expect(spec.method).toBe('POST')
    expect(spec.url).toBe('https://ark.cn-beijing.volces.com/api/v3/contents/generations/tasks')
    expect(spec.headers.authorization).toBe('Bearer ark-key')
    expect(bodyOf(spec)).toEqual({
      model: MODEL,
      content: [
        { type: 'text', text: 'A kitten chases a butterfly' },
        { type: 'image_url', image_url: { url: 'https://img.example/first.png' }, role: 'first_frame' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' }, role: 'last_frame' },
      ],
      resolution: '720p', ratio: '16:9', duration: 5, seed: 11,
    })
  })

  it('maps reference images to reference_image, forwards extra fields, and lets gateway fields win', () => {
    const body = bodyOf(seedance.toStart(submission({
      model: MODEL, prompt: 'p', duration: 6,
      images: [{ url: 'https://img.example/ref.png', role: 'reference' }],
      extra: { generate_audio: true, watermark: false, duration: 99 },
    }), ctx, 0))
    expect(body.content[1]).toEqual({ type: 'image_url', image_url: { url: 'https://img.example/ref.png' }, role: 'reference_image' })
    expect(body).toMatchObject({ generate_audio: true, watermark: false, duration: 6 })
    expect('seed' in body).toBe(false)
  })
})

describe('seedance fromStart / fromPoll / fromError', () => {
  it('reads the task id, and refuses an answer without one', () => {
    expect(seedance.fromStart({ id: 'cgt-1' }, submission({ model: MODEL }))).toBe('cgt-1')
    expect(thrownBy(() => seedance.fromStart({}, submission({ model: MODEL }))).status).toBe(502)
  })

  it.each([
    [{ status: 'queued' }, { state: 'queued', vendorState: 'queued' }],
    [{ status: 'running' }, { state: 'running', vendorState: 'running' }],
    [{ status: 'succeeded', content: { video_url: 'https://v/1.mp4' }, duration: 5 }, { state: 'succeeded', videoUrls: ['https://v/1.mp4'], seconds: 5, vendorState: 'succeeded' }],
    [{ status: 'succeeded', content: { video_url: 'https://v/1.mp4' }, frames: 121, framespersecond: 24 }, { state: 'succeeded', videoUrls: ['https://v/1.mp4'], seconds: 121 / 24, vendorState: 'succeeded' }],
    [{ status: 'failed', error: { code: 'OutputVideoSensitiveContentDetected', message: 'sensitive' } }, { state: 'failed', error: { code: 'OutputVideoSensitiveContentDetected', message: 'sensitive' }, vendorState: 'failed' }],
    [{ status: 'cancelled' }, { state: 'canceled', error: { code: 'canceled', message: expect.any(String) }, vendorState: 'cancelled' }],
    [{ status: 'expired' }, { state: 'failed', error: { code: 'expired', message: expect.any(String) }, vendorState: 'expired' }],
    [{ status: 'succeeded', content: {} }, { state: 'failed', error: { code: 'empty_output', message: expect.any(String) }, vendorState: 'succeeded' }],
    [{ status: 'paused_for_review' }, { state: 'running', vendorState: 'paused_for_review' }],
  ])('maps %j', (body, expected) => {
    expect(seedance.fromPoll(body)).toEqual(expected)
  })

  it.each([
    [429, 'RateLimitExceeded.EndpointRPMExceeded', true],
    [500, 'InternalServiceError', true],
    [400, 'InvalidParameter', false],
    [401, 'AuthenticationError', false],
  ])('keeps HTTP %i with the Ark code %s', (status, code, retryable) => {
    const err = seedance.fromError(status, JSON.stringify({ error: { code, message: `m ${code}`, param: '', type: 'X' } }))
    expect(err).toMatchObject({ status, code, retryable, message: `m ${code}` })
  })

  it('survives a body that is not JSON', () => {
    expect(seedance.fromError(502, '<html>bad gateway</html>')).toMatchObject({ status: 502, retryable: true })
  })
})

describe('seedance against the fake Ark', () => {
  let fake: FakeVideoServer
  let live: ReturnType<typeof ctxFor>
  beforeAll(async () => {
    fake = await startFakeArk()
    live = ctxFor('ark', MODEL, `${fake.url}/api/v3`, 'ark-test-key')
  })
  beforeEach(() => fake.reset())
  afterAll(() => fake.close())

  it('walks queued → running → succeeded and downloads the video', async () => {
    fake.script(['queued', 'running:30', 'running:80', 'succeeded'])
    const run = await runTask(seedance, live, submission({ model: MODEL, prompt: 'a cat', duration: 5 }))
    expect(statesOf(run)).toEqual(['queued', 'running', 'running', 'succeeded'])
    expect(run.final).toMatchObject({ state: 'succeeded', seconds: 5 })
    expect(run.download).toMatchObject({ status: 200, contentType: 'video/mp4' })
    expect(run.download!.bytes.equals(FAKE_MP4)).toBe(true)
    expect(fake.calls[0].body.content).toEqual([{ type: 'text', text: 'a cat' }])
  })

  it('reports a failed task with the Ark error code, and keeps unknown words running', async () => {
    fake.script(['queued', 'vendor-word:Weird', 'failed'])
    const run = await runTask(seedance, live, submission({ model: MODEL, prompt: 'a cat' }))
    expect(run.polls[1]).toEqual({ state: 'running', vendorState: 'Weird' })
    expect(run.final).toMatchObject({ state: 'failed', error: { code: 'OutputVideoSensitiveContentDetected' } })
  })

  it('turns a refused key into a 401 GatewayError', async () => {
    const bad = ctxFor('ark', MODEL, `${fake.url}/api/v3`, 'wrong')
    await expect(runTask(seedance, bad, submission({ model: MODEL, prompt: 'x' }))).rejects.toMatchObject({ status: 401, code: 'AuthenticationError' })
  })
})
