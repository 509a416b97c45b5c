import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js'
import { browserMissing, openApp, type AppUnderTest } from './harness.js'

const VENDOR_KEY = 'sk-proj-first-run-0123456789abcdef'
// Catalog ids, as a real account lists them, and one the catalog does not know.
const ACCOUNT_MODELS = ['gpt-6.1-sol', 'gpt-5.4-mini', 'ft:my-tune']

/**
 * The English texts of the screens walked (guided start, empty states, chat), each cut at its placeholders; those
 * the Chinese table says the same way (brand names, ACCESS_KEY:SECRET_KEY) are left out.
 */
// A string table, or a table of counted phrases (each entry its plural forms).
type Table = Record<'en' | 'zh', Record<string, string | Record<string, string>>>
const TABLE_MODULES = ['renderer/panels/welcome/strings.ts', 'renderer/components/next-step.ts', 'renderer/panels/chat/strings.ts']

/** The renderer's string tables (loaded by path: the renderer is type-checked with its own config, not this one's). */
async function stringTables(): Promise<Table[]> {
  const modules = await Promise.all(TABLE_MODULES.map((path) => import(/* @vite-ignore */ fileURLToPath(new URL(`../../${path}`, import.meta.url))) as Promise<Record<string, unknown>>))
  return modules.flatMap((m) => Object.values(m).filter((v): v is Table => typeof v === 'object' && v !== null && 'en' in v && 'zh' in v))
}

/** A table entry's English texts: a string, or the plural forms of a counted phrase. */
const textsOf = (entry: unknown): string[] => (typeof entry === 'string' ? [entry] : Object.values(entry as Record<string, string>))

function englishFragments(tables: Table[]): string[] {
  return tables.flatMap((table) =>
    Object.entries(table.en)
      .filter(([key, en]) => JSON.stringify(table.zh[key]) !== JSON.stringify(en))
      .flatMap(([, en]) => textsOf(en))
      .flatMap((en) => en.split(/\{\w+\}/).map((f) => f.trim()).filter((f) => f.length >= 3)),
  )
}
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * English UI text left on a Chinese screen. Model ids and URLs are not UI text and match no table entry; the vendor's
 * own words, quoted as they came, are left out.
 */
async function englishLeft(app: AppUnderTest, fragments: string[]): Promise<string[]> {
  const text = await app.page.evaluate(() => {
    const copy = document.body.cloneNode(true) as HTMLElement
    copy.querySelectorAll('[data-testid="welcome-vendor-detail"]').forEach((q) => q.remove())
    document.body.append(copy)
    const seen = copy.innerText
    copy.remove()
    return seen
  })
  return fragments.filter((f) => new RegExp(`(^|[^A-Za-z])${escape(f)}($|[^A-Za-z])`).test(text))
}

/** The guided start, step by step, each screen shot (and checked) by `shot`; the vendor streams `answerText`. */
async function walkToFirstAnswer(app: AppUnderTest, fake: FakeOpenAI, answerText: string, shot: (name: string) => Promise<void>) {
  const { page } = app
  await page.getByTestId('panel-welcome').waitFor()
  await shot('1-vendor')
  await page.getByTestId('welcome-vendor-openai').check()
  await page.getByTestId('welcome-next').click()
  // the vendor's base URL comes filled in; this account is the fake's
  expect(await page.getByTestId('welcome-base-url').inputValue()).toBe('https://api.openai.com/v1')
  await page.getByTestId('welcome-base-url').fill(fake.url)
  await page.getByTestId('welcome-api-key').fill('sk-wrong-0123456789')
  await page.getByTestId('welcome-test').click()
  const result = page.getByTestId('welcome-test-result')
  await expect.poll(() => result.getAttribute('data-ok')).toBe('false')
  expect(await page.getByTestId('welcome-vendor-detail').textContent()).toContain('Incorrect API key provided')
  expect(await page.getByTestId('welcome-next').isDisabled()).toBe(true)
  await shot('2-key-refused')
  await page.getByTestId('welcome-api-key').fill(VENDOR_KEY)
  await page.getByTestId('welcome-test').click()
  await expect.poll(() => result.getAttribute('data-ok')).toBe('true')
  expect(await page.getByTestId('welcome-models').locator('li').allTextContents()).toEqual(['gpt-6.1-sol', 'gpt-5.4-mini'])
  expect(fake.calls.at(-1)).toMatchObject({ method: 'GET', path: '/v1/models' })
  await shot('3-key-tested')
  await page.getByTestId('welcome-next').click()
  // the default group (chat protocol) gets both; keep only gpt-6.1-sol
  await page.getByTestId('welcome-assign-default-gpt-5.4-mini').uncheck()
  await shot('4-groups')
  await page.getByTestId('welcome-next').click()
  await shot('5-budget')
  await page.getByTestId('welcome-save').click()
  await page.getByTestId('welcome-step-first').waitFor()
  await expect.poll(() => page.getByTestId('welcome-first-model').locator('option').allTextContents()).toContain('gpt-6.1-sol')
  await shot('6-first-message')
  fake.setScenario({ kind: 'slow', delayMs: 60, text: answerText })
  await page.getByTestId('welcome-send').click()
  await page.getByTestId('panel-chat').waitFor()
  const answer = page.getByTestId('chat-message-assistant').last()
  // streamed: seen while it is still being written, then done
  await expect.poll(() => answer.getAttribute('data-state'), { timeout: 10_000 }).toBe('streaming')
  await expect.poll(() => answer.getAttribute('data-state'), { timeout: 20_000 }).toBe('done')
  expect(await answer.textContent()).toContain(answerText)
  const sent = fake.calls.at(-1)!
  expect(sent).toMatchObject({ method: 'POST', path: '/v1/chat/completions', headers: { authorization: `Bearer ${VENDOR_KEY}` }, body: { model: 'gpt-6.1-sol', stream: true } })
  expect(await page.getByTestId('group-picker').inputValue()).toBe('default')
  expect(await page.getByTestId('chat-model').inputValue()).toBe('gpt-6.1-sol')
  // the first message went into the conversation Chat had ready, not a second empty one
  expect(await page.getByTestId('chat-conversation').count()).toBe(1)
  await shot('7-first-answer')
}

