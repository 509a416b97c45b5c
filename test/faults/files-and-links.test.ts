// Files, images and outbound links under attack: path traversal in the admin media upload, file modes in the
// data dir, SVG from a vendor, a PNG whose header lies about its size, and links to private addresses.
// (files-and-links-sqlite.test.ts: the SQLite store's own files in the data dir.)
import http from 'node:http'
import { lookup } from 'node:dns/promises'
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { Readable } from 'node:stream'
import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makePng } from '../fakes/images/image-bytes.js'
import { listenLocal } from '../fakes/listen-local.js'
import { chatConfig, startTestGateway, TEST_KEY, type TestGateway } from '../helpers/gateway.js'
import { isMediaPart, storedMediaPaths } from '../helpers/stored-media.js'
import { walkDir } from '../helpers/walk-dir.js'

const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(document.cookie)</script></svg>')
const PNG = makePng(16, 16)

/** 100 bytes: a PNG signature and an IHDR claiming 100000x100000 pixels, then junk where the pixels would be. */
function lyingPng(): Buffer {
  const png = Buffer.alloc(100, 0x42)
  makePng(1, 1).copy(png, 0, 0, 33)
  png.writeUInt32BE(100_000, 16)
  png.writeUInt32BE(100_000, 20)
  return png
}

/**
 * An OpenAI-compatible image vendor on 127.0.0.1: its images answer is set per test (`nextAnswer`); it hosts
 * files under /files/ (served with the type given, whatever the bytes are) and redirects /redirect to `redirectTo`.
 */
async function startVendor() {
  const hosted = new Map<string, { bytes: Buffer; type: string }>()
  const state = { nextAnswer: {} as unknown, redirectTo: '', downloads: [] as string[], calls: 0 }
  const server = http.createServer((req, res) => {
    const path = req.url ?? ''
    if (path.startsWith('/files/')) {
      state.downloads.push(path)
      const file = hosted.get(path)
      if (!file) return void res.writeHead(404).end()
      return void res.writeHead(200, { 'content-type': file.type, 'content-length': file.bytes.length }).end(file.bytes)
    }
    if (path === '/redirect') return void res.writeHead(302, { location: state.redirectTo }).end()
    state.calls++
    req.resume()
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(state.nextAnswer)))
  })
  const { origin, close } = await listenLocal(server)
  return { origin, url: `${origin}/v1`, hosted, state, close }
}

type Vendor = Awaited<ReturnType<typeof startVendor>>

const errorOf = async (res: Response) => [res.status, ((await res.json()) as { error: { code: string; message: string; param: string | null } }).error]

/** A data dir three levels below a root of its own, so that a path escaping it still lands under the root. */
function nestedDataDir() {
  const root = mkdtempSync(join(tmpdir(), 'gatehouse-files-'))
  const dir = join(root, 'a', 'b', 'data')
  mkdirSync(dir, { recursive: true })
  return { root, dir, remove: () => rmSync(root, { recursive: true, force: true }) }
}

let vendor: Vendor
let data: ReturnType<typeof nestedDataDir>
/** allows private addresses (the fakes are on 127.0.0.1), like every test gateway */
let gw: TestGateway
/** the default: links may not reach private addresses */
let strict: TestGateway

beforeAll(async () => {
  vendor = await startVendor()
  data = nestedDataDir()
  gw = await startTestGateway(chatConfig([{ id: 'fake', baseUrl: vendor.url }]), data)
  strict = await startTestGateway(chatConfig([{ id: 'fake', baseUrl: vendor.url }], { network: { allowPrivateAddresses: false } }))
  vendor.hosted.set('/files/ok.png', { bytes: PNG, type: 'image/png' })
  vendor.hosted.set('/files/evil.svg', { bytes: SVG, type: 'image/svg+xml' })
  vendor.hosted.set('/files/lying.png', { bytes: SVG, type: 'image/png' })
})
afterAll(async () => {
  await Promise.all([gw?.stop(), strict?.stop()])
  await vendor?.close()
  data?.remove()
})

const adminUpload = (request: string, body: Buffer, type = 'image/png') =>
  fetch(`${gw.url}/admin/v1/media?request=${encodeURIComponent(request)}`, { method: 'POST', headers: { authorization: `Bearer ${gw.adminToken}`, 'content-type': type }, body: new Uint8Array(body) })

