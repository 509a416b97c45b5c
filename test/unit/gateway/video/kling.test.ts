import { createHmac } from 'node:crypto'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { kling } from '../../../../electron/gateway/upstreams/video/kling.js'
import { signKlingJwt, splitKlingKey } from '../../../../electron/gateway/upstreams/kling-jwt.js'
import { startFakeKling } from '../../../fakes/video/kling.js'
import { answer, FAKE_MP4, type FakeVideoServer } from '../../../fakes/video/task-script.js'
import { bodyOf, ctxFor, thrownBy, runTask, send, statesOf, submission } from './drive.js'

const MODEL = 'kling-v2-6'
const NOW = 1_760_000_000
const ctx = ctxFor('kling', MODEL, 'https://api-singapore.klingai.com', 'AK123:SK456')
const t2v = submission({ model: MODEL, prompt: 'a fox in snow' })
const i2v = submission({ model: MODEL, prompt: 'p', images: [{ url: 'https://img.example/a.png', role: 'first_frame' }] })

const b64json = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'))

describe('kling JWT', () => {
  it('is HS256 over header.payload with the secret key, iss = AK, exp = now + 1800, nbf = now - 5', () => {
    const token = signKlingJwt('AK123', 'SK456', NOW)
    const [header, payload, signature] = token.split('.')
    expect(b64json(header)).toEqual({ alg: 'HS256', typ: 'JWT' })
    expect(b64json(payload)).toEqual({ iss: 'AK123', exp: NOW + 1800, nbf: NOW - 5 })
    expect(signature).toBe(createHmac('sha256', 'SK456').update(`${header}.${payload}`).digest('base64url'))
    expect(signature).not.toBe(createHmac('sha256', 'other').update(`${header}.${payload}`).digest('base64url'))
  })

  it('reads ACCESS_KEY:SECRET_KEY (and AK|SK), refusing a key without both parts', () => {
    expect(splitKlingKey('AK:SK')).toEqual({ accessKey: 'AK', secretKey: 'SK' })
    expect(splitKlingKey('AK|SK')).toEqual({ accessKey: 'AK', secretKey: 'SK' })
    expect(thrownBy(() => splitKlingKey('just-one-key')).status).toBe(502)
  })

  it('mints a fresh token into every request', () => {
    const spec = kling.toStart(t2v, ctx, NOW)
    const token = spec.headers.authorization.replace('Bearer ', '')
    expect(token).toBe(signKlingJwt('AK123', 'SK456', NOW))
    expect(kling.toPoll('text2video/1', ctx, NOW + 60).headers.authorization).toBe(`Bearer ${signKlingJwt('AK123', 'SK456', NOW + 60)}`)
  })
})

describe('kling toStart / fromStart / toPoll', () => {
  it('text2video: prompt, string duration, mode from resolution, aspect ratio; no seed', () => {
    const spec = kling.toStart({ ...t2v, duration: 10, resolution: '1080p', aspect_ratio: '9:16', seed: 3, extra: { negative_prompt: 'blur' } }, ctx, NOW)
    expect(spec.url).toBe('https://api-singapore.klingai.com/v1/videos/text2video')
    expect(bodyOf(spec)).toEqual({ negative_prompt: 'blur', model_name: MODEL, prompt: 'a fox in snow', mode: 'pro', duration: '10', aspect_ratio: '9:16' })
  })

  it('image2video: first frame as image, last frame as image_tail, data URLs as raw base64', () => {
    const spec = kling.toStart(submission({
      model: MODEL, prompt: 'p', resolution: '720p', aspect_ratio: '16:9',
      images: [{ url: 'data:image/png;base64,iVBORw0KGgo=', role: 'first_frame' }, { url: 'https://img.example/z.png', role: 'last_frame' }],
    }), ctx, NOW)
    expect(spec.url).toBe('https://api-singapore.klingai.com/v1/videos/image2video')
    expect(bodyOf(spec)).toEqual({ model_name: MODEL, prompt: 'p', image: 'iVBORw0KGgo=', image_tail: 'https://img.example/z.png', mode: 'std' })
  })

  it('refuses reference images and a last frame without a first frame', () => {
    expect(thrownBy(() => kling.toStart(submission({ model: MODEL, images: [{ url: 'https://x/r.png', role: 'reference' }] }), ctx, NOW)).status).toBe(400)
    expect(thrownBy(() => kling.toStart(submission({ model: MODEL, images: [{ url: 'https://x/l.png', role: 'last_frame' }] }), ctx, NOW)).status).toBe(400)
  })

  it('keeps the create family in the task id, so the poll uses the same path', () => {
    const created = { code: 0, message: 'SUCCEED', request_id: 'r', data: { task_id: '8592', task_status: 'submitted' } }
    expect(kling.fromStart(created, t2v)).toBe('text2video/8592')
    expect(kling.fromStart(created, i2v)).toBe('image2video/8592')
    expect(kling.toPoll('image2video/8592', ctx, NOW).url).toBe('https://api-singapore.klingai.com/v1/videos/image2video/8592')
    expect(kling.toPoll('8592', ctx, NOW).url).toBe('https://api-singapore.klingai.com/v1/videos/text2video/8592')
  })

  it('tolerates a base URL ending in /v1', () => {
    const v1 = ctxFor('kling', MODEL, 'https://api-beijing.klingai.com/v1/', 'a:b')
    expect(kling.toStart(t2v, v1, NOW).url).toBe('https://api-beijing.klingai.com/v1/videos/text2video')
  })
})

