import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../../../../renderer/api/http'
import type { ImageRun } from '../../../../../renderer/panels/image-editor/image-types'

const api = vi.hoisted(() => ({ submitImages: vi.fn(), keepImage: vi.fn(), resumeTask: vi.fn() }))
vi.mock('../../../../../renderer/panels/image-editor/images-api', () => api)

const { carryOut, progressPatch, resumeRun, toRunError } = await import('../../../../../renderer/panels/image-editor/image-runs')

function harness() {
  let run: ImageRun = { id: 'r', group: 'g', createdAt: 0, mode: 'generate', model: 'm', prompt: 'p', params: {}, references: 0, masked: false, status: 'running', images: [] }
  const blobs: Array<[number, Blob]> = []
  return {
    hooks: { update: (fn: (r: ImageRun) => ImageRun) => (run = fn(run)), showBlob: (i: number, b: Blob) => blobs.push([i, b]) },
    run: () => run,
    blobs,
  }
}
const media = (id: string) => ({ id, requestId: 'req-1', kind: 'image', mimeType: 'image/png', url: `/admin/v1/media/${id}`, sourceUrl: null, createdAt: 0 })
const submission = { group: 'g', endpoint: 'generations' as const, delivery: 'async' as const, body: {} }

beforeEach(() => vi.resetAllMocks())

describe('progressPatch', () => {
  it('an upload reports its percentage; a task its id and status', () => {
    expect(progressPatch({ phase: 'uploading', percent: 42 })).toEqual({ phase: 'uploading', uploadPercent: 42 })
    expect(progressPatch({ phase: 'waiting', taskId: 't1', status: 'running' })).toEqual({ phase: 'waiting', taskId: 't1', taskStatus: 'running' })
    expect(progressPatch({ phase: 'generating' })).toEqual({ phase: 'generating' })
  })
})

describe('toRunError', () => {
  it('keeps the request id of an error answer (its log row names the failed account)', () => {
    expect(toRunError(new ApiError(400, 'moderation_blocked', 'no', 'req-9'))).toEqual({ status: 400, code: 'moderation_blocked', message: 'no', requestId: 'req-9' })
    expect(toRunError(new ApiError(400, 'invalid_request', 'no'))).toEqual({ status: 400, code: 'invalid_request', message: 'no' })
  })
})

describe('carryOut', () => {
  it('inline images: shown at once, uploaded once, the run keeps only the gateway link', async () => {
    api.submitImages.mockImplementation(async (s) => {
      s.onRequestId('req-1')
      s.onProgress({ phase: 'waiting', taskId: 'task_1', status: 'running' })
      return { data: [{ b64_json: btoa('png'), mime_type: 'image/png' }] }
    })
    api.keepImage.mockResolvedValue(media('m1'))
    const h = harness()
    await carryOut(submission, h.hooks)
    expect(h.blobs.map(([i, b]) => [i, b.type])).toEqual([[0, 'image/png']])
    expect(api.keepImage).toHaveBeenCalledTimes(1)
    expect(api.keepImage.mock.calls[0][0]).toBe('req-1')
    expect(h.run()).toMatchObject({ status: 'succeeded', requestId: 'req-1', taskId: 'task_1', phase: undefined, images: [{ mimeType: 'image/png', keep: 'kept', mediaId: 'm1', url: '/admin/v1/media/m1' }] })
    expect(JSON.stringify(h.run())).not.toContain(btoa('png'))
  })

  // The gateway copies linked images itself; each card follows its copy's state (run-copies.ts), so the run no
  // longer looks the copies up once and settles for the link when they are slow.
  it('linked images: saving while the gateway copies them, nothing uploaded; without a request id, the link alone', async () => {
    api.submitImages.mockImplementation(async (s) => {
      s.onRequestId('req-1')
      return { data: [{ url: 'https://v/a.png' }, { url: 'https://v/b.png' }] }
    })
    const h = harness()
    await carryOut(submission, h.hooks)
    expect(h.run()).toMatchObject({ status: 'succeeded', requestId: 'req-1', phase: undefined })
    expect(h.run().images).toEqual([
      { mimeType: 'image/png', sourceUrl: 'https://v/a.png', keep: 'pending' },
      { mimeType: 'image/png', sourceUrl: 'https://v/b.png', keep: 'pending' },
    ])
    expect(api.keepImage).not.toHaveBeenCalled()
    api.submitImages.mockResolvedValue({ data: [{ url: 'https://v/c.png' }] })
    const bare = harness()
    await carryOut(submission, bare.hooks)
    expect(bare.run().images).toEqual([{ mimeType: 'image/png', sourceUrl: 'https://v/c.png', keep: 'link' }])
  })

  it('an upload that fails is shown on that image; the run still succeeded', async () => {
    api.submitImages.mockResolvedValue({ data: [{ b64_json: 'AA==' }] })
    api.keepImage.mockRejectedValue(new ApiError(500, 'internal_error', 'disk full'))
    const h = harness()
    await carryOut(submission, h.hooks)
    expect(h.run().status).toBe('succeeded')
    expect(h.run().images[0]).toMatchObject({ keep: 'failed', keepError: 'disk full' })
  })

  it('an error answer fails the run with status, code and message', async () => {
    api.submitImages.mockRejectedValue(new ApiError(400, 'invalid_request', 'size is wrong'))
    const h = harness()
    await carryOut(submission, h.hooks)
    expect(h.run()).toMatchObject({ status: 'failed', error: { status: 400, code: 'invalid_request', message: 'size is wrong' } })
  })

  it('an answer without images fails the run', async () => {
    api.submitImages.mockResolvedValue({ data: [] })
    const h = harness()
    await carryOut(submission, h.hooks)
    expect(h.run()).toMatchObject({ status: 'failed', error: { status: 502 } })
  })
})

describe('resumeRun', () => {
  it('polls the saved task and settles the run', async () => {
    api.resumeTask.mockResolvedValue({ data: [{ b64_json: 'AA==', mime_type: 'image/jpeg' }] })
    api.keepImage.mockResolvedValue(media('m9'))
    const h = harness()
    await resumeRun('g', 'task_1', 'req-0', h.hooks)
    expect(api.resumeTask.mock.calls[0].slice(0, 2)).toEqual(['g', 'task_1'])
    expect(h.run()).toMatchObject({ status: 'succeeded', images: [{ mimeType: 'image/jpeg', url: '/admin/v1/media/m9' }] })
  })
})

describe('toRunError', () => {
  it('keeps ApiError fields; anything else is a network error', () => {
    expect(toRunError(new ApiError(429, 'user_concurrency_limit', 'busy'))).toEqual({ status: 429, code: 'user_concurrency_limit', message: 'busy' })
    expect(toRunError(new TypeError('Failed to fetch'))).toEqual({ status: 0, code: 'network_error', message: 'Failed to fetch' })
  })
})
