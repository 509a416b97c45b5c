import { describe, expect, it } from 'vitest'
import {
  bodyFromNote, isRetryable, newSubmission, noteOf, savedSubmissions, submissionFailed, submissionRetried,
} from '../../../../../renderer/panels/video-tasks/submissions'
import type { VideoBody } from '../../../../../renderer/panels/video-tasks/video-types'

const counter = () => {
  let n = 0
  return () => `id-${++n}`
}
const BODY: VideoBody = { model: 'kling-v3', prompt: 'a cat', images: [{ role: 'first_frame', url: 'data:image/png;base64,AA==' }], duration: 5, resolution: '720p' }

describe('video submissions', () => {
  it('gets its Idempotency-Key when it is made, before anything is sent', () => {
    const s = newSubmission('g1', BODY, 1000, counter())
    expect(s).toEqual({ id: 'id-1', idempotencyKey: 'id-2', group: 'g1', body: BODY, createdAt: 1000, state: 'pending', error: null })
  })

  it('keeps its key through failure and retry', () => {
    const s = newSubmission('g1', BODY, 1000, counter())
    const failed = submissionFailed(s, { status: 503, code: 'upstream_unavailable', message: 'down' })
    expect(failed.state).toBe('failed')
    const again = submissionRetried(failed)
    expect(again).toMatchObject({ id: s.id, idempotencyKey: s.idempotencyKey, state: 'pending', error: null })
  })

  it.each([
    [null, true], [402, true], [408, true], [429, true], [499, true], [500, true], [502, true], [504, true],
    [400, false], [401, false], [403, false], [404, false], [413, false], [422, false],
  ])('a failure with status %s is retryable: %s', (status, retryable) => {
    const s = submissionFailed(newSubmission('g', BODY, 0, counter()), { status, code: 'x', message: 'm' })
    expect(isRetryable(s)).toBe(retryable)
  })

  it('a pending submission is not retried (it is on its way)', () => {
    expect(isRetryable(newSubmission('g', BODY, 0, counter()))).toBe(false)
  })

  it('is saved as interrupted while it is being sent, and an interrupted one is retryable', () => {
    const uuid = counter()
    const pending = newSubmission('g', BODY, 0, uuid)
    const failed = submissionFailed(newSubmission('g', BODY, 0, uuid), { status: 400, code: 'c', message: 'm' })
    const saved = savedSubmissions([pending, failed])
    expect(saved.map((s) => s.state)).toEqual(['interrupted', 'failed'])
    expect(saved[0].idempotencyKey).toBe(pending.idempotencyKey)
    expect(isRetryable(saved[0])).toBe(true)
  })

  it('a retry of a failed task is a new submission with a new key', () => {
    const uuid = counter()
    const first = newSubmission('g', BODY, 0, uuid)
    const note = noteOf(first, [{ role: 'first_frame', url: '/admin/v1/media/t1-app-1' }], 50)
    expect(note).toEqual({
      group: 'g', model: 'kling-v3', prompt: 'a cat', submittedAt: 50,
      images: [{ role: 'first_frame', url: '/admin/v1/media/t1-app-1' }], params: { duration: 5, resolution: '720p' },
    })
    const body = bodyFromNote(note, BODY.images)
    expect(body).toEqual(BODY)
    const second = newSubmission('g', body, 60, uuid, 't1')
    expect(second.idempotencyKey).not.toBe(first.idempotencyKey)
    expect(second.retryOf).toBe('t1')
  })

  it('leaves out what was not asked', () => {
    const note = noteOf(newSubmission('g', { model: 'm', images: [{ role: 'first_frame', url: 'u' }] }, 0, counter()), [], 1)
    expect(note).toEqual({ group: 'g', model: 'm', images: [], params: {}, submittedAt: 1 })
    expect(bodyFromNote(note, [])).toEqual({ model: 'm' })
  })
})
