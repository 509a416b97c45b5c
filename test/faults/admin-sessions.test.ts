import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_ROUTES } from '../../electron/gateway/routes/admin.js'
import { chatConfig, startTestGateway, type TestGateway } from '../helpers/gateway.js'
import { browserSignIn, UNAUTHORIZED, type BrowserSession } from '../integration/admin/admin-helpers.js'

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(24, 7)])
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Every admin API route, with its path parameters filled in. */
const adminCalls = ADMIN_ROUTES.filter((r) => r.auth === 'admin').map((r) => ({ method: r.method, path: (r.docPath ?? String(r.path)).replace(/\{\w+\}/g, 'chat') }))

async function expectRefused(res: Response): Promise<void> {
  expect(res.status).toBe(401)
  expect(await res.json()).toEqual(UNAUTHORIZED)
}

describe('admin sessions: the cookie alone is not enough', () => {
  let gw: TestGateway
  let browser: BrowserSession
  beforeAll(async () => {
    gw = await startTestGateway(chatConfig([]))
    browser = await browserSignIn(gw)
  })
  afterAll(() => gw.stop())

  it('refuses every admin route to the cookie alone and to the header alone', async () => {
    expect(adminCalls.length).toBeGreaterThan(25)
    for (const { method, path } of adminCalls) {
      await expectRefused(await fetch(`${gw.url}${path}`, { method, headers: { cookie: browser.cookie } }))
      await expectRefused(await fetch(`${gw.url}${path}`, { method, headers: { 'x-gatehouse-session': browser.token } }))
    }
  })

  it('lets the cookie and the session header through together', async () => {
    for (const path of ['/admin/v1/groups', '/admin/v1/keys', '/admin/v1/account', '/admin/v1/settings', '/admin/v1/session']) {
      expect((await fetch(`${gw.url}${path}`, { headers: browser.headers })).status).toBe(200)
    }
    const created = await fetch(`${gw.url}/admin/v1/keys`, { method: 'POST', headers: { ...browser.headers, 'content-type': 'application/json' }, body: JSON.stringify({ group: 'main' }) })
    expect(created.status).toBe(201)
  })

  // The token with its last character changed (to one it surely is not).
  const forged = (token: string) => `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`

  it("refuses one session's token with another session's cookie, and a forged token", async () => {
    const other = await browserSignIn(gw)
    await expectRefused(await fetch(`${gw.url}/admin/v1/groups`, { headers: { cookie: browser.cookie, 'x-gatehouse-session': other.token } }))
    await expectRefused(await fetch(`${gw.url}/admin/v1/groups`, { headers: { cookie: browser.cookie, 'x-gatehouse-session': forged(browser.token) } }))
    await expectRefused(await fetch(`${gw.url}/admin/v1/groups`, { headers: { cookie: browser.cookie, 'x-gatehouse-session': '' } }))
  })

  it('never hands the session token or the media token to a holder of the cookie alone', async () => {
    for (const method of ['GET', 'POST']) {
      const res = await fetch(`${gw.url}/admin/v1/session`, { method, headers: { cookie: browser.cookie } })
      expect(res.status).toBe(401)
      const text = await res.text()
      expect(text).not.toContain(browser.token)
      expect(text).not.toContain(browser.mediaToken)
      expect(res.headers.get('set-cookie')).toBeNull()
    }
    const page = await fetch(`${gw.url}/`, { headers: { cookie: browser.cookie } })
    expect(await page.text()).not.toContain(browser.token)
  })

  it('the login address answers 303 to the page with the token in the fragment', async () => {
    const res = await fetch(await gw.loginUrl(), { redirect: 'manual' })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toMatch(/^\/#session=[\w-]{43}$/)
    expect(res.headers.get('set-cookie')).toMatch(/^gatehouse_admin=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict$/)
    expect(res.headers.get('cache-control')).toBe('no-store')
  })

  it('serves kept media to <img> with the cookie and the media token in the query, and not without either', async () => {
    const upload = await fetch(`${gw.url}/admin/v1/media?request=req_img`, { method: 'POST', headers: { ...browser.headers, 'content-type': 'image/png' }, body: PNG })
    expect(upload.status).toBe(201)
    const { url } = (await upload.json()) as { url: string }
    const img = await fetch(`${gw.url}${url}?media_token=${browser.mediaToken}`, { headers: { cookie: browser.cookie } })
    expect(img.status).toBe(200)
    expect(img.headers.get('cache-control')).toMatch(/^private\b/)
    expect(Buffer.from(await img.arrayBuffer())).toEqual(PNG)

    await expectRefused(await fetch(`${gw.url}${url}`, { headers: { cookie: browser.cookie } }))
    await expectRefused(await fetch(`${gw.url}${url}?media_token=${browser.mediaToken}`))
    await expectRefused(await fetch(`${gw.url}${url}?media_token=${browser.token}`, { headers: { cookie: browser.cookie } }))
    const other = await browserSignIn(gw)
    await expectRefused(await fetch(`${gw.url}${url}?media_token=${other.mediaToken}`, { headers: { cookie: browser.cookie } }))
    // The media token opens kept media only.
    await expectRefused(await fetch(`${gw.url}/admin/v1/groups?media_token=${browser.mediaToken}`, { headers: { cookie: browser.cookie } }))
    await expectRefused(await fetch(`${gw.url}/admin/v1/media?request=req_img&media_token=${browser.mediaToken}`, { headers: { cookie: browser.cookie } }))
  })

  it('signs out: the session is forgotten and the cookie cleared', async () => {
    const session = await browserSignIn(gw)
    const out = await fetch(`${gw.url}/admin/v1/session`, { method: 'DELETE', headers: session.headers })
    expect(out.status).toBe(204)
    expect(out.headers.get('set-cookie')).toBe('gatehouse_admin=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0')
    await expectRefused(await fetch(`${gw.url}/admin/v1/groups`, { headers: session.headers }))
    await expectRefused(await fetch(`${gw.url}/admin/v1/session`, { method: 'DELETE', headers: session.headers }))
    // Other sessions live on.
    expect((await fetch(`${gw.url}/admin/v1/groups`, { headers: browser.headers })).status).toBe(200)
  })
})

describe('admin sessions: expiry and the cap', () => {
  const gateways: TestGateway[] = []
  afterAll(() => Promise.all(gateways.map((g) => g.stop())))
  const start = async (adminSessions: { idleMs?: number; lifetimeMs?: number; max?: number }) => {
    const gw = await startTestGateway(chatConfig([]), undefined, { adminSessions })
    gateways.push(gw)
    return gw
  }

  it('ends a session left idle past the idle timeout', async () => {
    const gw = await start({ idleMs: 1_500 })
    const session = await browserSignIn(gw)
    expect((await fetch(`${gw.url}/admin/v1/groups`, { headers: session.headers })).status).toBe(200)
    await sleep(2_000)
    await expectRefused(await fetch(`${gw.url}/admin/v1/groups`, { headers: session.headers }))
    expect(gw.services.admin.sessions.size).toBe(0)
  })

  it('ends a busy session at the end of its lifetime', async () => {
    const gw = await start({ idleMs: 1_000, lifetimeMs: 2_000 })
    const session = await browserSignIn(gw)
    const started = Date.now()
    // Used every 250 ms, so never idle for long, and still refused once its lifetime is over.
    for (let i = 0; i < 20 && Date.now() - started < 2_100; i++) {
      await fetch(`${gw.url}/admin/v1/groups`, { headers: session.headers })
      await sleep(250)
    }
    await expectRefused(await fetch(`${gw.url}/admin/v1/groups`, { headers: session.headers }))
  })

  it('keeps at most `max` sessions, evicting the oldest', async () => {
    const gw = await start({ max: 3 })
    const sessions: BrowserSession[] = []
    for (let i = 0; i < 4; i++) sessions.push(await browserSignIn(gw))
    expect(gw.services.admin.sessions.size).toBe(3)
    await expectRefused(await fetch(`${gw.url}/admin/v1/groups`, { headers: sessions[0].headers }))
    for (const s of sessions.slice(1)) expect((await fetch(`${gw.url}/admin/v1/groups`, { headers: s.headers })).status).toBe(200)
  })
})
