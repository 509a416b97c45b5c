// POST /admin/v1/linked-image: the image a chat answer links to, fetched by the gateway when the user clicks to load
// it (the page's CSP loads no remote image). Signed-in only, through the link guard, bounded in size and time, and
// answered only when the bytes are a raster image.
import http from 'node:http'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { makePng } from '../../fakes/images/image-bytes.js'
import { listenLocal } from '../../fakes/listen-local.js'
import { chatConfig, withGateway, type TestGateway } from '../../helpers/gateway.js'
import { fetchConforming } from '../../helpers/openapi-conformance.js'
import { MAX_LINKED_IMAGE_BYTES } from '../../../electron/gateway/admin/linked-image.js'
import { apiError, browserSignIn, UNAUTHORIZED } from './admin-helpers.js'

// A full garbage collection on demand (the gateway runs in this process).
setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

const PNG = makePng(12, 8)
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')

/** A PNG header claiming 100000x100000 pixels, then junk where the pixels would be. */
function lyingPng(): Buffer {
  const png = Buffer.alloc(100, 0x42)
  makePng(1, 1).copy(png, 0, 0, 33)
  png.writeUInt32BE(100_000, 16)
  png.writeUInt32BE(100_000, 20)
  return png
}

/** An image host on 127.0.0.1: fixed files, a huge declared one, an endless one, one that trickles, and a count of requests. */
async function startImageHost() {
  const state = { requests: 0 }
  const timers = new Set<NodeJS.Timeout>()
  const server = http.createServer((req, res) => {
    state.requests++
    const path = req.url ?? ''
    if (path === '/pic.png') return void res.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG.length }).end(PNG)
    if (path === '/page.html') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>hi</p>')
    if (path === '/evil.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(SVG)
    if (path === '/huge-pixels.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(lyingPng())
    if (path === '/declared-huge.png') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': MAX_LINKED_IMAGE_BYTES + 1 })
      return void res.write(PNG)
    }
    if (path === '/endless.png') {
      // Chunked, no length: only the gateway's own count stops it.
      res.writeHead(200, { 'content-type': 'image/png' })
      res.write(PNG)
      const piece = Buffer.alloc(1024 * 1024)
      const more = () => {
        if (!res.destroyed && res.write(piece)) setImmediate(more)
      }
      res.on('drain', more)
      return more()
    }
    if (path === '/trickle.png') {
      res.writeHead(200, { 'content-type': 'image/png' })
      res.write(PNG)
      const timer = setInterval(() => res.write(Buffer.alloc(16)), 50)
      timers.add(timer)
      return void res.on('close', () => clearInterval(timer))
    }
    if (path === '/redirect') return void res.writeHead(302, { location: '/pic.png' }).end()
    res.writeHead(404).end()
  })
  const { origin, close } = await listenLocal(server)
  return { origin, state, close: () => (timers.forEach(clearInterval), close()) }
}

/** links may reach 127.0.0.1 (`network.allowPrivateAddresses`), like every test gateway, with a short first-byte timeout */
const { gw, fakes: { host } } = withGateway({
  fakes: { host: startImageHost },
  config: ({ host }) => chatConfig([{ id: 'fake', baseUrl: host.origin }], { timeouts: { firstByteMs: 400 } }),
})
/** the default: links may not reach private addresses */
const { gw: strict } = withGateway({
  config: () => chatConfig([{ id: 'fake', baseUrl: host.origin }], { network: { allowPrivateAddresses: false } }),
})

const PATH = '/admin/v1/linked-image'

