// The Usage panel against a known ledger: requests through a fake vendor (two models, two keys, some failures),
// spread over days by setting their timestamps in the store; the charts' figures (their screen-reader tables)
// must add up to the ledger's, and the request table must fit a 1280 px window.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HOUSEKEEPING_ENDPOINTS } from '../../shared/admin.js'
import { nearestRank } from '../../electron/gateway/store/usage-summary.js'
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js'
import { chatConfig, TEST_KEY } from '../helpers/gateway.js'
import { browserMissing, openApp, type AppUnderTest } from './harness.js'

const SECOND_KEY = 'sk-second-usage-0123456789'
/** The local date of a moment, YYYY-MM-DD (Sweden's format is ISO's). */
const localDate = (d: Date) => d.toLocaleDateString('sv-SE')
const LONG_MODEL = 'test-gpt-with-a-rather-long-model-name-preview-2026-11-24'

interface Row { id: string; key_id: string | null; group_id: string | null; model: string | null; endpoint: string; status: number; cost_nano: number; latency_ms: number; created_at: number }

describe.skipIf(browserMissing)('usage panel', () => {
  let fake: FakeOpenAI
  let app: AppUnderTest
  beforeAll(async () => {
    fake = await startFakeOpenAI()
    app = await openApp(chatConfig([{ id: 'fake', baseUrl: fake.url }], {
      models: [
        { id: 'test-gpt', family: 'gpt', vendor: 'openai', pricing: { unit: 'token', input: 2, output: 8 } },
        { id: LONG_MODEL, family: 'gpt', vendor: 'openai', pricing: { unit: 'token', input: 1, output: 4 } },
      ],
      groups: [
        { id: 'main', protocol: 'chat', models: ['test-gpt', LONG_MODEL], upstreams: ['fake'] },
        { id: 'side', protocol: 'chat', models: [LONG_MODEL], upstreams: ['fake'] },
      ],
      keys: [{ key: TEST_KEY, group: 'main', name: 'laptop' }, { key: SECOND_KEY, group: 'side', name: 'server' }],
    }), { group: 'main' })
  })
  afterAll(async () => {
    await app?.close()
    await fake?.close()
  })

  const store = () => app.gateway.services.store

  async function chat(key: string, model: string): Promise<string> {
    const res = await fetch(`${app.gateway.url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
    })
    await res.text()
    return res.headers.get('x-request-id')!
  }

  /** Noon (local) `daysAgo` days before today, plus `minutes`. */
  const at = (daysAgo: number, minutes: number) => {
    const now = new Date()
    return new Date(now.getFullYear(), now.getMonth(), now.getDate() - daysAgo, 12, minutes).getTime()
  }

  /** Every ledger row, and the ids of the app's own keys. */
  async function ledger(): Promise<{ rows: Row[]; appKeys: Set<string> }> {
    await store().ledger.flush()
    const rows = await store().sql.all<Row>('SELECT * FROM requests')
    const appKeys = new Set((await store().sql.all<{ id: string }>('SELECT id FROM api_keys WHERE app_secret_enc IS NOT NULL')).map((r) => r.id))
    return { rows, appKeys }
  }

  const housekeepingRow = (r: Row, appKeys: Set<string>) =>
    r.key_id !== null && appKeys.has(r.key_id) && (HOUSEKEEPING_ENDPOINTS as readonly string[]).includes(r.endpoint)

  it('plots spending per day and model, requests, errors and latency exactly as the ledger has them', async () => {
    const { page } = app
    // Today: 2 of test-gpt, 1 of the long model; a day ago: the long model and a failure (second key); three days ago: one of each.
    const plan: Array<{ id: string; daysAgo: number; latency: number }> = []
    fake.setScenario({ kind: 'ok', usage: { prompt_tokens: 1000, completion_tokens: 500 } })
    for (const [key, model, daysAgo, latency] of [
      [TEST_KEY, 'test-gpt', 0, 120], [TEST_KEY, 'test-gpt', 0, 80], [TEST_KEY, LONG_MODEL, 0, 300],
      [SECOND_KEY, LONG_MODEL, 1, 50], [TEST_KEY, 'test-gpt', 3, 900], [SECOND_KEY, LONG_MODEL, 3, 40],
    ] as const) plan.push({ id: await chat(key, model), daysAgo, latency })
    fake.setScenario({ kind: 'status', status: 400, body: { error: { message: 'no', type: 'invalid_request_error' } } })
    plan.push({ id: await chat(SECOND_KEY, LONG_MODEL), daysAgo: 1, latency: 7 })
    await store().ledger.flush()
    for (const [i, { id, daysAgo, latency }] of plan.entries()) {
      expect((await store().sql.run('UPDATE requests SET created_at = ?, latency_ms = ? WHERE id = ?', [at(daysAgo, i), latency, id])).changes).toBe(1)
    }

    await page.getByTestId('nav-usage').click()
    const spend = page.getByTestId('usage-spend-table')
    await spend.waitFor({ state: 'attached' })
    await expect.poll(() => spend.locator('[data-testid="usage-spend-day"]').count()).toBe(30)

    const { rows, appKeys } = await ledger()
    const counted = rows.filter((r) => !housekeepingRow(r, appKeys))
    expect(rows.length).toBeGreaterThan(counted.length) // the app listed models with its own key: hidden by default
    const byDay = new Map<string, Row[]>()
    for (const r of counted) {
      const date = localDate(new Date(r.created_at))
      byDay.set(date, [...(byDay.get(date) ?? []), r])
    }

    // The spending table: one column per model, one row per day; each cell is the ledger's sum for that day and model.
    const table = await spend.evaluate((el) => ({
      series: [...el.querySelectorAll('thead th[data-series]')].map((th) => th.getAttribute('data-series')),
      days: [...el.querySelectorAll('tbody tr')].map((tr) => ({
        date: tr.getAttribute('data-date')!,
        cells: [...tr.querySelectorAll('td[data-usd]:not([data-testid])')].map((td) => Number(td.getAttribute('data-usd'))),
        total: Number(tr.querySelector('[data-testid="usage-spend-total"]')!.getAttribute('data-usd')),
      })),
    }))
    expect(table.series).toEqual(['test-gpt', LONG_MODEL]) // biggest spender first
    const sum = (list: Row[]) => list.reduce((a, r) => a + r.cost_nano, 0) / 1e9
    for (const day of table.days) {
      const dayRows = byDay.get(day.date) ?? []
      expect(day.total).toBeCloseTo(sum(dayRows), 12)
      table.series.forEach((model, i) => expect(day.cells[i]).toBeCloseTo(sum(dayRows.filter((r) => r.model === model)), 12))
    }
    const spentDays = table.days.filter((d) => d.total > 0).map((d) => d.date)
    expect(spentDays).toEqual([localDate(new Date(at(3, 0))), localDate(new Date(at(1, 0))), localDate(new Date(at(0, 0)))])
    expect(table.days.reduce((a, d) => a + d.total, 0)).toBeCloseTo(sum(counted), 12)

    // Requests and errors per day; latency percentiles per day (nearest rank of the ledger's latencies).
    const activity = await page.getByTestId('usage-activity-table').evaluate((el) =>
      [...el.querySelectorAll('tbody tr')].map((tr) => [tr.getAttribute('data-date'), Number(tr.getAttribute('data-requests')), Number(tr.getAttribute('data-errors'))]))
    for (const [date, requests, errors] of activity) {
      const dayRows = byDay.get(date as string) ?? []
      expect([requests, errors]).toEqual([dayRows.length, dayRows.filter((r) => r.status >= 400).length])
    }
    const latency = await page.getByTestId('usage-latency-table').evaluate((el) =>
      [...el.querySelectorAll('tbody tr')].map((tr) => [tr.getAttribute('data-date'), ...[...tr.querySelectorAll('td')].map((td) => td.getAttribute('data-ms'))]))
    for (const [date, p50, p90, p99] of latency) {
      const sorted = (byDay.get(date as string) ?? []).map((r) => r.latency_ms).sort((a, b) => a - b)
      expect([p50, p90, p99]).toEqual(sorted.length === 0 ? [null, null, null] : [50, 90, 99].map((p) => String(nearestRank(sorted, p))))
    }

    // Spending by key: the two keys' ledger sums, the biggest first.
    const keys = await page.getByTestId('usage-key-spend').evaluateAll((trs) => trs.map((tr) => [tr.textContent, Number(tr.getAttribute('data-usd'))]))
    const keyRows = await store().apiKeys.all()
    const keyCost = (name: string) => sum(counted.filter((r) => r.key_id === keyRows.find((k) => k.name === name)!.id))
    expect(keys.slice(0, 2).map(([text]) => String(text).split(' (')[0])).toEqual(['laptop', 'server'])
    expect(keys[0][1]).toBeCloseTo(keyCost('laptop'), 12)
    expect(keys[1][1]).toBeCloseTo(keyCost('server'), 12)
    expect(await page.getByTestId('usage-range-total').textContent()).toBe(`$${sum(counted).toFixed(2)} spent, ${counted.length} requests, 1 error`)
    await app.screenshot('usage-charts-by-model')

    // By group: main and side.
    await page.getByTestId('usage-by-group').click()
    await expect.poll(() => spend.getAttribute('data-by')).toBe('group')
    const groups = await spend.evaluate((el) => [...el.querySelectorAll('thead th[data-series]')].map((th) => th.getAttribute('data-series')))
    expect(groups).toEqual(['main', 'side'])
    await app.screenshot('usage-charts-by-group')
  })

  it("shows the app's own housekeeping calls only when asked", async () => {
    const { page } = app
    const { rows, appKeys } = await ledger()
    const today = localDate(new Date())
    const todayRows = rows.filter((r) => localDate(new Date(r.created_at)) === today)
    const housekeeping = todayRows.filter((r) => housekeepingRow(r, appKeys)).length
    expect(housekeeping).toBeGreaterThan(0)
    const requestsToday = () => page.getByTestId('usage-activity-table').locator(`tr[data-date="${today}"]`).getAttribute('data-requests')
    await expect.poll(requestsToday).toBe(String(todayRows.length - housekeeping))
    const logRows = page.getByTestId('usage-row')
    await expect.poll(() => logRows.count()).toBe(rows.length - rows.filter((r) => housekeepingRow(r, appKeys)).length)
    await page.getByTestId('usage-housekeeping').check()
    await expect.poll(requestsToday).toBe(String(todayRows.length))
    await expect.poll(() => logRows.count()).toBe(rows.length)
    // The switch is saved with the app's state: turned off again for the tests after this one.
    await page.getByTestId('usage-housekeeping').uncheck()
    await expect.poll(() => logRows.count()).toBe(rows.length - rows.filter((r) => housekeepingRow(r, appKeys)).length)
  })

  it('fits the request table in a 1280 px window with Cost and Latency in view; more columns on demand', async () => {
    const { page } = app
    expect(page.viewportSize()!.width).toBe(1280)
    const wrap = page.getByTestId('usage-table-wrap')
    await wrap.scrollIntoViewIfNeeded()
    const size = await wrap.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }))
    expect(size.scroll).toBeLessThanOrEqual(size.client)
    for (const column of ['cost', 'latency']) {
      const box = (await page.locator(`[data-testid="usage-table"] th[data-column="${column}"]`).boundingBox())!
      expect(box.x + box.width).toBeLessThanOrEqual(1280)
      expect(await page.locator(`[data-testid="usage-table"] th[data-column="${column}"]`).isVisible()).toBe(true)
    }
    // The long model name is cut with an ellipsis rather than widening the table.
    const model = page.locator('[data-testid="usage-row"] td[title="' + LONG_MODEL + '"]').first()
    expect(await model.evaluate((td) => td.scrollWidth > td.clientWidth)).toBe(true)
    await app.screenshot('usage-table-1280')

    await page.getByTestId('usage-columns').locator('summary').click()
    await page.getByTestId('usage-column-endpoint').check()
    await expect.poll(() => page.locator('[data-testid="usage-table"] th[data-column="endpoint"]').count()).toBe(1)
    await page.getByTestId('usage-column-tokens').uncheck()
    await expect.poll(() => page.locator('[data-testid="usage-table"] th[data-column="tokens"]').count()).toBe(0)
  })

  it('counts in Chinese too', async () => {
    const { page } = app
    await page.getByTestId('nav-settings').click()
    await page.getByTestId('settings-language').selectOption('zh')
    await page.getByTestId('nav-usage').click()
    const { rows, appKeys } = await ledger()
    // Back on the panel, the app's housekeeping calls are still hidden (the switch was turned off).
    const counted = rows.filter((r) => !housekeepingRow(r, appKeys))
    await expect.poll(() => page.getByTestId('usage-range-total').textContent()).toBe(
      `花费 $${(counted.reduce((a, r) => a + r.cost_nano, 0) / 1e9).toFixed(2)}，${counted.length} 个请求，1 个错误`,
    )
    expect(await page.getByTestId('usage-range').locator('option').first().textContent()).toBe('最近 7 天')
    await app.screenshot('usage-zh')
    await page.getByTestId('nav-settings').click()
    await page.getByTestId('settings-language').selectOption('en')
  })

  it("opens a request's upstream attempts under its row", async () => {
    const { page } = app
    // A 500 once: the only account is tried again and answers; the row records both calls.
    fake.setScenario({ kind: 'ok' })
    fake.once({ kind: 'status', status: 500 })
    const id = await chat(TEST_KEY, 'test-gpt')
    await store().ledger.flush()
    expect(JSON.parse((await store().ledger.get(id))!.attempts!).map((a: { outcome: string }) => a.outcome)).toEqual(['status 500', 'ok'])
    await page.getByTestId('nav-usage').click()
    await page.getByTestId('usage-refresh').click({ timeout: 5000 })
    // This request's row: the one whose toggle counts two calls (a request answered at its first call has none).
    const row = page.getByTestId('usage-row').filter({ has: page.getByText('2 attempts') })
    await expect.poll(() => row.count()).toBe(1)
    await row.getByTestId('usage-attempts-toggle').click({ timeout: 5000 })
    const detail = page.getByTestId('usage-attempts')
    await expect.poll(() => detail.getByTestId('usage-attempt').count()).toBe(2)
    expect(await detail.getByTestId('usage-attempt').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td, i) => (i === 4 ? '' : td.textContent))))).toEqual([
      ['1', 'fake', 'test-gpt', 'HTTP 500', '', expect.stringMatching(/^retry after a \d+ ms backoff$/)],
      ['2', 'fake', 'test-gpt', 'answered', '', ''],
    ])
    await app.screenshot('usage-attempts')
    await row.getByTestId('usage-attempts-toggle').click({ timeout: 5000 })
    await expect.poll(() => detail.count()).toBe(0)
  })
})
