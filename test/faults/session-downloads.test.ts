// An admin session's kept-media downloads end with the session: signing out, or its expiry, cuts a download under
// way within a second, even one stalled on a reader that stopped reading. Runs on both stores.
import { get, type IncomingMessage } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chatConfig, startTestGateway, type TestGateway } from '../helpers/gateway.js'
import { until } from '../helpers/until.js'
import { browserSignIn, type BrowserSession } from '../integration/admin/admin-helpers.js'

/** Far more than the socket buffers of both ends hold, so the download is still under way when the session ends. */
const SIZE = 24 * 1024 * 1024
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(SIZE - 8, 7)])
const IDLE_MS = 3_000

let gw: TestGateway

beforeAll(async () => {
  gw = await startTestGateway(chatConfig([]), undefined, { adminSessions: { idleMs: IDLE_MS } })
})
afterAll(() => gw?.stop())

/** The session's id: the cookie's value. */
const sessionId = (s: BrowserSession) => s.cookie.slice(s.cookie.indexOf('=') + 1)

/**
 * Keeps the image as the app does, and starts its download as `<img>` does (cookie and media token), on a connection of
 * its own, reading one chunk and then nothing: the gateway's writes wait on the reader.
 */
async function startDownload(session: BrowserSession) {
  const upload = await fetch(`${gw.url}/admin/v1/media?request=req_download`, { method: 'POST', headers: { ...session.headers, 'content-type': 'image/png' }, body: PNG })
  expect(upload.status).toBe(201)
  const { url } = (await upload.json()) as { url: string }
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    get(`${gw.url}${url}?media_token=${session.mediaToken}`, { headers: { cookie: session.cookie }, agent: false }, resolve).on('error', reject)
  })
  const startedAt = Date.now()
  expect([res.statusCode, res.headers['content-length']]).toEqual([200, String(SIZE)])
  res.on('error', () => {}) // a download cut short is what some tests expect; `close` says it
  let received = await new Promise<number>((resolve) => res.once('data', (chunk: Buffer) => {
    res.pause()
    resolve(chunk.length)
  }))
  await until('the download is under way', 2_000, () => gw.services.sessionDownloads.count(sessionId(session)) === 1)
  return {
    startedAt,
    /** Reads the rest as fast as it comes: the bytes received in all, and whether the body was cut short. */
    readRest(): Promise<{ received: number; cut: boolean }> {
      return new Promise((resolve) => {
        res.on('data', (chunk: Buffer) => (received += chunk.length))
        res.once('close', () => resolve({ received, cut: !res.complete }))
        res.resume()
      })
    },
  }
}

/** `promise`, or a failure naming `what` after `ms`. */
async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`not within ${ms} ms: ${what}`)), ms)))
  try {
    return await Promise.race([promise, late])
  } finally {
    clearTimeout(timer)
  }
}

describe("a session's media downloads end with the session", () => {
  it('signing out (DELETE /admin/v1/session) cuts a download under way within a second', async () => {
    const session = await browserSignIn(gw)
    const download = await startDownload(session)
    const signedOutAt = Date.now()
    expect((await fetch(`${gw.url}/admin/v1/session`, { method: 'DELETE', headers: session.headers })).status).toBe(204)
    const rest = await within(1_000, 'the download is cut', download.readRest())
    expect(rest.cut).toBe(true)
    expect(rest.received).toBeLessThan(SIZE)
    expect(Date.now() - signedOutAt).toBeLessThan(1_000)
    expect(gw.services.sessionDownloads.count(sessionId(session))).toBe(0)
  })

  it("the session's expiry (idle here) cuts a download under way within a second of it", async () => {
    const session = await browserSignIn(gw)
    const download = await startDownload(session)
    // The download's own request was the session's last use.
    const expiresAt = download.startedAt + IDLE_MS
    const endedAt = await until('the download is ended', IDLE_MS + 2_000, () => gw.services.sessionDownloads.count(sessionId(session)) === 0 && Date.now())
    expect(endedAt - expiresAt).toBeLessThan(1_000)
    expect(endedAt - download.startedAt).toBeGreaterThan(IDLE_MS - 500)
    // Read only now: had the gateway not cut it, the whole file would come.
    const rest = await within(2_000, 'the rest is read', download.readRest())
    expect(rest.cut).toBe(true)
    expect(rest.received).toBeLessThan(SIZE)
    expect(gw.services.admin.sessions.size).toBe(0)
  })
})