describe('admin media upload: file names are the gateway\'s', () => {
  it.each(['../../../x', '/etc/evil', '..\\..\\x', 'media/../../../../y', '%2e%2e%2f'])('request=%s is stored as data; the file lands under media/app with a gateway name', async (request) => {
    const res = await adminUpload(request, PNG)
    expect(res.status).toBe(201)
    const item = (await res.json()) as { id: string; requestId: string }
    expect(item).toMatchObject({ id: expect.stringMatching(/^med_[0-9a-f]{32}$/), requestId: request })
    const row = (await gw.services.store.media.get(item.id))!
    expect(row.path).toBe(join('media', 'app', `${item.id}.png`))
    expect((await gw.services.media.read(row.path))?.size).toBe(PNG.length)
  })

  it.each([
    ['a NUL', 'a\u0000b'],
    ['a newline', 'a\nb'],
    ['201 characters', 'x'.repeat(201)],
  ])('a request value with %s is refused', async (_what, request) => {
    expect(await errorOf(await adminUpload(request, PNG))).toEqual([400, {
      code: 'invalid_request', param: 'request', type: 'invalid_request_error', message: 'request: must be at most 200 characters without control characters',
    }])
  })

  it('bytes that are not a raster image or video are refused, whatever the content type says', async () => {
    expect(await errorOf(await adminUpload('r', SVG, 'image/png'))).toEqual([400, {
      code: 'invalid_request', param: 'body', type: 'invalid_request_error', message: 'body: is not a PNG, JPEG, WebP, GIF, MP4, WebM or QuickTime file',
    }])
  })

  it('nothing was written outside the data dir, and the store keeps the uploads under gateway names only', async () => {
    const outside = walkDir(data.root).map((e) => join(data.root, e.path)).filter((path) => relative(data.dir, path).startsWith('..') && !data.dir.startsWith(path))
    expect(outside).toEqual([])
    const kept = await storedMediaPaths(gw)
    expect(kept.length).toBeGreaterThan(0)
    expect(kept.filter((path) => !/^media\/app\/med_[0-9a-f]{32}\.png$/.test(path))).toEqual([])
  })
})

describe('admin media upload: a failed upload leaves nothing behind', () => {
  /** Bytes the store holds that are not kept media: a write's temporary part. */
  const parts = async () => (await storedMediaPaths(gw)).filter(isMediaPart)
  const until = async (cond: () => boolean | Promise<boolean>, what: string) => {
    for (let i = 0; i < 500 && !(await cond()); i++) await new Promise((r) => setTimeout(r, 10))
    if (!(await cond())) throw new Error(`timed out waiting for ${what}`)
  }

  it('a chunked upload past 60 MB: 413 request_too_large, no row, no part file', async () => {
    async function* chunks() {
      yield PNG
      const piece = Buffer.alloc(1_000_000)
      for (let i = 0; i < 60; i++) yield piece
    }
    const res = await request(`${gw.url}/admin/v1/media?request=req_big`, {
      method: 'POST', headers: { authorization: `Bearer ${gw.adminToken}`, 'content-type': 'image/png' }, body: Readable.from(chunks()),
    })
    expect(res.statusCode).toBe(413)
    expect(((await res.body.json()) as { error: { code: string } }).error.code).toBe('request_too_large')
    expect(await gw.services.store.media.byRequest('req_big')).toEqual([])
    await until(async () => (await parts()).length === 0, 'the part file to go')
  })

  it('a client that leaves mid-upload: the part file written so far goes, and no row is made', async () => {
    const socket = connect(gw.port, '127.0.0.1')
    socket.on('error', () => {})
    socket.write(`POST /admin/v1/media?request=req_gone HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${gw.adminToken}\r\nContent-Type: image/png\r\nContent-Length: 10000000\r\n\r\n`)
    // past one 1 MiB chunk, so that a database store has a part row to show too
    socket.write(Buffer.concat([PNG, Buffer.alloc(1_500_000)]))
    await until(async () => (await parts()).length === 1, 'the upload to be written')
    socket.destroy()
    await until(async () => (await parts()).length === 0, 'the part file to go')
    expect(await gw.services.store.media.byRequest('req_gone')).toEqual([])
  })
})

