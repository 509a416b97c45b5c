// The Images history shows only what the page's CSP lets load: the gateway's copy or this session's blob. A vendor
// link without a copy is offered as a link to open outside the app, never put in an <img>. Each result's copy is
// in exactly one state (shared/kept-copy.ts): Download only once kept, the vendor link only while it works.
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { Gallery, RunCard } from '../../../../../renderer/panels/image-editor/Gallery'
import type { ImageRun, RunImage } from '../../../../../renderer/panels/image-editor/image-types'
import { STRINGS } from '../../../../../renderer/panels/image-editor/strings'
import type { KeptCopy } from '../../../../../shared/kept-copy'

// The store as the gallery reads it, without the whole app store.
const store = vi.hoisted(() => ({
  language: 'en' as 'en' | 'zh',
  imageRuns: [] as ImageRun[],
  imageBlobUrls: {} as Record<string, string>,
  removeImageRun: () => {},
  setShowRaw: () => {},
  setRunImage: () => {},
}))
vi.mock('../../../../../renderer/stores/app-store', () => ({ useAppStore: Object.assign((select: (s: typeof store) => unknown) => select(store), { getState: () => store }) }))

const ANSWERED = Date.UTC(2026, 0, 2)
const run = (images: RunImage[], id = 'run-1'): ImageRun => ({
  id, group: 'main', createdAt: ANSWERED, mode: 'generate', model: 'seedream', prompt: 'a red fox', requestId: 'req_1',
  params: {}, references: 0, masked: false, status: 'succeeded', finishedAt: ANSWERED, images,
})
const VENDOR = 'https://ark-cdn.vendor.example/result/fox.png?sig=abc'
const openLink = (text: string) => `<a href="${VENDOR}" target="_blank" rel="noreferrer noopener" data-testid="copy-open-link">${text}</a>`
const render = (images: RunImage[]) => {
  store.imageRuns = [run(images)]
  return renderToStaticMarkup(createElement(RunCard, { run: store.imageRuns[0], t: (k, v) => (STRINGS[store.language][k] ?? k).replace(/\{(\w+)\}/g, (_, n) => String(v?.[n] ?? '')) }))
}
const states = (html: string) => [...html.matchAll(/data-testid="copy-status" data-state="(\w+)"/g)].map((m) => m[1])
const words = (html: string) => [...html.matchAll(/data-testid="copy-words">([^<]*)</g)].map((m) => m[1])
const failedCopy: KeptCopy = {
  requestId: 'req_1', index: 0, kind: 'image', state: 'failed', sourceUrl: VENDOR, linkExpiresAt: ANSWERED + 86_400_000, attempts: 2,
  reason: { code: 'vendor_status', detail: '503' }, retryAt: null,
}
const when = (ms: number) => new Date(ms).toLocaleString()

beforeEach(() => {
  store.language = 'en'
  store.imageBlobUrls = {}
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(ANSWERED + 3_600_000)
})
afterEach(() => vi.useRealTimers())

describe('image results', () => {
  it("shows the gateway's copy or this session's blob; a vendor link without a copy is a link to open, not an <img>", () => {
    store.imageBlobUrls = { 'run-1:1': 'blob:http://127.0.0.1/1234' }
    const html = render([
      { mimeType: 'image/png', sourceUrl: VENDOR, keep: 'kept', mediaId: 'med_1', url: '/admin/v1/media/med_1' },
      { mimeType: 'image/png', keep: 'pending' },
      { mimeType: 'image/png', sourceUrl: VENDOR, keep: 'link' },
    ])
    expect(html.match(/<img [^>]*>/g)).toEqual([
      '<img src="/admin/v1/media/med_1" alt="a red fox" loading="lazy" data-testid="image-result" data-composite="false"/>',
      '<img src="blob:http://127.0.0.1/1234" alt="a red fox" loading="lazy" data-testid="image-result" data-composite="false"/>',
    ])
    expect(states(html)).toEqual(['kept', 'saving', 'linkOnly'])
    expect(words(html)).toEqual([
      'Saved in the gateway.', 'Saving a copy in the gateway…', `No copy in the gateway: only the vendor link, which works until ${when(ANSWERED + 86_400_000)}.`,
    ])
    // Download for the kept copy and for this session's blob; the vendor link for the two results that have one.
    expect(html.match(/data-testid="image-download"/g)).toHaveLength(2)
    expect(html.split(openLink('Open the vendor link')).length - 1).toBe(2)
  })

  it('a copy that failed says why, when the link stops working, and offers the link and Retry, never Download', () => {
    const html = render([{ mimeType: 'image/png', sourceUrl: VENDOR, keep: 'failed', copy: failedCopy }])
    expect(html).not.toMatch(/<img|image-download/)
    expect(states(html)).toEqual(['failed'])
    expect(words(html)).toEqual([`Not saved: the vendor&#x27;s server answered HTTP 503. The vendor link works until ${when(ANSWERED + 86_400_000)}.`])
    expect(html).toContain(openLink('Open the vendor link'))
    expect(html).toContain('data-testid="copy-retry">Retry saving</button>')
  })

  it('in Chinese too', () => {
    store.language = 'zh'
    const html = render([{ mimeType: 'image/png', sourceUrl: VENDOR, keep: 'failed', copy: { ...failedCopy, retryAt: ANSWERED + 3_700_000 } }])
    expect(words(html)).toEqual([`未保存：厂商服务器返回 HTTP 503。将于 ${when(ANSWERED + 3_700_000)} 再试。厂商链接在 ${when(ANSWERED + 86_400_000)} 之前有效。`])
    expect(html).toContain(openLink('打开厂商链接'))
    expect(html).toContain('data-testid="copy-retry">重新保存</button>')
  })

  it('once the vendor link expired: neither the link nor Retry is offered', () => {
    vi.setSystemTime(ANSWERED + 90_000_000)
    const html = render([{ mimeType: 'image/png', sourceUrl: VENDOR, keep: 'failed', copy: failedCopy }])
    expect(words(html)).toEqual([`Not saved: the vendor&#x27;s server answered HTTP 503. The vendor link expired at ${when(ANSWERED + 86_400_000)}.`])
    expect(html).not.toMatch(/copy-open-link|copy-retry/)
    expect(states(render([{ mimeType: 'image/png', sourceUrl: VENDOR, keep: 'link' }]))).toEqual(['gone'])
  })

  it('a result link with another scheme is neither shown nor offered', () => {
    const html = render([{ mimeType: 'image/png', sourceUrl: 'javascript:alert(1)', keep: 'link' }])
    expect(html).not.toMatch(/<img|<a [^>]*javascript/)
    expect(words(html)).toEqual(['No copy in the gateway, and no link to it.'])
  })

  it('the history lists the runs before the newest (which shows above the editor)', () => {
    store.imageRuns = [run([], 'newest'), run([], 'older')]
    const html = renderToStaticMarkup(createElement(Gallery))
    expect(html.match(/data-testid="image-run"/g)).toHaveLength(1)
  })
})
