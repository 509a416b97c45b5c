import { describe, expect, it } from 'vitest'
import type { TaskSummary } from '../../../../../shared/admin'
import { newSubmission, submissionFailed } from '../../../../../renderer/panels/video-tasks/submissions'
import {
  changed, entriesFromSummaries, mergeEntries, needsPoll, nextDelay, pruneNotes, videoRows,
} from '../../../../../renderer/panels/video-tasks/task-list'
import type { Submission, TaskNote, VideoTaskView } from '../../../../../renderer/panels/video-tasks/video-types'

const view = (id: string, status: string, extra: Partial<VideoTaskView> = {}): VideoTaskView => ({
  task_id: id, status, model: 'kling-v3', created_at: 100, updated_at: 100, status_url: `/v1/video/tasks/${id}`, reserved: 0, ...extra,
})
const summary = (v: VideoTaskView, group = 'g1'): TaskSummary => ({
  id: v.task_id, kind: 'video', group, keyId: 'key_app', model: v.model, status: v.status, progress: v.progress ?? null,
  createdAt: v.created_at * 1000, updatedAt: v.updated_at * 1000, detail: v, idempotencyKey: null,
})
const note = (extra: Partial<TaskNote> = {}): TaskNote => ({
  group: 'g1', model: 'kling-v3', prompt: 'from the app', params: { duration: 5 }, images: [], submittedAt: 0, ...extra,
})
const uuid = (() => {
  let n = 0
  return () => `u${++n}`
})()

