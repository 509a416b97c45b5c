// The Images history shows only what the page's CSP lets load: the gateway's copy or this session's blob. A vendor
// link without a copy is offered as a link to open outside the app, never put in an <img>.
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { Gallery } from '../../../../../renderer/panels/image-editor/Gallery'
import type { ImageRun, RunImage } from '../../../../../renderer/panels/image-editor/image-types'

// The store as the gallery reads it, without the whole app store.
const store = vi.hoisted(() => ({
  language: 'en' as 'en' | 'zh',
  imageRuns: [] as ImageRun[],
  imageBlobUrls: {} as Record<string, string>,
  removeImageRun: () => {},
  setShowRaw: () => {},
}))
vi.mock('../../../../../renderer/stores/app-store', () => ({ useAppStore: (select: (s: typeof store) => unknown) => select(store) }))

const run = (images: RunImage[]): ImageRun => ({
  id: 'run-1', group: 'main', createdAt: Date.UTC(2026, 0, 2), mode: 'generate', model: 'seedream', prompt: 'a red fox',
  params: {}, references: 0, masked: false, status: 'succeeded', finishedAt: Date.UTC(2026, 0, 2), images,
})
const VENDOR = 'https://ark-cdn.vendor.example/result/fox.png?sig=abc'
const openLink = (text: string) => `<a href="${VENDOR}" target="_blank" rel="noreferrer noopener" data-testid="image-open-link">${text}</a>`
const render = (images: RunImage[]) => {
  store.imageRuns = [run(images)]
  return renderToStaticMarkup(createElement(Gallery))
}

beforeEach(() => {
  store.language = 'en'
  store.imageBlobUrls = {}
})

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
    expect(html.match(/<div class="image-missing[^>]*>[^<]*<\/div>/g)).toEqual(['<div class="image-missing muted small" data-testid="image-missing">No copy in the app: open the vendor&#x27;s link to see it.</div>'])
    expect(html.split(openLink('Open link')).length - 1).toBe(2)
  })

  it('in Chinese too', () => {
    store.language = 'zh'
    const html = render([{ mimeType: 'image/png', sourceUrl: VENDOR, keep: 'failed', keepError: 'HTTP 500' }])
    expect(html).not.toMatch(/<img/)
    expect(html).toContain('data-testid="image-missing">应用中没有副本：请打开厂商链接查看。</div>')
    expect(html).toContain(openLink('打开链接'))
  })

  it('a result link with another scheme is neither shown nor offered', () => {
    const html = render([{ mimeType: 'image/png', sourceUrl: 'javascript:alert(1)', keep: 'link' }])
    expect(html).not.toMatch(/<img|<a [^>]*javascript/)
    expect(html).toContain('data-testid="image-missing">This image was not saved and is gone.</div>')
  })
})