describe.skipIf(browserMissing)('first run: the guided start from an empty data dir to a first streamed answer', () => {
  let fake: FakeOpenAI
  beforeAll(async () => {
    fake = await startFakeOpenAI({ apiKey: VENDOR_KEY, models: ACCOUNT_MODELS })
  })
  afterAll(async () => {
    await fake?.close()
  })

  it('in English: empty states point to the guided start, which ends on an answer with no budget set', async () => {
    const app = await openApp({})
    try {
      const { page } = app
      // every panel's empty state leads to the guided start
      for (const [panel, testId] of [['chat', 'chat-next-step'], ['image', 'image-next-step'], ['video', 'video-next-step'], ['usage', 'usage-next-step'], ['keys', 'keys-next-step']]) {
        await page.getByTestId(`nav-${panel}`).click()
        await page.getByTestId(testId).waitFor()
        await app.screenshot(`first-run-empty-${panel}`)
        await page.getByTestId(`${testId}-go`).click()
        await page.getByTestId('panel-welcome').waitFor()
      }
      await walkToFirstAnswer(app, fake, 'Hello from the vendor, word by word, as it streams.', (name) => app.screenshot(`first-run-${name}`))
      // no budget: the call went through at a $0 balance, and its cost is in the ledger
      const account = (await app.gateway.services.store.account.get())
      expect(account.budget_nano).toBeNull()
      const row = (await app.gateway.services.store.ledger.recent(null, 1))[0]
      expect(row).toMatchObject({ status: 200, model: 'gpt-6.1-sol' })
      expect(row.cost_nano).toBeGreaterThan(0)
      // the group got the chosen model and the account; the empty state is gone
      expect((await app.gateway.services.store.groups.all()).find((g) => g.id === 'default')).toMatchObject({ upstreams: ['openai-1'] })
      expect(await page.getByTestId('chat-next-step').count()).toBe(0)
    } finally {
      await app.close()
    }
  })

  it('in Chinese: the same walk, with no English UI text left on its screens', async () => {
    const app = await openApp({})
    try {
      const { page, gateway } = app
      // the language as Settings saves it, then the page reloaded (the session stays in sessionStorage)
      const auth = { authorization: `Bearer ${gateway.adminToken}`, 'content-type': 'application/json' }
      const settings = await (await fetch(`${gateway.url}/admin/v1/settings`, { headers: auth })).json()
      expect((await fetch(`${gateway.url}/admin/v1/settings`, { method: 'PUT', headers: auth, body: JSON.stringify({ ...settings, language: 'zh' }) })).status).toBe(200)
      await page.reload()
      await page.getByTestId('panel-welcome').waitFor()
      expect(await page.getByTestId('nav-welcome').textContent()).toBe('开始使用')
      const fragments = englishFragments(await stringTables())
      expect(fragments).toContain('Test connection') // the tables did load
      const checked: string[] = []
      await walkToFirstAnswer(app, fake, '你好，我是测试用的模型，正在逐字回答。', async (name) => {
        await app.screenshot(`first-run-zh-${name}`)
        checked.push(name)
        expect({ screen: name, english: await englishLeft(app, fragments) }).toEqual({ screen: name, english: [] })
      })
      expect(checked).toHaveLength(7)
    } finally {
      await app.close()
    }
  })
})
