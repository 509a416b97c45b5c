// Video on another gateway of this interface: the submission forwarded, the task polled on the same path it was
// made on (this interface's video task, or DashScope's native shape).
import { describe, expect, it } from 'vitest'
import type { UpstreamCtx } from '../../../../../electron/gateway/contract/upstream.js'
import type { VideoSubmission } from '../../../../../electron/gateway/contract/video-upstream.js'
import { gatewayVideo } from '../../../../../electron/gateway/upstreams/video/gateway.js'
import { account, catalogRow, thrownBy } from '../adapter-kit.js'

const ctx: UpstreamCtx = { upstream: account('gateway', 'https://gateway.example.com', 'sk-upstream'), model: { ...catalogRow('doubao-seedance-2-0-260128', 'seedance', 'ark'), type: 'video' } }
const NATIVE_PATH = '/api/v1/services/aigc/video-generation/video-synthesis'
const sub = (more: Partial<VideoSubmission> = {}): VideoSubmission => ({ model: 'doubao-seedance-2-0-260128', prompt: 'a kitten', duration: 5, extra: { generate_audio: true }, ...more })

describe('submitting', () => {
  it('a submission without the client request becomes a POST /v1/video/generate body with its extra fields', () => {
    const spec = gatewayVideo.toStart(sub(), ctx, 0)
    expect(spec).toMatchObject({ method: 'POST', url: 'https://gateway.example.com/v1/video/generate' })
    expect(spec.headers.authorization).toBe('Bearer sk-upstream')
    expect(JSON.parse(String(spec.body))).toEqual({ generate_audio: true, model: 'doubao-seedance-2-0-260128', prompt: 'a kitten', duration: 5 })
  })

  it("the client's own request goes to its own path with the upstream's key", () => {
    const body = Buffer.from('{"model":"doubao-seedance-2-0-260128","prompt":"a kitten"}')
    const spec = gatewayVideo.toStart(sub({ original: { path: '/v1/video/generate', contentType: 'application/json', body } }), ctx, 0)
    expect(spec).toMatchObject({ method: 'POST', url: 'https://gateway.example.com/v1/video/generate', headers: { authorization: 'Bearer sk-upstream' } })
    expect(JSON.parse(String(spec.body))).toEqual({ model: 'doubao-seedance-2-0-260128', prompt: 'a kitten' })
  })

  it('the task id from the answer; a native submission\'s id is marked so that it is polled natively', () => {
    expect(gatewayVideo.fromStart({ task_id: 'task_123', status: 'queued' }, sub())).toBe('task_123')
    expect(thrownBy(() => gatewayVideo.fromStart({ status: 'queued' }, sub()))).toMatchObject({ kind: 'upstream_error' })
    const native = sub({ original: { path: NATIVE_PATH, contentType: 'application/json', body: Buffer.from('{}') } })
    const id = gatewayVideo.fromStart({ request_id: 'r-1', output: { task_id: 'ds-9', task_status: 'PENDING' } }, native)
    expect(id).toBe('native:ds-9')
    expect(gatewayVideo.toPoll(id, ctx, 0).url).toBe('https://gateway.example.com/api/v1/tasks/ds-9')
    expect(gatewayVideo.toPoll('task_123', ctx, 0)).toMatchObject({ method: 'GET', url: 'https://gateway.example.com/v1/video/tasks/task_123' })
  })
})

describe('polling', () => {
  it("this interface's task object: in flight with progress, then the videos and the seconds the upstream billed", () => {
    expect(gatewayVideo.fromPoll({ id: 'task_123', object: 'video.task', status: 'running', progress: 40 })).toMatchObject({ state: 'running', progress: 40 })
    expect(gatewayVideo.fromPoll({ id: 'task_123', status: 'succeeded', result: { videos: [{ url: 'https://gateway.example.com/media/v.mp4' }], seconds: 5 }, usage: { seconds: 4 } }))
      .toEqual({ state: 'succeeded', vendorState: 'succeeded', videoUrls: ['https://gateway.example.com/media/v.mp4'], seconds: 4 })
    expect(gatewayVideo.fromPoll({ id: 'task_123', status: 'failed', error: { code: 'content_policy_violation', message: 'The prompt was refused.' } }))
      .toEqual({ state: 'failed', vendorState: 'failed', error: { code: 'content_policy_violation', message: 'The prompt was refused.' } })
  })

  it("a native task answers in DashScope's shape and is read as such", () => {
    expect(gatewayVideo.fromPoll({ request_id: 'r-2', output: { task_id: 'ds-9', task_status: 'RUNNING' } })).toMatchObject({ state: 'running' })
  })
})
