// The small things of issue 25 item 6, each as a person meets it: the sign-in page without backticks, no Vite
// warning in `npm start`'s output, "1 key", New chat without empty leftovers or repeated titles, the budget shown,
// links and a disabled button that read right in the dark theme.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, createLogger } from 'vite'
import { describe, expect, it } from 'vitest'
import { ADMIN_SESSION_HEADER } from '../../shared/admin.js'
import { TEST_KEY } from '../helpers/gateway.js'
import { browserMissing, fakeOpenAIChatApp, withApp } from './harness.js'

const root = fileURLToPath(new URL('../..', import.meta.url))

describe.skipIf(browserMissing)('small things', () => {
  // one key in the group: "1 key"
  const { app, fakes: { openai: fake } } = withApp(fakeOpenAIChatApp({ keys: [{ key: TEST_KEY, group: 'main', name: 'test' }] }))

  it('the sign-in page shows commands as code, without backticks', async () => {
    const page = await app.context.newPage()
    try {
      // a page with no session: the sign-in help
      await app.context.clearCookies()
      await page.goto(app.gateway.url)
      const help = page.getByTestId('sign-in-help')
      await help.waitFor()
      expect(await help.textContent()).not.toContain('`')
      expect(await help.locator('code').allTextContents()).toEqual(['npm start', 'npm run gateway', 'npm run gateway -- --login'])
      await page.screenshot({ path: join(root, 'test-results', 'screenshots', 'small-sign-in.png') })
    } finally {
      await page.close()
      // signed in again for the tests after this one
      await app.page.goto(await app.gateway.loginUrl())
      await app.page.waitForSelector('[data-testid="panel-chat"]')
      await app.page.getByTestId('group-picker').selectOption('main')
    }
  })

  it('"1 key", "1 model": counts read in the plural only above one', async () => {
    const { page } = app
    await page.getByTestId('nav-keys').click()
    const row = page.locator('[data-testid="group-row"][data-group-id="anthropic-only"]')
    await expect.poll(() => row.textContent()).toContain('1 model · ')
    expect(await row.textContent()).toMatch(/1 model · \d+ keys?/)
    // main: two models; its keys are the test key and the app's own
    const main = page.locator('[data-testid="group-row"][data-group-id="main"]')
    expect(await main.textContent()).toContain('2 models · ')
    expect(await page.locator('[data-testid="group-row"]').allTextContents()).not.toContainEqual(expect.stringMatching(/\b1 (keys|models)\b/))
  })

  it('New chat goes to the untouched conversation instead of leaving one behind, and equal titles are told apart', async () => {
    const { page } = app
    await page.getByTestId('nav-chat').click()
    await page.getByTestId('chat-model').selectOption('test-gpt')
    fake.setScenario({ kind: 'ok', text: 'Hi.' })
    for (let i = 0; i < 2; i++) {
      await page.getByTestId('chat-new').click()
      await page.getByTestId('chat-new').click()
      await page.getByTestId('chat-model').selectOption('test-gpt')
      await page.getByTestId('chat-input').fill('Hello')
      await page.getByTestId('chat-send').click()
      await expect.poll(() => page.getByTestId('chat-message-assistant').last().getAttribute('data-state'), { timeout: 15_000 }).toBe('done')
    }
    await page.getByTestId('chat-new').click()
    await page.getByTestId('chat-new').click()
    const titles = await page.getByTestId('chat-conversation').locator('.chat-conv-title').allTextContents()
    // one untouched conversation at the top, then the two asked ones, told apart
    expect(titles.filter((t) => t === 'New conversation')).toHaveLength(1)
    expect(titles.filter((t) => t.startsWith('Hello'))).toEqual(['Hello (2)', 'Hello'])
    await app.screenshot('small-new-chat')
  })

  it('the budget that is set is shown; in the dark theme a disabled Add funds looks disabled and links are light', async () => {
    const { page } = app
    const status = await page.evaluate(async (header) => (await fetch('/admin/v1/account', {
      method: 'PATCH', credentials: 'same-origin', body: JSON.stringify({ budget: 25 }),
      headers: { 'content-type': 'application/json', [header]: sessionStorage.getItem('gatehouse.session') ?? '' },
    })).status, ADMIN_SESSION_HEADER)
    expect(status).toBe(200)
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.getByTestId('nav-usage').click()
    await expect.poll(() => page.getByTestId('usage-budget').textContent()).toContain('$25.00')
    const addFunds = page.getByTestId('usage-add-funds')
    expect(await addFunds.isDisabled()).toBe(true)
    const looks = await addFunds.evaluate((el) => {
      const s = getComputedStyle(el)
      const accent = getComputedStyle(document.documentElement).getPropertyValue('--accent').trim()
      const probe = document.createElement('span')
      probe.style.color = accent
      document.body.append(probe)
      const accentRgb = getComputedStyle(probe).color
      probe.remove()
      return { background: s.backgroundColor, accent: accentRgb, border: s.borderStyle, cursor: s.cursor }
    })
    expect(looks.background).not.toBe(looks.accent)
    expect([looks.border, looks.cursor]).toEqual(['dashed', 'not-allowed'])
    await app.screenshot('small-dark-usage')

    await page.getByTestId('nav-chat').click()
    fake.setScenario({ kind: 'ok', text: 'See [the docs](https://example.com/docs).' })
    await page.getByTestId('chat-input').fill('where are the docs?')
    await page.getByTestId('chat-send').click()
    const answer = page.getByTestId('chat-message-assistant').last()
    await expect.poll(() => answer.getAttribute('data-state'), { timeout: 15_000 }).toBe('done')
    const link = answer.locator('.chat-markdown a').first()
    // the accent of the dark theme (#63a4ff), 6.4:1 on the dark panel, not the browser's dark blue
    expect(await link.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(99, 164, 255)')
    await app.screenshot('small-dark-link')
    await page.emulateMedia({ colorScheme: 'light' })
  })
})

describe('the renderer build prints no warning into npm start’s output', () => {
  it('vite build at the warn level logs nothing', async () => {
    const out = mkdtempSync(join(tmpdir(), 'gatehouse-vite-'))
    const said: string[] = []
    const logger = createLogger('warn')
    logger.warn = (msg) => void said.push(msg)
    logger.warnOnce = (msg) => void said.push(msg)
    logger.error = (msg) => void said.push(msg)
    // A plugin that holds one transform for 2.5 s: a build on a busy machine, which once printed how long plugins took.
    const slow = { name: 'as-on-a-busy-machine', transform(_code: string, id: string) {
      if (id.endsWith('main.tsx')) for (const until = Date.now() + 2500; Date.now() < until;);
      return null
    } }
    try {
      await build({ configFile: join(root, 'vite.config.ts'), logLevel: 'warn', customLogger: logger, plugins: [slow], build: { outDir: out, emptyOutDir: true } })
    } finally {
      rmSync(out, { recursive: true, force: true })
    }
    expect(said).toEqual([])
  }, 180_000)
})
