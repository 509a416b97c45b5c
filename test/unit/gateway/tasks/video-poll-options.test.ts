import { describe, expect, it } from 'vitest'
import { DEFAULT_VIDEO_POLL, videoPollOptions } from '../../../../electron/gateway/tasks/video-runtime.js'

describe('videoPollOptions', () => {
  it('takes the poll lease from GATEHOUSE_VIDEO_LEASE_MS; given options win; a bad value is ignored', () => {
    expect(videoPollOptions(undefined, {})).toEqual(DEFAULT_VIDEO_POLL)
    expect(DEFAULT_VIDEO_POLL).toMatchObject({ leaseMs: 300_000, resumeOnStart: true })
    expect(videoPollOptions(undefined, { GATEHOUSE_VIDEO_LEASE_MS: '2000' }).leaseMs).toBe(2_000)
    expect(videoPollOptions({ leaseMs: 500 }, { GATEHOUSE_VIDEO_LEASE_MS: '2000' }).leaseMs).toBe(500)
    expect(videoPollOptions(undefined, { GATEHOUSE_VIDEO_LEASE_MS: 'soon' }).leaseMs).toBe(300_000)
    expect(videoPollOptions(undefined, { GATEHOUSE_VIDEO_LEASE_MS: '-1' }).leaseMs).toBe(300_000)
  })
})