/** The route as the desktop window calls it: the admin token as Bearer (or `headers` instead). */
const load = (on: TestGateway, body: unknown, headers: Record<string, string> = { authorization: `Bearer ${on.adminToken}` }, signal?: AbortSignal) =>
  fetchConforming(`${on.url}${PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body), signal })

const errorOf = async (res: Response) => [res.status, await res.json()]
const unusable = (url: string, detail: string) => apiError('invalid_request', `The image at ${url} ${detail}.`, 'url')

describe('POST /admin/v1/linked-image', () => {
  it('answers the image\'s bytes, typed by what they are, sandboxed and never cached', async () => {
    const res = await load(gw, { url: `${host.origin}/pic.png` })
    expect(res.status).toBe(200)
    expect(Buffer.from(await res.arrayBuffer())).toEqual(PNG)
    expect([res.headers.get('content-type'), res.headers.get('content-security-policy'), res.headers.get('x-content-type-options'), res.headers.get('cache-control')])
      .toEqual(['image/png', 'sandbox', 'nosniff', 'no-store'])
  })

  it('follows a redirect, checking the next hop like the first', async () => {
    const res = await load(gw, { url: `${host.origin}/redirect` })
    expect(res.status).toBe(200)
    expect(Buffer.from(await res.arrayBuffer())).toEqual(PNG)
  })

  it('needs a signed-in session: without one, or with the cookie alone, 401 and no request to the host', async () => {
    const before = host.state.requests
    const url = `${host.origin}/pic.png`
    expect(await errorOf(await load(gw, { url }, {}))).toEqual([401, UNAUTHORIZED])
    const session = await browserSignIn(gw)
    expect(await errorOf(await load(gw, { url }, { cookie: session.cookie }))).toEqual([401, UNAUTHORIZED])
    expect(host.state.requests).toBe(before)
    const res = await load(gw, { url }, session.headers)
    expect(res.status).toBe(200)
    expect(Buffer.from(await res.arrayBuffer())).toEqual(PNG)
  })

  it('refuses a link to 127.0.0.1 by default, before any connection', async () => {
    const before = host.state.requests
    const url = `${host.origin}/pic.png`
    expect(await errorOf(await load(strict, { url }))).toEqual([400, unusable(url, 'points to a private or reserved address (127.0.0.1), which the gateway does not fetch')])
    const named = url.replace('127.0.0.1', 'localhost')
    const [status, body] = await errorOf(await load(strict, { url: named }))
    expect(status).toBe(400)
    expect(body.error.message).toMatch(new RegExp(`^The image at ${named.replace(/[.?]/g, '\\$&')} points to a private or reserved address \\((127\\.0\\.0\\.1|::1)\\), which the gateway does not fetch\\.$`))
    expect(host.state.requests).toBe(before)
  })

  it('refuses what is not a raster image, whatever its content type says', async () => {
    expect(await errorOf(await load(gw, { url: `${host.origin}/page.html` }))).toEqual([400, unusable(`${host.origin}/page.html`, 'is not an image (content type "text/html")')])
    expect(await errorOf(await load(gw, { url: `${host.origin}/evil.png` }))).toEqual([400, unusable(`${host.origin}/evil.png`, 'is not a PNG, JPEG, WebP or GIF image')])
    expect(await errorOf(await load(gw, { url: `${host.origin}/missing.png` }))).toEqual([400, unusable(`${host.origin}/missing.png`, 'answered HTTP 404')])
    expect(await errorOf(await load(gw, { url: `${host.origin}/huge-pixels.png` }))).toEqual([400, apiError('invalid_request', 'url is 100000x100000 pixels; images of at most 100000000 pixels are accepted.', 'url')])
  })

  it(`refuses an image over ${MAX_LINKED_IMAGE_BYTES} bytes, declared or counted`, async () => {
    const tooLarge = `is larger than ${MAX_LINKED_IMAGE_BYTES} bytes`
    expect(await errorOf(await load(gw, { url: `${host.origin}/declared-huge.png` }))).toEqual([400, unusable(`${host.origin}/declared-huge.png`, tooLarge)])
    expect(await errorOf(await load(gw, { url: `${host.origin}/endless.png` }))).toEqual([400, unusable(`${host.origin}/endless.png`, tooLarge)])
  })

  it('gives up on an image that keeps trickling past the deadline (504), and on a host that does not answer (502)', async () => {
    const started = Date.now()
    // The deadline must hold through garbage collection (Node may collect an AbortSignal.timeout() held only by AbortSignal.any()).
    const collect = setInterval(gc, 50)
    const late = new AbortController()
    const giveUp = setTimeout(() => late.abort(), 5_000)
    try {
      expect(await errorOf(await load(gw, { url: `${host.origin}/trickle.png` }, undefined, late.signal)))
        .toEqual([504, apiError('upstream_timeout', `The image at ${host.origin}/trickle.png did not arrive within 0.4 seconds.`, null, 'timeout_error')])
    } finally {
      clearInterval(collect)
      clearTimeout(giveUp)
    }
    expect(Date.now() - started).toBeLessThan(5_000)
    const closed = http.createServer()
    const { origin, close } = await listenLocal(closed)
    await close()
    expect(await errorOf(await load(gw, { url: `${origin}/pic.png` })))
      .toEqual([502, apiError('upstream_error', `The image at ${origin}/pic.png could not be downloaded: the connection to ${origin.slice('http://'.length)} failed.`, null, 'upstream_error')])
  })

  it('names what is wrong with the body, in the caller\'s language', async () => {
    expect(await errorOf(await load(gw, {}))).toEqual([400, apiError('invalid_request', 'missing url field', 'url')])
    expect(await errorOf(await load(gw, { url: 'not a link' }))).toEqual([400, apiError('invalid_request', 'url: is not a valid URL', 'url')])
    expect(await errorOf(await load(gw, { url: 'javascript:alert(1)' }))).toEqual([400, unusable('javascript:alert(1)', 'is not an http(s) link')])
    expect(await errorOf(await load(gw, { url: 'file:///etc/passwd' }))).toEqual([400, unusable('file:///etc/passwd', 'is not an http(s) link')])
    const zh = await load(gw, { url: 'not a link' }, { authorization: `Bearer ${gw.adminToken}`, 'accept-language': 'zh-CN' })
    expect(await errorOf(zh)).toEqual([400, apiError('invalid_request', 'url：不是有效的 URL', 'url')])
  })
})