describe('file modes', () => {
  it.runIf(process.platform !== 'win32')('after writing the store, media and settings, every dir of the data dir is 0700 and every file 0600', async () => {
    vendor.state.nextAnswer = { data: [{ url: `${vendor.origin}/files/ok.png` }] }
    const res = await gw.post('/v1/images/generations', { model: 'test-image', prompt: 'a fox' })
    expect(res.status).toBe(200)
    const requestId = res.headers.get('x-request-id')!
    for (let i = 0; i < 200 && (await gw.services.store.media.byRequest(requestId)).length === 0; i++) await new Promise((r) => setTimeout(r, 10))
    const saved = await gw.services.store.media.byRequest(requestId)
    expect(saved).toHaveLength(1)
    expect((await gw.services.media.read(saved[0].path))?.size).toBe(PNG.length)
    const settings = await fetch(`${gw.url}/admin/v1/settings`, { method: 'PUT', headers: { authorization: `Bearer ${gw.adminToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ port: 8788, language: 'zh' }) })
    expect(settings.status).toBe(200)

    // what every store leaves in the data dir (a SQLite store adds itself and the media: files-and-links-sqlite.test.ts)
    expect((statSync(data.dir).mode & 0o777).toString(8)).toBe('700')
    const entries = walkDir(data.dir).map((e) => ({ path: e.path, dir: e.dir, mode: e.mode.toString(8) }))
    expect(entries.map((e) => e.path)).toEqual(expect.arrayContaining(['secret.key', 'settings.json']))
    expect(entries.filter((e) => e.dir ? e.mode !== '700' : e.mode !== '600')).toEqual([])
  })
})

describe('SVG from a vendor is never an image', () => {
  it('an inline (b64) SVG makes the answer malformed: 502, unbilled', async () => {
    vendor.state.nextAnswer = { data: [{ b64_json: SVG.toString('base64') }] }
    expect(await errorOf(await gw.post('/v1/images/generations', { model: 'test-image', prompt: 'x' }))).toEqual([502, {
      code: 'upstream_error', param: null, type: 'upstream_error', message: 'The model is temporarily unavailable after trying every account (malformed answer).',
      upstream: { reason: 'bad_answer', status: null, message: null },
    }])
    expect((await gw.services.store.ledger.recent(null, 1))[0]).toMatchObject({ status: 502, cost_nano: 0 })
  })

  it('a linked SVG (declared as SVG or as PNG) is left as a link, never saved; a PNG beside it is saved and served sandboxed', async () => {
    const links = [`${vendor.origin}/files/evil.svg`, `${vendor.origin}/files/lying.png`, `${vendor.origin}/files/ok.png`]
    vendor.state.nextAnswer = { data: links.map((url) => ({ url })) }
    const res = await gw.post('/v1/images/generations', { model: 'test-image', prompt: 'x' })
    expect(res.status).toBe(200)
    expect(((await res.json()) as { data: Array<{ url: string }> }).data.map((d) => d.url)).toEqual(links)
    const requestId = res.headers.get('x-request-id')!
    for (let i = 0; i < 200 && (await gw.services.store.media.byRequest(requestId)).length === 0; i++) await new Promise((r) => setTimeout(r, 10))
    const saved = (await gw.services.store.media.byRequest(requestId))
    expect(saved.map((m) => [m.source_url, m.mime_type])).toEqual([[links[2], 'image/png']])

    const served = await fetch(`${gw.url}/admin/v1/media/${saved[0].id}`, { headers: { authorization: `Bearer ${gw.adminToken}` } })
    expect([served.status, served.headers.get('content-type'), served.headers.get('content-security-policy'), served.headers.get('x-content-type-options'), served.headers.get('content-disposition')])
      .toEqual([200, 'image/png', 'sandbox', 'nosniff', null])
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG)
  })
})

describe('a PNG whose header claims 100000x100000 pixels', () => {
  const dataUrl = (bytes: Buffer) => `data:image/png;base64,${bytes.toString('base64')}`
  const refused = (param: string) => [400, { code: 'invalid_request', param, type: 'invalid_request_error', message: `${param} is 100000x100000 pixels; images of at most 100000000 pixels are accepted.` }]

  it('as a multipart reference with a mask, and as a data URL: 400 before any decode, the gateway alive and its memory flat', async () => {
    const callsBefore = vendor.state.calls
    const rssBefore = process.memoryUsage().rss
    const form = new FormData()
    form.append('model', 'test-image')
    form.append('prompt', 'x')
    form.append('image', new Blob([new Uint8Array(lyingPng())], { type: 'image/png' }), 'a.png')
    form.append('mask', new Blob([new Uint8Array(makePng(64, 64, { alpha: true }))], { type: 'image/png' }), 'mask.png')
    const multipart = await fetch(`${gw.url}/v1/images/edits`, { method: 'POST', headers: { authorization: `Bearer ${TEST_KEY}` }, body: form })
    expect(await errorOf(multipart)).toEqual(refused('image[0]'))

    const json = await gw.post('/v1/images/edits', { model: 'test-image', prompt: 'x', image: dataUrl(lyingPng()), mask: dataUrl(makePng(64, 64, { alpha: true })) })
    expect(await errorOf(json)).toEqual(refused('image[0]'))
    const asMask = await gw.post('/v1/images/edits', { model: 'test-image', prompt: 'x', image: dataUrl(makePng(64, 64)), mask: dataUrl(lyingPng()) })
    expect(await errorOf(asMask)).toEqual(refused('mask'))

    expect(vendor.state.calls).toBe(callsBefore)
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(200 * 1024 * 1024)
    expect((await gw.get('/v1/models')).status).toBe(200)
  })

  it('as a downloaded link: the same 400', async () => {
    vendor.hosted.set('/files/huge.png', { bytes: lyingPng(), type: 'image/png' })
    const res = await gw.post('/v1/images/edits', { model: 'test-image', prompt: 'x', image: `${vendor.origin}/files/huge.png` })
    expect(await errorOf(res)).toEqual(refused('image[0]'))
  })
})

describe('outbound link guard', () => {
  const reason = (address: string) => `points to a private or reserved address (${address}), which the gateway does not fetch`
  const refusedLink = (url: string, detail: string) => [400, { code: 'invalid_request', param: 'image[0]', type: 'invalid_request_error', message: `The image at ${url} ${detail}.` }]
  const editWith = (g: TestGateway, url: string) => g.post('/v1/images/edits', { model: 'test-image', prompt: 'x', image: url })

  it.each([
    ['http://127.0.0.1:{port}/files/ok.png', '127.0.0.1'],
    ['http://10.0.0.1/a.png', '10.0.0.1'],
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
    ['http://[::1]:{port}/files/ok.png', '::1'],
  ])('by default, %s is refused with 400 naming the link, and never fetched', async (template, address) => {
    const url = template.replace('{port}', new URL(vendor.origin).port)
    const downloads = vendor.state.downloads.length
    expect(await errorOf(await editWith(strict, url))).toEqual(refusedLink(url, reason(address)))
    expect(vendor.state.downloads.length).toBe(downloads)
  })

  it('by default, a name resolving to loopback (localhost) is refused by its resolved address', async () => {
    const url = `http://localhost:${new URL(vendor.origin).port}/files/ok.png`
    const downloads = vendor.state.downloads.length
    const resolved = (await lookup('localhost', { all: true })).map((a) => a.address)
    const res = await editWith(strict, url)
    const [status, error] = await errorOf(res) as [number, { message: string }]
    expect(status).toBe(400)
    expect(resolved.map((a) => `The image at ${url} ${reason(a)}.`)).toContain(error.message)
    expect(vendor.state.downloads.length).toBe(downloads)
  })

  it('by default, vendor result links on a private address are left as links, not fetched', async () => {
    const downloads = vendor.state.downloads.length
    vendor.state.nextAnswer = { data: [{ url: `${vendor.origin}/files/ok.png` }] }
    const res = await strict.post('/v1/images/generations', { model: 'test-image', prompt: 'x' })
    expect(((await res.json()) as { data: Array<{ url: string }> }).data[0].url).toBe(`${vendor.origin}/files/ok.png`)
    await new Promise((r) => setTimeout(r, 100))
    expect((await strict.services.store.media.byRequest(res.headers.get('x-request-id')!))).toEqual([])
    expect(vendor.state.downloads.length).toBe(downloads)
  })

  it('with private addresses allowed, a link on 127.0.0.1 works, but a redirect to the metadata address is refused at that hop', async () => {
    vendor.state.nextAnswer = { data: [{ b64_json: PNG.toString('base64') }] }
    expect((await editWith(gw, `${vendor.origin}/files/ok.png`)).status).toBe(200)
    vendor.state.redirectTo = 'http://169.254.169.254/latest/meta-data/iam'
    const url = `${vendor.origin}/redirect`
    expect(await errorOf(await editWith(gw, url))).toEqual(refusedLink(url, `redirects to http://169.254.169.254, which ${reason('169.254.169.254')}`))
    expect(await errorOf(await editWith(gw, 'http://169.254.169.254/latest/meta-data/'))).toEqual(refusedLink('http://169.254.169.254/latest/meta-data/', reason('169.254.169.254')))
  })
})
