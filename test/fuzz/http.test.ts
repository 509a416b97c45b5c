// Fuzzes what surrounds a body: headers (auth forms, content types, languages, hosts, origins), the framing
// (Content-Length that lies, chunked bodies), and the query strings and path segments of every GET route.
// See harness.ts for seeds, run counts and replaying a failure.
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROUTES } from '../../electron/gateway/routes/index.js'
import type { Route } from '../../electron/gateway/router.js'
import { TEST_KEY } from '../helpers/gateway.js'
import { startFuzzGateway, type FuzzGateway } from './fuzz-gateway.js'
import { expectHealthy, expectSoundAnswer, fuzzParams, send, testTimeout, type Protocol } from './harness.js'
import { rawRequest } from '../helpers/raw-http.js'
import { anyText, schemaArbitrary } from './schema-arbitrary.js'

let fz: FuzzGateway
beforeAll(async () => {
  fz = await startFuzzGateway()
})
afterAll(() => fz.stop())

/** Header-safe text (visible latin-1 and spaces): what an HTTP parser lets through to the gateway. */
const headerText = (maxLength: number) =>
  fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).filter((c) => c !== 0x7f).map((c) => String.fromCharCode(c)), maxLength })
const sometimes = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 })

function headersFor(key: string, port: number) {
  return fc.record({
    authorization: sometimes(fc.oneof(
      fc.constantFrom(`Bearer ${key}`, `bearer ${key}`, `Bearer  ${key}`, `Bearer ${key} `, `BEARER ${key}`, 'Bearer', 'Bearer ', key, 'Basic dXNlcjpwYXNz', `Bearer ${key}x`, `Bearer sk-${'a'.repeat(8_000)}`),
      headerText(80).map((t) => `Bearer ${t}`),
    )),
    'x-api-key': sometimes(fc.oneof(fc.constant(key), headerText(60))),
    'content-type': sometimes(fc.oneof(
      fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', 'multipart/form-data; boundary=x', 'application/json; charset=utf-16', '*/*', ''),
      headerText(40),
    )),
    'accept-language': sometimes(fc.oneof(fc.constantFrom('zh', 'zh-CN,zh;q=0.9,en;q=0.8', 'en-US', '*', 'fr', 'zh;q=abc', ',,,', 'x'.repeat(4_000)), headerText(40))),
    host: fc.oneof({ arbitrary: fc.constant(`127.0.0.1:${port}`), weight: 6 }, fc.constantFrom(`localhost:${port}`, '[::1]', 'evil.example', '', `localhost:${port}:1`, 'LOCALHOST')),
    origin: sometimes(fc.oneof(fc.constantFrom('null', 'http://evil.example', `http://127.0.0.1:${port}`), headerText(40))),
    prefer: sometimes(fc.constantFrom('respond-async', 'respond-async, wait=1', 'x')),
    'idempotency-key': sometimes(headerText(300)),
  })
}

/** How the body is framed: an honest length, one that lies either way, or chunks. */
const framing = fc.constantFrom('length', 'chunked', 'shorter', 'longer', 'none')

function head(path: string, headers: Record<string, string | undefined>, frame: string, length: number): string {
  const framed = { ...headers } as Record<string, string | undefined>
  if (frame === 'length') framed['content-length'] = String(length)
  if (frame === 'shorter') framed['content-length'] = String(Math.max(0, length - 3))
  if (frame === 'longer') framed['content-length'] = String(length + 10)
  if (frame === 'chunked') framed['transfer-encoding'] = 'chunked'
  const lines = Object.entries(framed).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}: ${v}`)
  return `POST ${path} HTTP/1.1\r\n${[...lines, 'connection: close'].join('\r\n')}\r\n\r\n`
}

const chunked = (body: Buffer) => Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')])

describe('headers and framing', () => {
  it('answers every endpoint soundly whatever the headers and framing', async () => {
    const port = Number(new URL(fz.gw.url).port)
    const target = fc.constantFrom(...fz.targets.map((t) => t.route.endpoint))
    const request = target.chain((e) => {
      const t = fz.targets.find((x) => x.route.endpoint === e)!
      return fc.tuple(fc.constant(e), schemaArbitrary(t.bodySchema, t.overrides), headersFor(t.key, port), framing)
    })
    await fc.assert(fc.asyncProperty(request, async ([endpoint, value, headers, frame]) => {
      const t = fz.targets.find((x) => x.route.endpoint === endpoint)!
      const body = Buffer.from(JSON.stringify(value))
      // A length longer than the body leaves the gateway waiting for bytes that never come: the client gives up.
      const timeoutMs = frame === 'longer' ? 300 : 15_000
      const answer = await rawRequest(fz.gw.url, head(t.path, headers, frame, body.length), frame === 'chunked' ? chunked(body) : body, timeoutMs)
      if (answer === undefined) return void expect(frame, JSON.stringify(headers).slice(0, 500)).toBe('longer')
      expectSoundAnswer(answer, t.protocol, `${t.path} ${frame} ${JSON.stringify(headers).slice(0, 300)}`)
    }), fuzzParams())
    await expectHealthy(fz.gw, TEST_KEY)
  }, testTimeout())
})

/** GET routes of the public API and the admin API (the app's HTML pages are not API answers). */
const getRoutes = (): Route[] => ROUTES.filter((r) => r.method === 'GET' && !r.endpoint.startsWith('app') && r.endpoint !== 'admin.login')

/** A path segment: ids that exist, ids that do not, and encodings that are wrong. */
const segment = fc.oneof(
  fc.constantFrom('main', 'fuzz-gpt', 'chat', 'ui', '...', '%', '%E0%A4%A', '%00', '%2F', 'a%20b', '__proto__', 'constructor'),
  anyText(20).filter((t) => t !== '').map(encodeURIComponent),
  fc.string({ minLength: 1, maxLength: 2_000 }).map(encodeURIComponent),
// Not `.` or `..` (encodeURIComponent leaves them as they are): URL parsing removes them, and the path would name
// another route.
).filter((s) => s !== '.' && s !== '..')

const queryValue = fc.oneof(
  fc.constantFrom('', '0', '-1', '1e9', 'NaN', '500', '501', 'ok', 'error', 'video', 'image', '2026-01-01T00:00:00Z', 'yes', '%', '%zz', '%E0%A4%A', '[]'),
  anyText(20).map(encodeURIComponent),
)

function pathOf(route: Route, segments: string[]): string {
  if (typeof route.path === 'string') return route.path
  let i = 0
  return route.docPath!.replace(/\{\w+\}/g, () => segments[i++ % segments.length])
}

describe('GET routes', () => {
  it('answers every GET route soundly whatever the path segments and query string', async () => {
    const names = fc.oneof(fc.constantFrom(...new Set(getRoutes().flatMap((r) => (r.doc.query ?? []).map((q) => q.name)))), fc.constantFrom('key', '__proto__', 'a[]', ''), anyText(8))
    const query = fc.array(fc.tuple(names, queryValue), { maxLength: 6 }).map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join('&'))
    const routes = getRoutes()
    const request = fc.tuple(fc.nat({ max: routes.length - 1 }), fc.array(segment, { minLength: 1, maxLength: 2 }), query, fc.boolean())
    await fc.assert(fc.asyncProperty(request, async ([index, segments, q, withQuery]) => {
      const route = routes[index]
      const auth = route.auth === 'admin' ? fz.gw.adminToken : TEST_KEY
      const path = `${pathOf(route, segments)}${withQuery ? `?${q}` : ''}`
      const answer = await send(`${fz.gw.url}${path}`, { headers: { authorization: `Bearer ${auth}` } })
      expectSoundAnswer(answer, route.protocol as Protocol, `GET ${path.slice(0, 300)}`)
    }), fuzzParams())
    await expectHealthy(fz.gw, TEST_KEY)
  }, testTimeout())
})
