import { existsSync } from 'node:fs'
import { extname, join, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { RequestContext } from '../context.js'
import { fileSize } from '../media/media-files.js'
import { sendFile } from '../media/send-file.js'
import type { Services } from '../services.js'

/**
 * The page's Content-Security-Policy: only our own scripts and connections, and no remote image or video. A page
 * that could load `https:` images would let a model's answer send chat text anywhere (`![](https://x/?q=…)`):
 * images and videos come from the gateway ('self': kept copies, and a chat image fetched on a click through
 * POST /admin/v1/linked-image), data: or blob: URLs.
 */
export const RENDERER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

/**
 * The one exception: the mask editor's "select object" worker (`assets/select-worker-<hash>.js`) runs
 * OpenCV.js, an Emscripten build that compiles WebAssembly and whose bindings build functions from strings
 * (embind's `new Function`). A worker's script is governed by the CSP of its own response, so only that file
 * gets 'unsafe-eval' and 'wasm-unsafe-eval': the page keeps the strict policy, and the worker has no DOM and
 * only ever receives pixels and numbers from the page.
 */
export const SELECT_WORKER_CSP = RENDERER_CSP.replace("script-src 'self'", "script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'")
export const SELECT_WORKER_FILE = /^select-worker-[A-Za-z0-9_-]+\.js$/

const SECURITY_HEADERS = {
  'content-security-policy': RENDERER_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon', '.woff2': 'font/woff2', '.json': 'application/json',
}

/** dist/renderer of this checkout (built by `npm run build:renderer`), found from the source or the bundle. */
export function defaultRendererDir(): string | undefined {
  const here = fileURLToPath(new URL('.', import.meta.url))
  return [join(here, '../../../dist/renderer'), join(here, '../renderer')].find((dir) => existsSync(join(dir, 'index.html')))
}

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Gatehouse</title>
<p>The app's pages are not built. Run <code>npm run build:renderer</code> (or <code>npm start</code>, which builds them) and reload.</p>`

/** GET / and /assets/*: the built renderer, with the CSP; hashed assets are cached for good. */
export async function serveRenderer(ctx: RequestContext, { app }: Services, params: string[]): Promise<void> {
  const file = params[0] === undefined ? 'index.html' : `assets/${params[0]}`
  const root = app.rendererDir
  const path = root ? resolve(root, file) : undefined
  const size = path && path.startsWith(resolve(root!) + sep) ? await fileSize(path) : undefined
  if (size === undefined) {
    const status = params[0] === undefined ? 503 : 404
    const body = params[0] === undefined ? NOT_BUILT : 'not found'
    ctx.res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(body) }).end(body)
    return
  }
  const cache = params[0] === undefined ? 'no-cache' : 'public, max-age=31536000, immutable'
  const csp = params[0] !== undefined && SELECT_WORKER_FILE.test(params[0]) ? { 'content-security-policy': SELECT_WORKER_CSP } : {}
  await sendFile(ctx, path!, size, { ...SECURITY_HEADERS, ...csp, 'content-type': TYPES[extname(path!)] ?? 'application/octet-stream', 'cache-control': cache })
}
