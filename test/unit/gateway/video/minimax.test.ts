import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { minimax } from '../../../../electron/gateway/upstreams/video/minimax.js'
import { minimaxError, startFakeMiniMax } from '../../../fakes/video/minimax.js'
import { FAKE_MP4, type FakeVideoServer } from '../../../fakes/video/task-script.js'
import { bodyOf, ctxFor, thrownBy, runTask, statesOf, submission } from './drive.js'

const V1 = 'MiniMax-Hailuo-02'
const V2 = 'MiniMax-H3'
const ctx = ctxFor('minimax', V1, 'https://api.minimax.io', 'mm-key')
const ctxV2 = ctxFor('minimax', V2, 'https://api.minimax.io/v1', 'mm-key')
const ok = { base_resp: { status_code: 0, status_msg: 'success' } }

describe('minimax v1 requests', () => {
  it('creates with upper-case resolution, frame images and subject references; drops seed and aspect ratio', () => {
    const spec = minimax.toStart(submission({
      model: V1, prompt: 'A man reads [Static shot]', duration: 6, resolution: '1080p', aspect_ratio: '16:9', seed: 4,
      images: [
        { url: 'https://img.example/f.jpg', role: 'first_frame' },
        { url: 'data:image/png;base64,AAAA', role: 'last_frame' },
        { url: 'https://img.example/face.jpg', role: 'reference' },
      ],
      extra: { prompt_optimizer: false },
    }), ctx, 0)
    expect(spec.url).toBe('https://api.minimax.io/v1/video_generation')
    expect(spec.headers.authorization).toBe('Bearer mm-key')
    expect(bodyOf(spec)).toEqual({
      prompt_optimizer: false, model: V1, prompt: 'A man reads [Static shot]', duration: 6, resolution: '1080P',
      first_frame_image: 'https://img.example/f.jpg', last_frame_image: 'data:image/png;base64,AAAA',
      subject_reference: [{ type: 'character', image: ['https://img.example/face.jpg'] }],
    })
  })

  it('polls by query string and fetches the file by id', () => {
    expect(minimax.toPoll('1069', ctx, 0).url).toBe('https://api.minimax.io/v1/query/video_generation?task_id=1069')
    expect(minimax.toFile!('2052', ctx, 0).url).toBe('https://api.minimax.io/v1/files/retrieve?file_id=2052')
    expect(minimax.fromFile!({ file: { file_id: 2052, download_url: 'https://cdn/x.mp4' }, ...ok })).toBe('https://cdn/x.mp4')
  })
})

describe('minimax v2 requests (H series)', () => {
  it('creates with a content array and polls by path, whatever the base URL suffix', () => {
    const spec = minimax.toStart(submission({
      model: V2, prompt: 'p', duration: 8, resolution: '2k', aspect_ratio: '21:9',
      images: [{ url: 'https://img.example/r.png', role: 'reference' }],
    }), ctxV2, 0)
    expect(spec.url).toBe('https://api.minimax.io/v2/video_generation')
    expect(bodyOf(spec)).toEqual({
      model: V2, resolution: '2K', duration: 8, ratio: '21:9',
      content: [{ type: 'text', text: 'p' }, { type: 'image_url', image_url: { url: 'https://img.example/r.png' }, role: 'reference_image' }],
    })
    expect(minimax.toPoll('42', ctxV2, 0).url).toBe('https://api.minimax.io/v2/query/video_generation/42')
  })
})

describe('minimax statuses', () => {
  it.each([
    [{ status: 'Preparing', ...ok }, { state: 'queued', vendorState: 'Preparing' }],
    [{ status: 'Queueing', ...ok }, { state: 'queued', vendorState: 'Queueing' }],
    [{ status: 'Processing', ...ok }, { state: 'running', vendorState: 'Processing' }],
    [{ status: 'Success', file_id: '205258526306433', ...ok }, { state: 'succeeded', videoUrls: [], fileId: '205258526306433', vendorState: 'Success' }],
    [{ status: 'Fail', base_resp: { status_code: 1027, status_msg: 'video output sensitive' } }, { state: 'failed', error: { code: '1027', message: 'video output sensitive' }, vendorState: 'Fail' }],
    [{ status: 'Fail', ...ok }, { state: 'failed', error: { code: 'task_failed', message: 'the MiniMax task failed' }, vendorState: 'Fail' }],
    [{ status: 'Success', ...ok }, { state: 'failed', error: { code: 'empty_output', message: expect.any(String) }, vendorState: 'Success' }],
    [{ status: 'Rendering', ...ok }, { state: 'running', vendorState: 'Rendering' }],
    // v2 task objects
    [{ task: { status: 'queued' }, ...ok }, { state: 'queued', vendorState: 'queued' }],
    [{ task: { status: 'running' } }, { state: 'running', vendorState: 'running' }],
    [{ task: { status: 'succeeded', content: { url: 'https://cdn/h3.mp4', duration: 8 } } }, { state: 'succeeded', videoUrls: ['https://cdn/h3.mp4'], seconds: 8, vendorState: 'succeeded' }],
    [{ task: { status: 'failed', error: { code: 1027, message: 'm' } } }, { state: 'failed', error: { code: '1027', message: 'm' }, vendorState: 'failed' }],
    [{ task: { status: 'cancelled' } }, { state: 'canceled', error: { code: 'canceled', message: expect.any(String) }, vendorState: 'cancelled' }],
    [{ task: { status: 'expired' } }, { state: 'failed', error: { code: 'expired', message: expect.any(String) }, vendorState: 'expired' }],
    [{ task: { status: 'warming_up' } }, { state: 'running', vendorState: 'warming_up' }],
  ])('maps %j', (body, expected) => {
    expect(minimax.fromPoll(body)).toEqual(expected)
  })
})

