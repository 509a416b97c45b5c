// The Usage request log's row detail shows how a request was billed: where its usage came from and each priced part
// (docs/vendor-usage.md), in English and Chinese.
import { describe, expect, it } from 'vitest'
import { TEST_KEY } from '../helpers/gateway.js'
import { browserMissing, fakeOpenAIChatApp, withApp } from './harness.js'

describe.skipIf(browserMissing)('usage breakdown in the request detail', () => {
  const { app, fakes: { openai: fake } } = withApp(fakeOpenAIChatApp())

  it("opens a row's detail: the usage's source and its parts at test-gpt's prices ($2 in, $8 out per 1M)", async () => {
    const { page } = app
    fake.setScenario({ kind: 'ok', usage: { prompt_tokens: 1000, completion_tokens: 500 } })
    const res = await fetch(`${app.gateway.url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'test-gpt', messages: [{ role: 'user', content: 'hi' }] }),
    })
    expect(res.status).toBe(200)
    await res.text()
    const id = res.headers.get('x-request-id')!
    await app.gateway.services.store.ledger.flush()

    await page.getByTestId('nav-usage').click()
    await page.getByTestId('usage-refresh').click({ timeout: 5000 })
    const open = page.locator(`[data-testid="usage-row-open"][title="${id}"]`)
    await expect.poll(() => open.count()).toBe(1)
    await open.click({ timeout: 5000 })
    const breakdown = page.getByTestId('usage-breakdown')
    await expect.poll(() => breakdown.count()).toBe(1)
    expect(await breakdown.getAttribute('data-source')).toBe('upstream')
    expect(await breakdown.getByTestId('usage-source').textContent()).toBe('reported by the vendor')
    const parts = () => breakdown.getByTestId('usage-breakdown-part').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent)))
    expect(await parts()).toEqual([
      ['Input', '1,000', '$2 / 1M tokens', '$0.002'],
      ['Output', '500', '$8 / 1M tokens', '$0.004'],
    ])
    expect(await breakdown.locator('tfoot td').last().textContent()).toBe('$0.006')
    await breakdown.scrollIntoViewIfNeeded()
    await app.screenshot('usage-breakdown')

    await page.getByTestId('nav-settings').click()
    await page.getByTestId('settings-language').selectOption('zh')
    await page.getByTestId('nav-usage').click()
    // The panel was left: its row detail opens again if it closed.
    await expect.poll(() => open.count()).toBe(1)
    if ((await breakdown.count()) === 0) await open.click({ timeout: 5000 })
    await expect.poll(() => breakdown.count()).toBe(1)
    expect(await breakdown.getByTestId('usage-source').textContent()).toBe('供应商上报')
    expect(await parts()).toEqual([
      ['输入', '1,000', '$2 / 百万词元', '$0.002'],
      ['输出', '500', '$8 / 百万词元', '$0.004'],
    ])
    await page.getByTestId('nav-settings').click()
    await page.getByTestId('settings-language').selectOption('en')
  })
})
