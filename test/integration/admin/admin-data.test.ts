import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chatConfig, startGatewayOnTestStore, startTestGateway, tempDataDir, type TestGateway } from '../../helpers/gateway.js'
import { adminClient, apiError } from './admin-helpers.js'

describe('admin API: request log, tasks, media, settings, saved state', () => {
  const data = tempDataDir()
  let gw: TestGateway
  let admin: ReturnType<typeof adminClient>
  let closeCurrent: () => Promise<void>
  beforeAll(async () => {
    gw = await startTestGateway(chatConfig([]), { dir: data.dir, remove: () => {} })
    admin = adminClient(gw)
    closeCurrent = () => gw.stop()
  })
  afterAll(async () => {
    await closeCurrent()
    data.remove()
  })

  it('lists requests newest first, by id and filters, in pages', async () => {
    const ids: string[] = []
    for (let i = 0; i < 3; i++) ids.push((await gw.get('/v1/models')).headers.get('x-request-id')!)
    const failed = (await gw.get('/v1/models/unknown-model')).headers.get('x-request-id')!
    const one = await admin.get(`/admin/v1/requests?id=${ids[1]}`)
    expect(one.json).toEqual({
      data: [{
        id: ids[1], createdAt: expect.any(Number), keyId: expect.stringMatching(/^key_/), group: 'main', model: null, endpoint: 'models.list',
        status: 200, errorCode: null, upstream: null, inputTokens: null, outputTokens: null, cost: 0, latencyMs: expect.any(Number),
        attempts: null, usageSource: null, breakdown: null,
      }],
      next: null,
    })
    const errors = await admin.get('/admin/v1/requests?status=error')
    expect(errors.json.data.map((r: { id: string }) => r.id)).toEqual([failed])
    expect((await admin.get('/admin/v1/requests?status=404')).json.data[0]).toMatchObject({ id: failed, errorCode: 'model_not_found' })

    const page1 = await admin.get('/admin/v1/requests?endpoint=models.list&limit=2')
    expect(page1.json.data.map((r: { id: string }) => r.id)).toEqual([ids[2], ids[1]])
    const page2 = await admin.get(`/admin/v1/requests?endpoint=models.list&limit=2&before=${encodeURIComponent(page1.json.next)}`)
    expect(page2.json.data.map((r: { id: string }) => r.id)).toEqual([ids[0]])
    expect(page2.json.next).toBeNull()
    expect((await admin.get(`/admin/v1/requests?since=${Date.now() + 60_000}`)).json.data).toEqual([])

    expect((await admin.get('/admin/v1/requests?limit=0')).json).toEqual(apiError('invalid_request', 'Query parameter limit: must be an integer from 1 to 500', 'limit'))
    expect((await admin.get('/admin/v1/requests?status=bad')).json).toEqual(apiError('invalid_request', 'Query parameter status: must be ok, error or an HTTP status code', 'status'))
    expect((await admin.get('/admin/v1/requests?since=yesterday')).json.error.param).toBe('since')
    expect((await admin.get('/admin/v1/requests?before=x')).json.error.param).toBe('before')
  })

  it('lists tasks of a kind and refuses other kinds', async () => {
    expect((await admin.get('/admin/v1/tasks?kind=video')).json).toEqual([])
    expect((await admin.get('/admin/v1/tasks?kind=audio')).json).toEqual(apiError('invalid_request', 'Query parameter kind: must be video or image', 'kind'))
  })

  it('keeps uploaded media, streams it back with ranges, and lists it by request', async () => {
    // A PNG signature, then arbitrary bytes: the type is judged by the magic bytes.
    const bytes = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(Array.from({ length: 292 }, (_, i) => i % 256))])
    const res = await fetch(`${gw.url}/admin/v1/media?request=req_abc`, { method: 'POST', headers: { authorization: `Bearer ${gw.adminToken}`, 'content-type': 'image/png' }, body: bytes })
    expect(res.status).toBe(201)
    const item = (await res.json()) as { id: string; url: string }
    expect(item).toEqual({ id: expect.stringMatching(/^med_[0-9a-f]{32}$/), requestId: 'req_abc', kind: 'image', mimeType: 'image/png', url: `/admin/v1/media/${item.id}`, sourceUrl: null, createdAt: expect.any(Number) })
    const whole = await fetch(`${gw.url}${item.url}`, { headers: { authorization: `Bearer ${gw.adminToken}` } })
    expect(whole.headers.get('content-type')).toBe('image/png')
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(bytes)
    const part = await fetch(`${gw.url}${item.url}`, { headers: { authorization: `Bearer ${gw.adminToken}`, range: 'bytes=10-19' } })
    expect(part.status).toBe(206)
    expect(Buffer.from(await part.arrayBuffer())).toEqual(bytes.subarray(10, 20))
    expect((await admin.get('/admin/v1/media?request=req_abc')).json).toEqual([item])
    expect((await admin.get('/admin/v1/media/nope')).json).toEqual(apiError('not_found', 'No media "nope"', null, 'not_found_error'))

    const text = await fetch(`${gw.url}/admin/v1/media?request=r`, { method: 'POST', headers: { authorization: `Bearer ${gw.adminToken}`, 'content-type': 'text/html' }, body: '<script>' })
    expect(text.status).toBe(400)
    expect(((await text.json()) as { error: { param: string } }).error.param).toBe('content-type')
    expect((await admin.post('/admin/v1/media')).json).toEqual(apiError('invalid_request', 'missing request field', 'request'))
  })

  it('saves settings to settings.json and validates them', async () => {
    expect((await admin.get('/admin/v1/settings')).json).toEqual({ port: 8787, language: 'en', bodies: { keep: false, keepMedia: false, count: 200 } })
    expect((await admin.put('/admin/v1/settings', { port: 70000, language: 'en' })).json).toEqual(apiError('invalid_request', 'port: must be <= 65535', 'port'))
    expect((await admin.put('/admin/v1/settings', { port: 9000, language: 'fr' })).json).toEqual(apiError('invalid_request', 'language: must be equal to one of the allowed values (en, zh)', 'language'))
    expect((await admin.put('/admin/v1/settings', { port: 9000, language: 'zh' })).json).toEqual({ port: 9000, language: 'zh', bodies: { keep: false, keepMedia: false, count: 200 } })
    expect(JSON.parse(readFileSync(join(data.dir, 'settings.json'), 'utf8'))).toEqual({ port: 9000, language: 'zh' })
  })

  it('keeps saved panel state across a restart', async () => {
    expect((await admin.get('/admin/v1/state/chat')).json).toEqual(apiError('not_found', 'No state "chat"', null, 'not_found_error'))
    const value = { conversations: [{ id: 'c1', title: '你好', messages: [{ role: 'user', content: 'hi' }] }] }
    expect((await admin.put('/admin/v1/state/chat', { value })).status).toBe(204)
    expect((await admin.put('/admin/v1/state/other', { value })).status).toBe(404)
    expect((await admin.put('/admin/v1/state/chat', { other: 1 })).json).toEqual(apiError('invalid_request', 'missing value field', 'value'))
    await gw.stop()
    const restarted = await startGatewayOnTestStore({ dataDir: data.dir, port: 0 })
    closeCurrent = () => restarted.close(1_000)
    const reread = await adminClient({ ...gw, url: restarted.url, adminToken: restarted.adminToken }).get('/admin/v1/state/chat')
    expect(reread.json).toEqual({ value, updatedAt: expect.any(Number) })
  })
})