describe('minimax base_resp errors', () => {
  it.each([
    [1002, 429, true], [1004, 401, false], [1008, 429, true], [1013, 500, true], [1026, 400, false], [2013, 400, false], [2049, 401, false], [1001, 504, true], [4242, 502, true],
  ])('status_code %i inside HTTP 200 becomes HTTP %i', (code, status, retryable) => {
    const body = { base_resp: { status_code: code, status_msg: `msg ${code}` } }
    for (const read of [() => minimax.fromStart(body, submission({ model: V1 })), () => minimax.fromPoll(body), () => minimax.fromFile!(body)]) {
      expect(thrownBy(read)).toMatchObject({ status, code: String(code), retryable, message: `msg ${code}` })
    }
  })

  it('keeps the HTTP status of a non-200 answer', () => {
    expect(minimax.fromError(503, JSON.stringify({ base_resp: { status_code: 1013, status_msg: 'busy' } })))
      .toMatchObject({ status: 503, code: '1013', message: 'busy', retryable: true })
  })
})

describe('minimax against the fake MiniMax', () => {
  let fake: FakeVideoServer
  let live: ReturnType<typeof ctxFor>
  beforeAll(async () => {
    fake = await startFakeMiniMax()
    live = ctxFor('minimax', V1, fake.url, 'minimax-test-key')
  })
  beforeEach(() => fake.reset())
  afterAll(() => fake.close())

  it('v1: create → query → file retrieve → download', async () => {
    fake.script(['vendor-word:Preparing', 'queued', 'running:30', 'running:80', 'succeeded'])
    const run = await runTask(minimax, live, submission({ model: V1, prompt: 'a cat', duration: 6 }))
    expect(statesOf(run)).toEqual(['queued', 'queued', 'running', 'running', 'succeeded'])
    expect(run.final).toMatchObject({ state: 'succeeded', videoUrls: [], fileId: expect.any(String) })
    expect(run.final).not.toHaveProperty('seconds') // MiniMax v1 reports none: the caller bills the requested duration
    expect(run.download!.contentType).toBe('video/mp4')
    expect(run.download!.bytes.equals(FAKE_MP4)).toBe(true)
    expect(fake.calls.at(-1)!.path).toMatch(/^\/v1\/files\/retrieve\?file_id=/)
  })

  it('v1: a failed task carries the base_resp code', async () => {
    fake.script(['queued', 'failed:1027'])
    const run = await runTask(minimax, live, submission({ model: V1, prompt: 'a cat' }))
    expect(run.final).toMatchObject({ state: 'failed', error: { code: '1027' } })
  })

  it('v2: the query answer carries the URL, no file step', async () => {
    fake.script(['queued', 'running', 'succeeded'])
    const run = await runTask(minimax, ctxFor('minimax', V2, fake.url, 'minimax-test-key'), submission({ model: V2, prompt: 'p', duration: 8, aspect_ratio: '16:9' }))
    expect(run.final).toMatchObject({ state: 'succeeded', seconds: 8 })
    expect(run.download!.bytes.equals(FAKE_MP4)).toBe(true)
    expect(fake.calls.some((c) => c.path.startsWith('/v1/files'))).toBe(false)
  })

  it('business errors come with HTTP 200 and still fail the call', async () => {
    fake.switches.nextStart.push(minimaxError(1008, 'insufficient balance'))
    await expect(runTask(minimax, live, submission({ model: V1, prompt: 'x' }))).rejects.toMatchObject({ status: 429, code: '1008' })
    await expect(runTask(minimax, ctxFor('minimax', V1, fake.url, 'bad'), submission({ model: V1, prompt: 'x' })))
      .rejects.toMatchObject({ status: 401, code: '2049' })
  })
})
