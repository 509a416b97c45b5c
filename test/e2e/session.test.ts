import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chatConfig } from '../helpers/gateway.js'
import { browserMissing, openApp, type AppUnderTest } from './harness.js'

const storedToken = (app: AppUnderTest) => app.page.evaluate(() => sessionStorage.getItem('gatehouse.session'))
const adminCookie = async (app: AppUnderTest) => (await app.context.cookies()).find((c) => c.name === 'gatehouse_admin')

describe.skipIf(browserMissing !== undefined)('browser: the admin session', () => {
  let app: AppUnderTest
  beforeAll(async () => {
    app = await openApp(chatConfig([]))
  })
  afterAll(() => app?.close())

  it('keeps the token from the login address in sessionStorage and clears it from the address bar', async () => {
    expect(app.page.url()).toBe(`${app.gateway.url}/`)
    expect(await storedToken(app)).toMatch(/^[\w-]{43}$/)
    expect(await adminCookie(app)).toMatchObject({ httpOnly: true, sameSite: 'Strict' })
    // A script of the page can call the admin API only with the token: the cookie alone is refused.
    const statuses = await app.page.evaluate(async () => {
      const token = sessionStorage.getItem('gatehouse.session')!
      const bare = await fetch('/admin/v1/groups')
      const withToken = await fetch('/admin/v1/groups', { headers: { 'x-gatehouse-session': token } })
      return [bare.status, withToken.status]
    })
    expect(statuses).toEqual([401, 200])
  })

  it('stays signed in across a reload', async () => {
    await app.page.reload()
    // signed in: the panels show (this gateway has no upstream account, so the guided start opens first)
    await app.page.getByTestId('panel-welcome').waitFor()
    await app.page.getByTestId('nav-keys').click()
    await app.page.getByTestId('panel-keys').waitFor()
  })

  it('shows the sign-in state when the session ends under it', async () => {
    const ended = await app.page.evaluate(async () =>
      (await fetch('/admin/v1/session', { method: 'DELETE', headers: { 'x-gatehouse-session': sessionStorage.getItem('gatehouse.session')! } })).status)
    expect(ended).toBe(204)
    // The next admin call gets 401: a panel's load, or an earlier save of the saved state may come first.
    await app.page.getByTestId('nav-usage').click({ timeout: 5_000 }).catch(() => undefined)
    await app.page.getByTestId('sign-in').waitFor()
    expect(await storedToken(app)).toBeNull()
    await app.screenshot('session-ended')
  })

  it('signs out from Settings: the cookie and the token are gone', async () => {
    await app.page.goto(await app.gateway.loginUrl())
    await app.page.getByTestId('nav-settings').click()
    await app.page.getByTestId('settings-sign-out').click()
    await app.page.getByTestId('sign-in').waitFor()
    expect(await storedToken(app)).toBeNull()
    expect(await adminCookie(app)).toBeUndefined()
    await app.page.reload()
    await app.page.getByTestId('sign-in').waitFor()
  })
})
