// The Wan adapter's reads of real recorded DashScope task-API answers (test/fixtures/recorded/dashscope/, INDEX.md
// there). They were recorded for a wanx-v1 image task: the create envelope and `GET /api/v1/tasks/{id}` are the same
// task API a Wan video task is created and polled through.
import { describe, expect, it } from 'vitest'
import { dashscope } from '../../../../../electron/gateway/upstreams/video/dashscope.js'
import { recordedBytes } from '../../../../fakes/replay.js'
import type { VideoSubmission } from '../../../../../electron/gateway/contract/video-upstream.js'

const recorded = (name: string) => JSON.parse(recordedBytes(`dashscope/${name}.json`).toString('utf8')) as Record<string, unknown>

describe('recorded DashScope task answers through the Wan adapter', () => {
  it('the create answer (output.task_status PENDING): its output.task_id is the task', () => {
    expect(dashscope.fromStart(recorded('image-synthesis-nosse'), {} as VideoSubmission)).toBe('9e2b6ef6-285d-4efa-8651-4dbda7d571fa')
  })

  it('a task being made (RUNNING, task_metrics only): running, no link yet', () => {
    expect(dashscope.fromPoll(recorded('get-task-running-nosse'))).toEqual({ state: 'running', vendorState: 'RUNNING' })
  })

  it('an id DashScope does not know (UNKNOWN, answered with HTTP 200): failed as task_not_found, not waited on', () => {
    expect(dashscope.fromPoll(recorded('get-task-unknown-nosse'))).toEqual({
      state: 'failed',
      vendorState: 'UNKNOWN',
      error: { code: 'task_not_found', message: 'DashScope does not know this task (unknown or expired id)' },
    })
  })

  it('a native error answer (HTTP 400, flat request_id/code/message): the vendor\'s code and words, status kept', () => {
    const text = recordedBytes('dashscope/cancel-completed-task-nosse.json').toString('utf8')
    const error = dashscope.fromError(400, text)
    expect(error.status).toBe(400)
    expect(error.code).toBe('UnsupportedOperation')
    expect(error.retryable).toBe(false)
    expect(error.message).toBe('Failed to cancel the task, please confirm if the task is in PENDING status.')
  })
})
