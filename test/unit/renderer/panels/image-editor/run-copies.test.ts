import { describe, expect, it } from 'vitest'
import type { RunImage } from '../../../../../renderer/panels/image-editor/image-types'
import { copyStep, followsCopy, UNRECORDED_AFTER_MS } from '../../../../../renderer/panels/image-editor/run-copies'
import { savingCopy, type KeptCopy } from '../../../../../shared/kept-copy'

const LINK = 'https://cdn.vendor.example/x.png'
const image: RunImage = { mimeType: 'image/png', sourceUrl: LINK, keep: 'pending' }
const media = { id: 'req-1', requestId: 'req', kind: 'image', mimeType: 'image/png', url: '/admin/v1/media/req-1', sourceUrl: LINK, createdAt: 0 }
const copy = (patch: Partial<KeptCopy>): KeptCopy => ({ ...savingCopy('req', 1, 'image', LINK, 1e12), ...patch })

describe("a linked image's copy, followed from its card", () => {
  it('takes the state of its own index, and the copy once kept', () => {
    const step = copyStep(image, 1, [copy({ index: 0, state: 'kept', media }), copy({ state: 'failed', reason: { code: 'timeout' }, retryAt: 5 })], 0, 1)
    expect(step).toEqual({ image: { ...image, keep: 'failed', copy: copy({ state: 'failed', reason: { code: 'timeout' }, retryAt: 5 }) }, again: true })
    const kept = copyStep(step.image, 1, [copy({ state: 'kept', media })], 0, 2)
    expect(kept).toEqual({ image: { ...image, keep: 'kept', copy: copy({ state: 'kept', media }), mediaId: 'req-1', url: '/admin/v1/media/req-1' }, again: false })
    expect(followsCopy(kept.image)).toBe(false)
  })

  it('stops at a failure with no try due (Retry starts the following again)', () => {
    const step = copyStep(image, 1, [copy({ state: 'failed', reason: { code: 'vendor_status', detail: '404' }, retryAt: null })], 0, 1)
    expect(step.again).toBe(false)
    expect(followsCopy(step.image)).toBe(false)
  })

  it('a copy the gateway never recorded: asked again for a while, then the link alone', () => {
    expect(copyStep(image, 1, [], 1_000, 1_000 + UNRECORDED_AFTER_MS - 1)).toEqual({ image, again: true })
    expect(copyStep(image, 1, [], 1_000, 1_000 + UNRECORDED_AFTER_MS)).toEqual({ image: { ...image, keep: 'link' }, again: false })
  })

  it('follows only linked images whose copy may still change', () => {
    expect(followsCopy({ mimeType: 'image/png', keep: 'pending' })).toBe(false)
    expect(followsCopy(image)).toBe(true)
    expect(followsCopy({ ...image, keep: 'link' })).toBe(false)
  })
})