const rawStatus = (port: number, path: string) =>
  new Promise<number>((resolve, reject) => {
    request({ host: '127.0.0.1', port, path }, (res) => {
      res.resume()
      resolve(res.statusCode!)
    }).on('error', reject).end()
  })

describe('the app pages', () => {
  const data = tempDataDir()
  const renderer = tempDataDir()
  let gw: Awaited<ReturnType<typeof startGatewayOnTestStore>>
  beforeAll(async () => {
    mkdirSync(join(renderer.dir, 'assets'))
    writeFileSync(join(renderer.dir, 'index.html'), '<!doctype html><script type="module" src="/assets/app.js"></script>')
    writeFileSync(join(renderer.dir, 'assets', 'app.js'), 'console.log(1)')
    writeFileSync(join(renderer.dir, 'assets', 'select-worker-Ab1_x-9.js'), 'importScripts("/assets/opencv-1.js")')
    writeFileSync(join(data.dir, 'outside.txt'), 'secret')
    gw = await startGatewayOnTestStore({ dataDir: data.dir, port: 0, rendererDir: renderer.dir })
  })
  afterAll(async () => {
    await gw.close(1_000)
    data.remove()
    renderer.remove()
  })

  it('serves the renderer with a strict CSP and nothing outside its folder', async () => {
    const page = await fetch(`${gw.url}/`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
    expect(page.headers.get('content-security-policy')).toContain("connect-src 'self'")
    expect(page.headers.get('x-frame-options')).toBe('DENY')
    expect(page.headers.get('access-control-allow-origin')).toBeNull()
    const script = await fetch(`${gw.url}/assets/app.js`)
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(script.headers.get('cache-control')).toContain('immutable')
    expect(await script.text()).toBe('console.log(1)')
    // Sent raw: a WHATWG URL would resolve the dots before they left the client.
    for (const path of ['/assets/..%2F..%2Foutside.txt', '/assets/%2e%2e', '/assets/..', '/assets/missing.js']) {
      expect(await rawStatus(gw.port, path)).toBe(404)
    }
  })

  it("lets only the select-object worker compile WebAssembly and run OpenCV.js's generated bindings", async () => {
    const strict = "script-src 'self';"
    const worker = await fetch(`${gw.url}/assets/select-worker-Ab1_x-9.js`)
    expect(worker.status).toBe(200)
    expect(worker.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    const csp = worker.headers.get('content-security-policy')!
    expect(csp).toContain("script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval';")
    expect(csp).toContain("connect-src 'self'")
    expect(csp).toContain("default-src 'self'")
    expect(worker.headers.get('x-content-type-options')).toBe('nosniff')
    for (const path of ['/', '/assets/app.js']) {
      const res = await fetch(`${gw.url}${path}`)
      expect(res.headers.get('content-security-policy'), path).toContain(strict)
      expect(res.headers.get('content-security-policy'), path).not.toContain('eval')
      await res.arrayBuffer()
    }
    await worker.arrayBuffer()
  })

  it('says so when the renderer is not built', async () => {
    const other = tempDataDir()
    const bare = await startGatewayOnTestStore({ dataDir: other.dir, port: 0, rendererDir: null })
    const res = await fetch(`${bare.url}/`)
    expect(res.status).toBe(503)
    expect(await res.text()).toContain('npm run build:renderer')
    await bare.close(1_000)
    other.remove()
  })
})
