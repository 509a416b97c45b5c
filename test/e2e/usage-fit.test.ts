// Usage at the window sizes people use: the request table fits its box at 1280 and 1024 px with every column, the
// column choice and the housekeeping switch survive a reload, every row opens its detail, and the latency chart is
// on a log axis whose labels are whole.
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { TEST_KEY } from '../helpers/gateway.js'
import { browserMissing, fakeOpenAIChatApp, withApp } from './harness.js'

const LONG_MODEL = 'test-gpt-with-a-rather-long-model-name-preview-2026-11-24'
/** Every column the chooser offers (renderer/panels/usage/log-query.ts LOG_COLUMNS), in table order. */
const LOG_COLUMNS = ['time', 'group', 'key', 'model', 'endpoint', 'status', 'tokens', 'cost', 'latency']

describe.skipIf(browserMissing)('usage panel at 1280 and 1024 px', () => {
  const { app, fakes: { openai: fake } } = withApp(fakeOpenAIChatApp({
    account: { balance: 10_000, concurrency: 5 },
    models: [
      { id: 'test-gpt', family: 'gpt', vendor: 'openai', pricing: { unit: 'token', input: 2, output: 8 } },
      { id: LONG_MODEL, family: 'gpt', vendor: 'openai', pricing: { unit: 'token', input: 1, output: 4 } },
    ],
    groups: [{ id: 'main', protocol: 'chat', models: ['test-gpt', LONG_MODEL], upstreams: ['fake'] }],
    keys: [{ key: TEST_KEY, group: 'main', name: 'laptop' }],
  }))
  const ids: Record<string, string> = {}
  beforeAll(async () => {
    const chat = async (model: string) => {
      const res = await fetch(`${app.gateway.url}/v1/chat/completions`, {
        method: 'POST', headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
      })
      await res.text()
      return res.headers.get('x-request-id')!
    }
    fake.setScenario({ kind: 'ok', usage: { prompt_tokens: 1234, completion_tokens: 567 } })
    ids.long = await chat(LONG_MODEL)
    fake.once({ kind: 'status', status: 500 })
    ids.retried = await chat('test-gpt')
    ids.unknown = await chat('no-such-model-2026')
    const store = app.gateway.services.store
    await store.ledger.flush()
    // Latencies far apart: 7 ms and 95 s on one day, as the issue saw them.
    await store.sql.run('UPDATE requests SET latency_ms = ? WHERE id = ?', [7, ids.long])
    await store.sql.run('UPDATE requests SET latency_ms = ? WHERE id = ?', [95_000, ids.retried])
  })

  async function showAllColumns(page: Page): Promise<void> {
    await page.getByTestId('usage-columns').locator('summary').click()
    for (const c of LOG_COLUMNS) await page.getByTestId(`usage-column-${c}`).check()
    await page.getByTestId('usage-columns').locator('summary').click()
  }

  /** The table's fit: no sideways scroll, and each header whole and inside the table's box. */
  const fit = (page: Page) => page.getByTestId('usage-table-wrap').evaluate((wrap) => {
    const box = wrap.getBoundingClientRect()
    const headers = [...wrap.querySelectorAll('thead th[data-column]')].map((th) => {
      const r = th.getBoundingClientRect()
      return { column: th.getAttribute('data-column'), whole: th.scrollWidth <= th.clientWidth, inside: r.left >= box.left - 0.5 && r.right <= box.right + 0.5 && r.width > 0 }
    })
    const table = wrap.querySelector('table')!
    return { wrap: wrap.scrollWidth <= wrap.clientWidth, table: table.scrollWidth <= table.clientWidth, page: document.documentElement.scrollWidth <= document.documentElement.clientWidth, headers }
  })

  it('fits every column without sideways scroll at 1280×800 and at 1024 px, every header whole', async () => {
    const { page } = app
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.getByTestId('nav-usage').click()
    await expect.poll(() => page.getByTestId('usage-row').count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(3)
    await showAllColumns(page)
    const everyColumn = LOG_COLUMNS.map((column) => ({ column, whole: true, inside: true }))
    for (const width of [1280, 1024]) {
      await page.setViewportSize({ width, height: 800 })
      await expect.poll(() => fit(page)).toEqual({ wrap: true, table: true, page: true, headers: everyColumn })
      await page.getByTestId('usage-table-wrap').scrollIntoViewIfNeeded()
      await page.screenshot({ path: `test-results/screenshots/usage-table-all-columns-${width}.png` })
    }
    // A long model name is cut with an ellipsis, whole in its title.
    const model = page.locator(`[data-testid="usage-row"][data-id="${ids.long}"] [data-testid="usage-model"]`)
    expect(await model.getAttribute('title')).toBe(LONG_MODEL)
    expect(await model.evaluate((td) => td.scrollWidth > td.clientWidth)).toBe(true)
    await page.setViewportSize({ width: 1280, height: 800 })
  })

  it('names the model of a request refused for it', async () => {
    const { page } = app
    const model = page.locator(`[data-testid="usage-row"][data-id="${ids.unknown}"] [data-testid="usage-model"]`)
    expect(await model.textContent()).toBe('no-such-model-2026')
  })

  it('opens every row to its detail: id, key, group, models, accounts tried, status, usage, timings, attempts', async () => {
    const { page } = app
    const open = (id: string) => page.locator(`[data-testid="usage-row"][data-id="${id}"]`).getByTestId('usage-row-open')
    const fields = () => page.getByTestId('usage-detail').evaluate((el) =>
      Object.fromEntries([...el.querySelectorAll('[data-field]')].map((item) => [item.getAttribute('data-field'), item.querySelector('dd')!.textContent])))
    const rows = await page.getByTestId('usage-row').count()
    for (let i = 0; i < rows; i++) {
      const button = page.getByTestId('usage-row').nth(i).getByTestId('usage-row-open')
      await button.click()
      expect(await button.getAttribute('aria-expanded')).toBe('true')
      await button.click()
      await expect.poll(() => page.getByTestId('usage-detail').count()).toBe(0)
    }

    await open(ids.retried).click()
    const retried = await fields()
    expect(retried).toMatchObject({
      id: ids.retried, key: expect.stringMatching(/\S/), group: 'main', endpoint: 'chat.completions', requested: 'test-gpt',
      served: 'test-gpt (account fake)', accounts: 'fake', status: '200', usage: '1,234 / 567', latency: '95,000 ms',
    })
    expect(retried.upstreamMs).toMatch(/ ms$/)
    expect(await page.getByTestId('usage-detail').getByTestId('usage-attempt').count()).toBe(2)
    expect(await open(ids.retried).getAttribute('aria-label')).toBe(`Detail of request ${ids.retried}`)
    await app.screenshot('usage-row-detail')
    await open(ids.retried).click()

    await open(ids.unknown).click()
    expect(await fields()).toMatchObject({
      id: ids.unknown, requested: 'no-such-model-2026', served: 'none answered', accounts: 'none (no upstream call)', status: '404 model_not_found', usage: '– / –',
    })
    expect(await page.getByTestId('usage-detail').getByTestId('usage-attempts').count()).toBe(0)
    await open(ids.unknown).click()
  })

  it('keeps the column choice and the housekeeping switch across a reload', async () => {
    const { page } = app
    await page.getByTestId('usage-columns').locator('summary').click()
    await page.getByTestId('usage-column-tokens').uncheck()
    await page.getByTestId('usage-column-group').uncheck()
    await page.getByTestId('usage-columns').locator('summary').click()
    await page.getByTestId('usage-housekeeping').check()
    const shown = ['time', 'key', 'model', 'endpoint', 'status', 'cost', 'latency']
    const headers = () => page.locator('[data-testid="usage-table"] thead th[data-column]').evaluateAll((ths) => ths.map((th) => th.getAttribute('data-column')))
    await expect.poll(headers).toEqual(shown)
    // Saved in the gateway's store (the app's `ui` state), then read back by the reloaded page.
    await expect.poll(async () => JSON.parse((await app.gateway.services.store.appState.get('ui'))?.value ?? '{}'), { timeout: 5_000 })
      .toMatchObject({ usageColumns: shown, usageHousekeeping: true })
    await page.reload()
    await page.getByTestId('nav-usage').click()
    await expect.poll(headers, { timeout: 10_000 }).toEqual(shown)
    expect(await page.getByTestId('usage-housekeeping').isChecked()).toBe(true)
    await page.getByTestId('usage-housekeeping').uncheck()
  })

  it('draws latency on a log axis with whole labels (7 ms and 95 s on one chart)', async () => {
    const { page } = app
    const chart = page.getByTestId('usage-latency-chart')
    await chart.scrollIntoViewIfNeeded()
    await expect.poll(() => chart.getAttribute('data-y-labels'), { timeout: 10_000 }).not.toBeNull()
    const axis = await chart.evaluate((el) => {
      const labels = JSON.parse(el.dataset.yLabels!) as string[]
      const ctx = document.createElement('canvas').getContext('2d')!
      ctx.font = el.dataset.yFont!
      return { labels, size: Number(el.dataset.ySize), widest: Math.max(...labels.map((l) => ctx.measureText(l).width)) }
    })
    // Powers of ten from below 7 ms to above 95 s, each a whole label.
    expect(axis.labels).toEqual(expect.arrayContaining(['10 ms', '100 ms', '1 s', '10 s']))
    for (const label of axis.labels) expect(label).toMatch(/^\d+(\.\d)? (ms|s|min)$/)
    // Tick (10 px) and gap (5 px) beside the widest label still inside the axis.
    expect(axis.widest + 15).toBeLessThanOrEqual(axis.size)
    await chart.screenshot({ path: 'test-results/screenshots/usage-latency-log-axis.png' })
  })
})