describe('video task list', () => {
  it('merges the admin list with the notes: prompt and params from the note, else from the task', () => {
    const tasks = Object.fromEntries(entriesFromSummaries([
      summary(view('t1', 'running', { progress: 40, created_at: 200 })),
      summary(view('t2', 'queued', { request: { prompt: 'from an SDK', resolution: '720p' }, created_at: 150 }), 'g2'),
    ]).map((e) => [e.id, e]))
    const rows = videoRows(tasks, { t1: note() }, [])
    expect(rows.map((r) => [r.id, r.status, r.group, r.prompt, r.fromApp, r.progress])).toEqual([
      ['t1', 'running', 'g1', 'from the app', true, 40],
      ['t2', 'queued', 'g2', 'from an SDK', false, null],
    ])
    expect(rows[0].params).toEqual({ duration: 5 })
    expect(rows[1].params).toEqual({ duration: undefined, resolution: '720p', aspect_ratio: undefined })
  })

  it('puts submissions without a task among the tasks by time, with their state', () => {
    const pending = newSubmission('g1', { model: 'm', prompt: 'p' }, 300_000, uuid)
    const failed = submissionFailed(newSubmission('g1', { model: 'm' }, 50_000, uuid), { status: null, code: 'network_error', message: 'offline' })
    const tasks = { t1: { id: 't1', group: 'g1', view: view('t1', 'queued', { created_at: 100 }) } }
    const rows = videoRows(tasks, {}, [pending, failed])
    expect(rows.map((r) => [r.kind, r.status, r.retry])).toEqual([
      ['submission', 'submitting', null], ['task', 'queued', null], ['submission', 'submit_failed', 'same-key'],
    ])
  })

  it('a task stored for a submission still listed is that submission\'s card, not a second one', () => {
    const rejected: Submission = {
      id: 's1', idempotencyKey: 'key-1', group: 'g1', body: { model: 'kling-v3', prompt: 'a fox' }, createdAt: 200_000, state: 'failed',
      error: { status: 400, code: 'invalid_request', message: 'prompt refused', requestId: 'req-1' },
    }
    const tasks = {
      t1: { id: 't1', group: 'g1', view: view('t1', 'failed', { error: { code: 'invalid_request', message: 'prompt refused' } }), idempotencyKey: 'key-1' },
      t2: { id: 't2', group: 'g1', view: view('t2', 'queued'), idempotencyKey: 'key-other' },
      t3: { id: 't3', group: 'g1', view: view('t3', 'queued'), idempotencyKey: null },
    }
    const rows = videoRows(tasks, {}, [rejected])
    expect(rows.map((r) => r.id)).toEqual(['s1', 't2', 't3'])
    expect(rows[0]).toMatchObject({ kind: 'submission', status: 'submit_failed', error: rejected.error })
    // Once the submission is gone (answered with its task), the task shows.
    expect(videoRows(tasks, {}, []).map((r) => r.id).sort()).toEqual(['t1', 't2', 't3'])
  })

  it('offers a new-key retry for failed tasks of the app, once', () => {
    const tasks = {
      a: { id: 'a', group: 'g1', view: view('a', 'failed', { error: { code: 'vendor_failed', message: 'no' } }) },
      b: { id: 'b', group: 'g1', view: view('b', 'failed') },
      c: { id: 'c', group: 'g1', view: view('c', 'canceled') },
      d: { id: 'd', group: 'g1', view: view('d', 'succeeded') },
    }
    const rows = Object.fromEntries(videoRows(tasks, { a: note(), c: note({ retriedBy: 'u9' }), d: note() }, []).map((r) => [r.id, r]))
    expect(rows.a.retry).toBe('new-key')
    // The task's id is the key of its request-log row (which names the account that failed).
    expect(rows.a.error).toEqual({ status: null, code: 'vendor_failed', message: 'no', requestId: 'a' })
    expect(rows.b.retry).toBe(null) // made elsewhere: the app does not know its pictures
    expect(rows.c.retry).toBe(null)
    expect(rows.d.retry).toBe(null)
    expect(rows.d.progress).toBe(100)
  })

  it('shows the saved copy and the vendor link of a finished task', () => {
    const done = view('t', 'succeeded', {
      result: { videos: [{ url: 'https://vendor/v.mp4', content_url: '/v1/video/tasks/t/content', mime_type: 'video/mp4' }], seconds: 5 },
      usage: { seconds: 5, cost: 0.42 },
    })
    const [row] = videoRows({ t: { id: 't', group: 'g', view: done } }, {}, [])
    expect(row).toMatchObject({ contentUrl: '/v1/video/tasks/t/content', vendorUrl: 'https://vendor/v.mp4', cost: 0.42, seconds: 5 })
  })

  it('polls until the task ended and its video is saved', () => {
    expect(needsPoll(view('t', 'queued'))).toBe(true)
    expect(needsPoll(view('t', 'running'))).toBe(true)
    expect(needsPoll(view('t', 'succeeded', { result: { videos: [{ url: 'https://v' }] } }))).toBe(true)
    expect(needsPoll(view('t', 'succeeded', { result: { videos: [{ url: 'https://v', content_url: '/c' }] } }))).toBe(false)
    expect(needsPoll(view('t', 'failed'))).toBe(false)
    expect(needsPoll(view('t', 'canceled'))).toBe(false)
  })

  it('sees changes of status, progress and the saved copy', () => {
    const a = view('t', 'running', { progress: 10 })
    expect(changed(undefined, a)).toBe(true)
    expect(changed(a, { ...a, updated_at: 200 })).toBe(false)
    expect(changed(a, { ...a, progress: 20 })).toBe(true)
    expect(changed(a, { ...a, status: 'succeeded' })).toBe(true)
  })

  it('backs off from 2 s to 5 s while nothing moves, and further on errors', () => {
    expect(nextDelay(5_000, 'changed')).toBe(2_000)
    expect(nextDelay(2_000, 'same')).toBe(3_000)
    expect(nextDelay(3_000, 'same')).toBe(4_500)
    expect(nextDelay(4_500, 'same')).toBe(5_000)
    expect(nextDelay(5_000, 'same')).toBe(5_000)
    expect(nextDelay(5_000, 'error')).toBe(10_000)
    expect(nextDelay(10_000, 'error')).toBe(15_000)
  })

  it('keeps a polled answer newer than the list, and a just-made task the list does not have yet', () => {
    const polled = { id: 't1', group: 'g', view: view('t1', 'running', { updated_at: 300 }) }
    const fresh = { id: 't2', group: 'g', view: view('t2', 'queued', { created_at: 995 }) }
    const merged = mergeEntries({ t1: polled, t2: fresh }, [{ id: 't1', group: 'g', view: view('t1', 'queued', { updated_at: 200 }) }], 1_000_000)
    expect(merged.t1).toBe(polled)
    expect(merged.t2).toBe(fresh)
    expect(mergeEntries({ t2: fresh }, [], 2_000_000)).toEqual({})
  })

  it('drops notes of tasks no longer listed once they are old', () => {
    const notes = { listed: note({ submittedAt: 0 }), old: note({ submittedAt: 0 }), recent: note({ submittedAt: 9_000 }) }
    expect(Object.keys(pruneNotes(notes, new Set(['listed']), 10_000, 5_000))).toEqual(['listed', 'recent'])
  })
})
