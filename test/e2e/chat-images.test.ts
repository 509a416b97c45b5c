// An image in a model's answer loads nothing until the user clicks: then the gateway fetches it (link guard, size and
// time bounds) and the page shows it from a blob: URL. The image host counts every request it gets.
import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makePng } from '../fakes/images/image-bytes.js'
import { listenLocal } from '../fakes/listen-local.js'
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js'
import { chatConfig } from '../helpers/gateway.js'
import { browserMissing, openApp, type AppUnderTest } from './harness.js'

const PNG = makePng(40, 30)

/** An image host on 127.0.0.1 that records every path asked for. */
async function startImageHost() {
  const requests: string[] = []
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '')
    if (req.url === '/page.html') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>not an image</p>')
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG.length }).end(PNG)
  })
  return { requests, ...(await listenLocal(server)) }
}

describe.skipIf(browserMissing)('images in chat answers', () => {
  let fake: FakeOpenAI
  let host: Awaited<ReturnType<typeof startImageHost>>
  let app: AppUnderTest
  beforeAll(async () => {
    ;[fake, host] = await Promise.all([startFakeOpenAI(), startImageHost()])
    // The test gateway lets links reach 127.0.0.1 (`network.allowPrivateAddresses`), where the image host listens.
    app = await openApp(chatConfig([{ id: 'fake', baseUrl: fake.url }]), { group: 'main' })
  })
  afterAll(async () => {
    await app?.close()
    await Promise.all([fake?.close(), host?.close()])
  })

  it('loads an image from the answer only when its button is clicked, through the gateway', async () => {
    const { page } = app
    const hostName = new URL(host.origin).host
    fake.setScenario({ kind: 'ok', text: `Here is the chart: ![chart](${host.origin}/log.png?q=secret%20chat) done.` })
    await page.getByTestId('chat-model').selectOption('test-gpt')
    await page.getByTestId('chat-input').fill('Show me the chart')
    await page.getByTestId('chat-send').click()
    const answer = page.getByTestId('chat-message-assistant').last()
    await expect.poll(() => answer.getAttribute('data-state')).toBe('done')

    const load = answer.getByTestId('chat-load-image')
    expect(await load.textContent()).toBe(`Load image from ${hostName}`)
    expect(await answer.locator('img').count()).toBe(0)
    // Even an image the page itself made is refused by its CSP: nothing reaches the host before the click.
    const probe = await page.evaluate((src) => new Promise<string>((resolve) => {
      const img = new Image()
      const timer = setTimeout(() => resolve('timeout'), 5_000)
      img.onload = () => (clearTimeout(timer), resolve('loaded'))
      img.onerror = () => (clearTimeout(timer), resolve('refused'))
      img.src = src
    }), `${host.origin}/probe.png`)
    expect(probe).toBe('refused')
    expect(host.requests).toEqual([])
    await app.screenshot('chat-image-before-click')

    await load.click()
    const image = answer.getByTestId('chat-linked-image')
    await image.waitFor({ timeout: 10_000 })
    await expect.poll(() => image.evaluate((el: HTMLImageElement) => (el.complete ? el.naturalWidth : 0))).toBe(40)
    expect(await image.getAttribute('src')).toMatch(/^blob:/)
    expect(await image.getAttribute('alt')).toBe('chart')
    expect(host.requests).toEqual(['/log.png?q=secret%20chat'])
    await app.screenshot('chat-image-after-click')
  })

  it('says why an image did not load, and offers its link to open outside the app', async () => {
    const { page } = app
    const url = `${host.origin}/page.html`
    fake.setScenario({ kind: 'ok', text: `![not a picture](${url})` })
    await page.getByTestId('chat-input').fill('Another one')
    await page.getByTestId('chat-send').click()
    const answer = page.getByTestId('chat-message-assistant').last()
    await expect.poll(() => answer.getAttribute('data-state')).toBe('done')
    await answer.getByTestId('chat-load-image').click()
    const error = answer.getByTestId('chat-load-image-error')
    await error.waitFor({ timeout: 10_000 })
    expect(await error.textContent()).toBe(`The image at ${url} is not an image (content type "text/html").`)
    expect(await answer.getByRole('link', { name: 'Open in browser' }).getAttribute('href')).toBe(url)
    expect(await answer.locator('img').count()).toBe(0)
    expect(host.requests.at(-1)).toBe('/page.html')
  })
})
