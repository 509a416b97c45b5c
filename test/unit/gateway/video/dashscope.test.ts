import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { dashscope as wan } from '../../../../electron/gateway/upstreams/video/dashscope.js'
import { startFakeDashScope } from '../../../fakes/video/dashscope.js'
import { answer, FAKE_MP4, type FakeVideoServer } from '../../../fakes/video/task-script.js'
import { bodyOf, ctxFor, thrownBy, runTask, send, statesOf, submission } from './drive.js'

const T2V = 'wan2.7-t2v'
const I2V = 'wan2.7-i2v'
const HH = 'happyhorse-1.0-i2v'
const ctx = (model = T2V, baseUrl = 'https://dashscope-intl.aliyuncs.com') => ctxFor('dashscope', model, baseUrl, 'sk-ds')

describe('wan toStart', () => {
  it('text-to-video: async header, input.prompt, upper-case resolution with ratio; unknown fields go to parameters', () => {
    const spec = wan.toStart(submission({
      model: T2V, prompt: 'A cat runs', duration: 10, resolution: '1080p', aspect_ratio: '16:9', seed: 7,
      extra: { prompt_extend: false, parameters: { watermark: true }, input: { negative_prompt: 'blurry' } },
    }), ctx(), 0)
    expect(spec.url).toBe('https://dashscope-intl.aliyuncs.com/api/v1/services/aigc/video-generation/video-synthesis')
    expect(spec.headers).toMatchObject({ authorization: 'Bearer sk-ds', 'X-DashScope-Async': 'enable' })
    expect(bodyOf(spec)).toEqual({
      model: T2V,
      input: { negative_prompt: 'blurry', prompt: 'A cat runs' },
      parameters: { prompt_extend: false, watermark: true, resolution: '1080P', ratio: '16:9', duration: 10, seed: 7 },
    })
  })

  it('image-to-video uses img_url and no ratio; first + last frame use the kf2v fields', () => {
    const one = bodyOf(wan.toStart(submission({ model: I2V, prompt: 'p', aspect_ratio: '16:9', images: [{ url: 'https://i/f.png', role: 'first_frame' }] }), ctx(I2V), 0))
    expect(one.input).toEqual({ prompt: 'p', img_url: 'https://i/f.png' })
    expect(one.parameters).toEqual({})
    const two = bodyOf(wan.toStart(submission({ model: I2V, images: [{ url: 'https://i/f.png', role: 'first_frame' }, { url: 'https://i/l.png', role: 'last_frame' }] }), ctx(I2V), 0))
    expect(two.input).toEqual({ first_frame_url: 'https://i/f.png', last_frame_url: 'https://i/l.png' })
  })

  it('HappyHorse takes input.media; Wan refuses reference images', () => {
    const body = bodyOf(wan.toStart(submission({
      model: HH, prompt: 'p', resolution: '720p',
      images: [{ url: 'https://i/f.png', role: 'first_frame' }, { url: 'https://i/r.png', role: 'reference' }],
    }), ctx(HH), 0))
    expect(body.input.media).toEqual([{ type: 'first_frame', url: 'https://i/f.png' }, { type: 'reference_image', url: 'https://i/r.png' }])
    expect(body.parameters).toEqual({ resolution: '720P' })
    expect(thrownBy(() => wan.toStart(submission({ model: I2V, images: [{ url: 'https://i/r.png', role: 'reference' }] }), ctx(I2V), 0)).status).toBe(400)
  })

  it('polls without the async header, also from an SDK-style base URL', () => {
    const spec = wan.toPoll('abc', ctx(T2V, 'https://dashscope.aliyuncs.com/api/v1'), 0)
    expect(spec).toMatchObject({ method: 'GET', url: 'https://dashscope.aliyuncs.com/api/v1/tasks/abc' })
    expect(spec.headers).not.toHaveProperty('X-DashScope-Async')
  })
})

