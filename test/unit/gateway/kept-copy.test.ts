import { describe, expect, it } from 'vitest'
import { copyFailure, CopyTracker } from '../../../electron/gateway/media/copy-tracker.js'
import { LINK_LIFETIME_MS, linkExpiry, reduceCopy, savingCopy, type KeptCopy } from '../../../shared/kept-copy.js'

const media = { id: 'req_1-0', requestId: 'req_1', kind: 'image', mimeType: 'image/png', url: '/admin/v1/media/req_1-0', sourceUrl: 'https://v/x.png', createdAt: 1 }
const saving = (): KeptCopy => savingCopy('req_1', 0, 'image', 'https://v/x.png', 5_000)
const failed = { type: 'failed', reason: { code: 'vendor_status', detail: '503' }, retryAt: 9_000 } as const

describe('kept copy state machine', () => {
  it('saving → kept', () => {
    expect(reduceCopy(saving(), { type: 'kept', media })).toEqual({ ...saving(), state: 'kept', media })
  })

  it('saving → failed (reason, next try) → retrying (one more attempt) → kept, the failure gone', () => {
    const f = reduceCopy(saving(), failed)
    expect(f).toMatchObject({ state: 'failed', attempts: 1, reason: { code: 'vendor_status', detail: '503' }, retryAt: 9_000 })
    const r = reduceCopy(f, { type: 'retry' })
    expect(r).toMatchObject({ state: 'retrying', attempts: 2, retryAt: null, reason: { code: 'vendor_status' } })
    const k = reduceCopy(r, { type: 'kept', media })
    expect(k).toEqual({ ...saving(), attempts: 2, state: 'kept', media })
  })

  it('retrying → failed again; kept is final; retry only from failed', () => {
    const again = reduceCopy(reduceCopy(reduceCopy(saving(), failed), { type: 'retry' }), { ...failed, retryAt: null })
    expect(again).toMatchObject({ state: 'failed', attempts: 2, retryAt: null })
    const kept = reduceCopy(saving(), { type: 'kept', media })
    expect(reduceCopy(kept, failed)).toBe(kept)
    expect(reduceCopy(kept, { type: 'retry' })).toBe(kept)
    expect(reduceCopy(saving(), { type: 'retry' })).toEqual(saving())
  })
})

describe('vendor link expiry', () => {
  it('reads TOS and SigV4 signatures, and OSS Expires', () => {
    expect(linkExpiry('https://ark.tos.example/x.jpeg?X-Tos-Algorithm=TOS4&X-Tos-Date=20261128T010000Z&X-Tos-Expires=86400&X-Tos-Signature=ab', 0)).toBe(Date.UTC(2026, 10, 29, 1, 0, 0))
    expect(linkExpiry('https://s3.example/x.png?X-Amz-Date=20261128T010000Z&X-Amz-Expires=3600', 0)).toBe(Date.UTC(2026, 10, 28, 2, 0, 0))
    expect(linkExpiry('https://dashscope.oss.example/x.mp4?Expires=1796000000&OSSAccessKeyId=k&Signature=s', 0)).toBe(1_796_000_000_000)
  })

  it('24 hours after issue for a link that does not say, or is not a URL', () => {
    expect(linkExpiry('https://cdn.example/x.png', 1_000)).toBe(1_000 + LINK_LIFETIME_MS)
    expect(linkExpiry('not a url', 1_000)).toBe(1_000 + LINK_LIFETIME_MS)
    expect(linkExpiry('https://cdn.example/x.png?X-Tos-Date=garbage&X-Tos-Expires=60', 1_000)).toBe(1_000 + LINK_LIFETIME_MS)
  })
})

describe('copy failure words', () => {
  it.each([
    [new Error('answered HTTP 403'), { code: 'vendor_status', detail: '403' }],
    [new Error('is larger than 100000000 bytes'), { code: 'too_large', detail: '100000000' }],
    [new Error('is not a PNG, JPEG, WebP or GIF image'), { code: 'not_media' }],
    [new Error('is not an http(s) link'), { code: 'link_refused' }],
    [new Error('points to a private or reserved address (10.0.0.1), which the gateway does not fetch'), { code: 'link_refused' }],
    [new Error('redirects more than 5 times'), { code: 'link_refused' }],
    [Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' }), { code: 'timeout' }],
    [Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }), { code: 'unreachable' }],
    [Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }), { code: 'storage' }],
    [new Error('something else'), { code: 'unknown' }],
  ])('%s', (err, reason) => expect(copyFailure(err)).toEqual(reason))
})

describe('copy tracker', () => {
  it('keeps the newest copies, at most its bound, by request and index', () => {
    const t = new CopyTracker()
    t.start('a', 1, 'image', 'https://v/1', 0)
    t.start('a', 0, 'image', null, 0)
    t.start('b', 0, 'video', 'https://v/2', 0)
    expect(t.list('a').map((c) => [c.index, c.linkExpiresAt])).toEqual([[0, null], [1, LINK_LIFETIME_MS]])
    expect(t.apply('a', 7, { type: 'retry' })).toBeUndefined()
    for (let i = 0; i < 5_000; i++) t.start(`r${i}`, 0, 'image', null, 0)
    expect(t.get('a', 0)).toBeUndefined()
    expect(t.get('r4999', 0)?.state).toBe('saving')
  })
})
