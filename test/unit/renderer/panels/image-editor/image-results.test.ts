import { describe, expect, it } from 'vitest'
import { ApiError } from '../../../../../renderer/api/http'
import {
  b64ToBlob, downloadName, errorFromBody, parseImagesBody, pollDelay, readTask, reduceImageStream, type StreamState,
} from '../../../../../renderer/panels/image-editor/image-results'

describe('parseImagesBody', () => {
  it('reads b64_json, url, mime_type and revised_prompt; PNG when no type is given', () => {
    expect(parseImagesBody({ created: 1, data: [{ b64_json: 'AAA', mime_type: 'image/jpeg', revised_prompt: 'r' }, { url: 'https://x/y.png' }, { nothing: 1 }] })).toEqual([
      { b64: 'AAA', mimeType: 'image/jpeg', revisedPrompt: 'r' },
      { url: 'https://x/y.png', mimeType: 'image/png' },
    ])
  })

  it('anything else is no images', () => {
    expect(parseImagesBody(null)).toEqual([])
    expect(parseImagesBody({ data: 'x' })).toEqual([])
  })
})

describe('b64ToBlob', () => {
  it('decodes the bytes with the type', async () => {
    const blob = b64ToBlob(btoa(String.fromCharCode(0, 1, 254, 255)), 'image/png')
    expect(blob.type).toBe('image/png')
    expect(Array.from(new Uint8Array(await blob.arrayBuffer()))).toEqual([0, 1, 254, 255])
  })
})

describe('readTask', () => {
  it('pending while queued or running; the images body when succeeded', () => {
    expect(readTask({ task_id: 't', status: 'running' })).toEqual({ state: 'pending', status: 'running' })
    expect(readTask({ task_id: 't', status: 'queued' })).toEqual({ state: 'pending', status: 'queued' })
    expect(readTask({ status: 'succeeded', result: { data: [] } })).toEqual({ state: 'succeeded', body: { data: [] } })
  })

  it('a failed task becomes an ApiError with the status of its code', () => {
    const poll = readTask({ status: 'failed', error: { code: 'upstream_timeout', message: 'slow' } })
    expect(poll.state).toBe('failed')
    const err = (poll as { error: ApiError }).error
    expect([err.status, err.code, err.message]).toEqual([504, 'upstream_timeout', 'slow'])
    expect(errorFromBody({ error: { code: 'task_interrupted', message: 'restart' } }).status).toBe(502)
  })
})

describe('pollDelay', () => {
  it('starts at 1 s and backs off to at most 5 s', () => {
    expect([0, 1, 2, 3, 4, 5, 20].map(pollDelay)).toEqual([1000, 1500, 2250, 3375, 5000, 5000, 5000])
  })
})

describe('reduceImageStream', () => {
  const run = (events: Array<{ event?: string; data: string }>) => events.reduce<StreamState>(reduceImageStream, { done: false })

  it('keeps the last data event before [DONE]', () => {
    expect(run([{ data: '{"created":1,"data":[{"b64_json":"A"}]}' }, { data: '[DONE]' }])).toEqual({ done: true, body: { created: 1, data: [{ b64_json: 'A' }] } })
  })

  it('an error event ends it with the error', () => {
    const s = run([{ event: 'error', data: '{"error":{"code":"upstream_error","message":"boom","type":"upstream_error"}}' }])
    expect(s.done).toBe(true)
    expect(s.error).toBeInstanceOf(ApiError)
    expect(s.error!.status).toBe(502)
    expect(s.body).toBeUndefined()
  })

  it('skips data that is not JSON', () => {
    expect(run([{ data: 'hello' }])).toEqual({ done: false })
  })
})

describe('downloadName', () => {
  it('names the file by time, number and type', () => {
    expect(downloadName(Date.UTC(2026, 0, 2, 3, 4, 5), 0, 'image/jpeg')).toBe('image-2026-01-02T03-04-05-1.jpg')
    expect(downloadName(0, 2, 'image/unknown')).toMatch(/-3\.png$/)
  })
})