describe('wan statuses and errors', () => {
  const out = (output: object, extra: object = {}) => ({ request_id: 'r', output: { task_id: 't', ...output }, ...extra })
  it.each([
    [out({ task_status: 'PENDING' }), { state: 'queued', vendorState: 'PENDING' }],
    [out({ task_status: 'RUNNING' }), { state: 'running', vendorState: 'RUNNING' }],
    [out({ task_status: 'SUCCEEDED', video_url: 'https://oss/x.mp4' }, { usage: { duration: 5, output_video_duration: 5, video_count: 1, SR: 1080 } }),
      { state: 'succeeded', videoUrls: ['https://oss/x.mp4'], seconds: 5, vendorState: 'SUCCEEDED' }],
    [out({ task_status: 'SUCCEEDED', video_url: 'https://oss/x.mp4' }, { usage: { video_duration: 10, video_count: 1 } }),
      { state: 'succeeded', videoUrls: ['https://oss/x.mp4'], seconds: 10, vendorState: 'SUCCEEDED' }],
    [out({ task_status: 'FAILED', code: 'DataInspectionFailed', message: 'inappropriate' }), { state: 'failed', error: { code: 'DataInspectionFailed', message: 'inappropriate' }, vendorState: 'FAILED' }],
    [out({ task_status: 'CANCELED' }), { state: 'canceled', error: { code: 'canceled', message: expect.any(String) }, vendorState: 'CANCELED' }],
    [out({ task_status: 'UNKNOWN' }), { state: 'failed', error: { code: 'task_not_found', message: expect.any(String) }, vendorState: 'UNKNOWN' }],
    [out({ task_status: 'SUSPENDED' }), { state: 'running', vendorState: 'SUSPENDED' }],
  ])('maps %j', (body, expected) => {
    expect(wan.fromPoll(body)).toEqual(expected)
  })

  it.each([
    ['InvalidApiKey', 401], ['AccessDenied.Unpurchased', 403], ['Throttling.RateQuota', 429], ['InternalError.Algo', 500], ['InvalidParameter', 400],
  ])('an error envelope %s inside HTTP 200 becomes HTTP %i', (code, status) => {
    const err = thrownBy(() => wan.fromStart({ request_id: 'r', code, message: 'm' }, submission({ model: T2V })))
    expect(err).toMatchObject({ status, code, message: 'm' })
  })

  it('keeps the HTTP status of native and compatible-mode errors', () => {
    expect(wan.fromError(429, JSON.stringify({ request_id: 'r', code: 'Throttling', message: 'slow down' }))).toMatchObject({ status: 429, code: 'Throttling', retryable: true })
    expect(wan.fromError(401, JSON.stringify({ error: { code: 'invalid_api_key', message: 'Incorrect API key' } }))).toMatchObject({ status: 401, code: 'invalid_api_key' })
  })
})

describe('wan against the fake DashScope', () => {
  let fake: FakeVideoServer
  let live: ReturnType<typeof ctxFor>
  beforeAll(async () => {
    fake = await startFakeDashScope()
    live = ctxFor('dashscope', T2V, fake.url, 'sk-dashscope-test')
  })
  beforeEach(() => fake.reset())
  afterAll(() => fake.close())

  it('walks PENDING → RUNNING → SUCCEEDED and downloads the video', async () => {
    fake.script(['queued', 'running:30', 'running:80', 'succeeded'])
    const run = await runTask(wan, live, submission({ model: T2V, prompt: 'a cat', duration: 10, resolution: '720p' }))
    expect(statesOf(run)).toEqual(['queued', 'running', 'running', 'succeeded'])
    expect(run.final).toMatchObject({ seconds: 10 })
    expect(run.download!.bytes.equals(FAKE_MP4)).toBe(true)
    expect(fake.calls[0].headers['x-dashscope-async']).toBe('enable')
  })

  it('reports FAILED with output.code', async () => {
    fake.script(['queued', 'failed'])
    const run = await runTask(wan, live, submission({ model: T2V, prompt: 'a cat' }))
    expect(run.final).toMatchObject({ state: 'failed', error: { code: 'DataInspectionFailed' } })
  })

  it('the fake refuses a create without the async header, and answers UNKNOWN for an unknown id', async () => {
    const spec = wan.toStart(submission({ model: T2V, prompt: 'p' }), live, 0)
    const sync = await send({ ...spec, headers: { authorization: spec.headers.authorization, 'content-type': 'application/json' } })
    expect(wan.fromError(sync.status, sync.text)).toMatchObject({ status: 403, code: 'AccessDenied' })
    const unknown = await send(wan.toPoll('no-such-task', live, 0))
    expect(wan.fromPoll(unknown.body)).toMatchObject({ state: 'failed', error: { code: 'task_not_found' } })
  })

  it('a create answered with an error envelope fails the call', async () => {
    fake.switches.nextStart.push(answer(400, { request_id: 'r', code: 'Arrearage', message: 'Access denied, please make sure your account is in good standing.' }))
    await expect(runTask(wan, live, submission({ model: T2V, prompt: 'p' }))).rejects.toMatchObject({ status: 400, code: 'Arrearage' })
  })
})
