// Sign-in codes live in the store (either engine): they expire, work once even when spent at the same moment, and a
// copy of the store does not hold them in clear.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { issueLoginCode } from '../../../electron/gateway/admin/login-codes.js'
import { ConfigError, loadConfig } from '../../../electron/gateway/config/load-config.js'
import { chatConfig, startTestGateway, tempDataDir, withGateway, type TestGateway } from '../../helpers/gateway.js'
import { storeText } from '../../helpers/store-text.js'

const MINUTE = 60_000
const page = (text: string) => `<!doctype html><meta charset="utf-8"><title>Gatehouse</title>\n<p>${text}</p>`
const USED = page('This sign-in address was already used or is not valid. Each address works once: get a new one with <code>npm run gateway -- --login</code>.')
const EXPIRED = page('This sign-in address has expired. Get a new one with <code>npm run gateway -- --login</code>.')
const EXPIRED_ZH = page('此登录地址已过期。请运行 <code>npm run gateway -- --login</code> 获取新地址。')

/** Opens a sign-in address as a browser would first (no redirect followed). */
const open = (address: string, headers: Record<string, string> = {}) => fetch(address, { redirect: 'manual', headers })

async function expectRefused(res: Response, text: string): Promise<void> {
  expect(res.status).toBe(401)
  expect(res.headers.get('set-cookie')).toBeNull()
  expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
  expect(await res.text()).toBe(text)
}

describe('sign-in codes', () => {
  const { gw } = withGateway({ config: () => chatConfig([]) })
  const addressOf = (code: string) => `${gw.url}/admin/login?code=${code}`

  it('work for 10 minutes by default', async () => {
    expect(gw.loginCodeMinutes).toBe(10)
    const before = Date.now()
    const address = await gw.loginUrl()
    const code = new URL(address).searchParams.get('code')!
    const rows = await gw.services.store.sql.all<{ hash: string; expires_at: number }>('SELECT hash, expires_at FROM login_codes')
    const row = rows.find((r) => r.expires_at >= before + 10 * MINUTE)!
    expect(row.expires_at).toBeLessThanOrEqual(Date.now() + 10 * MINUTE)
    // Kept as a hash: no table of the store holds the code itself.
    expect(row.hash).toMatch(/^[0-9a-f]{64}$/)
    expect(await storeText(gw.services.store.sql)).not.toContain(code)
    expect((await open(address)).status).toBe(303)
  })

  it('a code past its lifetime is refused as expired, and is spent by the attempt', async () => {
    // Issued by a clock 10 minutes behind: it expires now.
    const code = await issueLoginCode(gw.services.store, 10 * MINUTE, Date.now() - 10 * MINUTE)
    await expectRefused(await open(addressOf(code)), EXPIRED)
    await expectRefused(await open(addressOf(code)), USED)
    expect(await gw.services.store.sql.all('SELECT hash FROM login_codes WHERE expires_at <= ?', [Date.now()])).toEqual([])
  })

  it('says so in Chinese to a Chinese browser', async () => {
    const code = await issueLoginCode(gw.services.store, MINUTE, Date.now() - 2 * MINUTE)
    await expectRefused(await open(addressOf(code), { 'accept-language': 'zh-CN,zh;q=0.9' }), EXPIRED_ZH)
  })

  it('a code still within its lifetime signs in', async () => {
    const code = await issueLoginCode(gw.services.store, 10 * MINUTE, Date.now() - 10 * MINUTE + 30_000)
    const res = await open(addressOf(code))
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toMatch(/^\/#session=[\w-]{43}$/)
  })

  it('work once, even when opened many times at the same moment', async () => {
    const address = await gw.loginUrl()
    const answers = await Promise.all(Array.from({ length: 8 }, () => open(address)))
    expect(answers.map((r) => r.status).sort()).toEqual([303, 401, 401, 401, 401, 401, 401, 401])
    for (const res of answers.filter((r) => r.status === 401)) await expectRefused(res, USED)
  })

  it('a made-up, empty or absent code is refused', async () => {
    for (const query of ['?code=made-up', '?code=', '']) await expectRefused(await open(`${gw.url}/admin/login${query}`), USED)
  })
})

describe('sign-in codes: their lifetime', () => {
  const gateways: TestGateway[] = []
  afterAll(() => Promise.all(gateways.map((g) => g.stop())))
  const start = async (minutes?: number) => {
    const gw = await startTestGateway(chatConfig([], minutes === undefined ? {} : { admin: { loginCodeMinutes: minutes } }))
    gateways.push(gw)
    return gw
  }
  /** Runs `fn` with GATEHOUSE_LOGIN_CODE_MINUTES set to `value`. */
  async function withEnv<T>(value: string, fn: () => Promise<T>): Promise<T> {
    const saved = process.env.GATEHOUSE_LOGIN_CODE_MINUTES
    process.env.GATEHOUSE_LOGIN_CODE_MINUTES = value
    try {
      return await fn()
    } finally {
      if (saved === undefined) delete process.env.GATEHOUSE_LOGIN_CODE_MINUTES
      else process.env.GATEHOUSE_LOGIN_CODE_MINUTES = saved
    }
  }

  it('is set by the config (admin.loginCodeMinutes), and the code expires by it', async () => {
    const gw = await start(3)
    expect(gw.loginCodeMinutes).toBe(3)
    const before = Date.now()
    const code = new URL(await gw.loginUrl()).searchParams.get('code')!
    const { expires_at } = (await gw.services.store.sql.get<{ expires_at: number }>('SELECT max(expires_at) AS expires_at FROM login_codes'))!
    expect(expires_at).toBeGreaterThanOrEqual(before + 3 * MINUTE)
    expect(expires_at).toBeLessThanOrEqual(Date.now() + 3 * MINUTE)
    expect(code).toMatch(/^[\w-]{43}$/)
  })

  it('GATEHOUSE_LOGIN_CODE_MINUTES wins over the config', async () => {
    const gw = await withEnv('7', () => start(3))
    expect(gw.loginCodeMinutes).toBe(7)
  })

  it.each(['0', '1441', 'ten', '2.5', '-5'])('GATEHOUSE_LOGIN_CODE_MINUTES=%s stops the start, naming the variable', async (value) => {
    const err = await withEnv(value, () => start()).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ConfigError)
    expect((err as Error).message).toBe(`invalid config: GATEHOUSE_LOGIN_CODE_MINUTES: "${value}" is not a whole number of minutes from 1 to 1440`)
  })

  it.each([
    [0, 'must be >= 1'],
    [1441, 'must be <= 1440'],
    [2.5, 'must be integer'],
  ])('admin.loginCodeMinutes %s is refused by the config check, naming the field', (minutes, problem) => {
    const dir = tempDataDir()
    const file = join(dir.dir, 'config.json')
    writeFileSync(file, JSON.stringify({ admin: { loginCodeMinutes: minutes } }))
    try {
      expect(() => loadConfig(file)).toThrow(new ConfigError('admin.loginCodeMinutes', problem))
    } finally {
      dir.remove()
    }
  })
})