describe('kling statuses and errors', () => {
  const env = (data: object) => ({ code: 0, message: 'SUCCEED', request_id: 'r', data })
  it.each([
    [env({ task_status: 'submitted' }), { state: 'queued', vendorState: 'submitted' }],
    [env({ task_status: 'processing' }), { state: 'running', vendorState: 'processing' }],
    [env({ task_status: 'succeed', task_result: { videos: [{ id: 'v', url: 'https://cdn/k.mp4', duration: '5.1' }] } }),
      { state: 'succeeded', videoUrls: ['https://cdn/k.mp4'], seconds: 5.1, vendorState: 'succeed' }],
    [env({ task_status: 'failed', task_status_msg: 'risk control' }), { state: 'failed', error: { code: 'task_failed', message: 'risk control' }, vendorState: 'failed' }],
    [env({ task_status: 'succeed', task_result: { videos: [] } }), { state: 'failed', error: { code: 'empty_output', message: expect.any(String) }, vendorState: 'succeed' }],
    [env({ task_status: 'queueing_in_region' }), { state: 'running', vendorState: 'queueing_in_region' }],
  ])('maps %j', (body, expected) => {
    expect(kling.fromPoll(body)).toEqual(expected)
  })

  it.each([
    [1004, 401], [1102, 429], [1103, 403], [1201, 400], [1203, 404], [1301, 400], [1303, 429], [5000, 500], [5001, 503], [5002, 504], [9999, 502],
  ])('a code %i inside HTTP 200 becomes HTTP %i', (code, status) => {
    const err = thrownBy(() => kling.fromPoll({ code, message: 'm', request_id: 'r' }))
    expect(err).toMatchObject({ status, code: String(code), message: 'm' })
  })

  it('keeps the HTTP status of an error answer, with the business code', () => {
    const err = kling.fromError(429, JSON.stringify({ code: 1303, message: 'parallel task over resource pack limit', request_id: 'r' }))
    expect(err).toMatchObject({ status: 429, code: '1303', retryable: true, message: 'parallel task over resource pack limit' })
  })
})

describe('kling against the fake Kling', () => {
  let fake: FakeVideoServer
  let live: ReturnType<typeof ctxFor>
  beforeAll(async () => {
    fake = await startFakeKling({ accessKey: 'ak-live', secretKey: 'sk-live' })
    live = ctxFor('kling', MODEL, fake.url, 'ak-live:sk-live')
  })
  beforeEach(() => fake.reset())
  afterAll(() => fake.close())

  it('runs an image2video task to the end and downloads it', async () => {
    fake.script(['queued', 'running:30', 'running:80', 'succeeded'])
    const run = await runTask(kling, live, { ...i2v, duration: 5 })
    expect(run.taskId).toMatch(/^image2video\//)
    expect(statesOf(run)).toEqual(['queued', 'running', 'running', 'succeeded'])
    expect(run.final).toMatchObject({ seconds: 5.1 })
    expect(run.download!.bytes.equals(FAKE_MP4)).toBe(true)
    expect(fake.calls.map((c) => c.path)).toContain(`/v1/videos/${run.taskId}`)
  })

  it('reports a failed text2video task', async () => {
    fake.script(['queued', 'failed'])
    const run = await runTask(kling, live, t2v)
    expect(run.final).toMatchObject({ state: 'failed', vendorState: 'failed', error: { code: 'task_failed' } })
  })

  it('is refused with a wrong secret (1002) and with an expired token (1004)', async () => {
    await expect(runTask(kling, ctxFor('kling', MODEL, fake.url, 'ak-live:wrong'), t2v)).rejects.toMatchObject({ status: 401, code: '1002' })
    const old = Math.floor(Date.now() / 1000) - 3600
    const res = await send(kling.toStart(t2v, live, old))
    expect(kling.fromError(res.status, res.text)).toMatchObject({ status: 401, code: '1004' })
  })

  it('turns a business error of the create call into a GatewayError', async () => {
    fake.switches.nextStart.push(answer(429, { code: 1102, message: 'resource pack exhausted', request_id: 'r' }))
    await expect(runTask(kling, live, t2v)).rejects.toMatchObject({ status: 429, code: '1102', retryable: true })
  })
})
