import { describe, expect, it } from 'vitest'
import { copyShown, copyUnderWay } from '../../../../renderer/components/kept-copy-view'
import { LINK_LIFETIME_MS, savingCopy, type KeptCopy } from '../../../../shared/kept-copy'

const LINK = 'https://cdn.vendor.example/x.png?sig=1'
const media = { id: 'req-0', requestId: 'req', kind: 'image', mimeType: 'image/png', url: '/admin/v1/media/req-0', sourceUrl: LINK, createdAt: 0 }
const copy = (patch: Partial<KeptCopy>): KeptCopy => ({ ...savingCopy('req', 0, 'image', LINK, 10_000), ...patch })

describe('one shown state per copy', () => {
  it("the gateway's record: saving, retrying, kept, each with the link while it works", () => {
    expect(copyShown({ copy: copy({}), sourceUrl: LINK, issuedAt: 0, local: 'pending' }, 5_000)).toEqual({ state: 'saving', attempts: 1, link: LINK, linkUntil: 10_000 })
    expect(copyShown({ copy: copy({ state: 'retrying', attempts: 3 }), sourceUrl: LINK, issuedAt: 0, local: 'pending' }, 5_000)).toEqual({ state: 'retrying', attempts: 3, link: LINK, linkUntil: 10_000 })
    expect(copyShown({ copy: copy({ state: 'kept', media }), sourceUrl: LINK, issuedAt: 0, local: 'kept' }, 20_000)).toEqual({ state: 'kept', linkUntil: 10_000 })
  })

  it('failed: the reason, the next try, the link and Retry while the link works; neither after', () => {
    const failed = copy({ state: 'failed', reason: { code: 'timeout' }, retryAt: 7_000 })
    expect(copyShown({ copy: failed, sourceUrl: LINK, issuedAt: 0, local: 'failed' }, 5_000))
      .toEqual({ state: 'failed', reason: { code: 'timeout' }, retryAt: 7_000, canRetry: true, link: LINK, linkUntil: 10_000 })
    expect(copyShown({ copy: failed, sourceUrl: LINK, issuedAt: 0, local: 'failed' }, 10_000))
      .toEqual({ state: 'failed', reason: { code: 'timeout' }, retryAt: 7_000, canRetry: false, linkUntil: 10_000 })
  })

  it("the app's own facts: an upload under way, kept, or failed; a link the gateway never copied", () => {
    expect(copyShown({ issuedAt: 0, local: 'pending' }, 1)).toEqual({ state: 'saving', attempts: 1 })
    expect(copyShown({ issuedAt: 0, local: 'kept' }, 1)).toEqual({ state: 'kept' })
    expect(copyShown({ issuedAt: 0, local: 'failed', localError: 'disk full' }, 1)).toEqual({ state: 'failed', reason: { code: 'upload', detail: 'disk full' }, retryAt: null, canRetry: false })
    expect(copyShown({ sourceUrl: LINK, issuedAt: 0, local: 'link' }, 1)).toEqual({ state: 'linkOnly', link: LINK, linkUntil: LINK_LIFETIME_MS })
    expect(copyShown({ sourceUrl: LINK, issuedAt: 0, local: 'link' }, LINK_LIFETIME_MS)).toEqual({ state: 'gone', linkUntil: LINK_LIFETIME_MS })
    expect(copyShown({ sourceUrl: 'javascript:alert(1)', issuedAt: 0, local: 'link' }, 1)).toEqual({ state: 'gone' })
  })

  it('follows a copy that may still change by itself', () => {
    expect(copyUnderWay(undefined)).toBe(true)
    expect(copyUnderWay(copy({}))).toBe(true)
    expect(copyUnderWay(copy({ state: 'retrying' }))).toBe(true)
    expect(copyUnderWay(copy({ state: 'failed', retryAt: 9 }))).toBe(true)
    expect(copyUnderWay(copy({ state: 'failed', retryAt: null }))).toBe(false)
    expect(copyUnderWay(copy({ state: 'kept', media }))).toBe(false)
  })
})
