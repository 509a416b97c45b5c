// The Seedance adapter's poll read on a real recorded Ark task (test/fixtures/recorded/ark/, INDEX.md there).
import { describe, expect, it } from 'vitest'
import { ark } from '../../../../../electron/gateway/upstreams/video/ark.js'
import { recordedBytes } from '../../../../fakes/replay.js'

const recorded = JSON.parse(recordedBytes('ark/issue-17883-status-response.json').toString('utf8')) as Record<string, unknown>

describe('a recorded Seedance task (seedance-1-0-pro, 480p, 2 s)', () => {
  it('succeeded: its one video link and the seconds it made (duration), which the video bill counts', () => {
    expect(ark.fromPoll(recorded)).toEqual({
      state: 'succeeded',
      vendorState: 'succeeded',
      videoUrls: ['https://ark-content-generation-ap-southeast-1.tos-ap-southeast-1.volces.com/seedance-1-0-pro/recorded-video.mp4'],
      seconds: 2,
    })
  })

  it('the same task earlier in its life: queued, then running, with no link yet', () => {
    expect(ark.fromPoll({ ...recorded, status: 'queued', content: undefined })).toEqual({ state: 'queued', vendorState: 'queued' })
    expect(ark.fromPoll({ ...recorded, status: 'running', content: undefined })).toEqual({ state: 'running', vendorState: 'running' })
  })

  it('succeeded without a link is a failure (nothing to deliver), not a success to bill', () => {
    expect(ark.fromPoll({ ...recorded, content: {} })).toEqual({ state: 'failed', vendorState: 'succeeded', error: { code: 'empty_output', message: 'the task succeeded without a video' } })
  })
})
