// Usage → a row → Inspect: the kept request and answer (a stream as its events with their times), the timings, and a
// replay on another account side by side with its latency, tokens, cost and the text's differences; English and Chinese.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeOpenAIImages } from '../fakes/images/openai-images.js'
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js'
import { chatConfig, TEST_KEY } from '../helpers/gateway.js'
import { browserMissing, openApp, type AppUnderTest } from './harness.js'

describe.skipIf(browserMissing)('the request inspector and replay', () => {
  let a: FakeOpenAI
  let b: FakeOpenAI
  let app: AppUnderTest
  beforeAll(async () => {
    a = await startFakeOpenAI()
    b = await startFakeOpenAI()
    app = await openApp(chatConfig([{ id: 'a', baseUrl: a.url }, { id: 'b', baseUrl: b.url }]), { group: 'main' })
  })
  afterAll(async () => {
    await app?.close()
    await a?.close()
    await b?.close()
  })

  it('keeps bodies once Settings says so, inspects a stream and replays it on another account, side by side', async () => {
    const { page } = app
    await page.getByTestId('nav-settings').click()
    const keep = page.getByTestId('settings-bodies-keep')
    await expect.poll(() => keep.isEnabled()).toBe(true)
    expect(await keep.isChecked()).toBe(false)
    // Saved at once; the box shows the saved choice once the gateway answered.
    await keep.click()
    await expect.poll(() => keep.isChecked()).toBe(true)
    await expect.poll(async () => (await app.gateway.services.capture.settings()).keep).toBe(true)

    a.setScenario({ kind: 'ok', text: 'The sky is blue today.', usage: { prompt_tokens: 10, completion_tokens: 6 } })
    b.setScenario({ kind: 'ok', text: 'The sky is grey today.', usage: { prompt_tokens: 10, completion_tokens: 7 } })
    const res = await fetch(`${app.gateway.url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'test-gpt', stream: true, messages: [{ role: 'user', content: 'What colour is the sky?' }] }),
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
    await page.getByTestId('usage-inspect').click({ timeout: 5000 })
    const request = page.getByTestId('inspector-request')
    await expect.poll(() => request.count()).toBe(1)
    expect(await request.getByTestId('inspector-message').textContent()).toBe('userWhat colour is the sky?')
    const answer = page.getByTestId('inspector-answer')
    expect(await answer.getAttribute('data-kind')).toBe('sse')
    expect(await answer.getByTestId('inspector-answer-text').textContent()).toBe('The sky is blue today.')
    expect(await answer.getByTestId('inspector-event').count()).toBeGreaterThan(2)
    expect(await answer.getByTestId('inspector-event').last().textContent()).toMatch(/ms \[DONE\]$/)
    const timings = await page.getByTestId('inspector-timings').locator('dt').allTextContents()
    expect(timings).toEqual(['Queue', 'First byte', 'First token', 'Total'])

    await page.getByTestId('replay-account').selectOption('b')
    await page.getByTestId('replay-send').click()
    const sides = page.getByTestId('replay-sides')
    await expect.poll(() => sides.count(), { timeout: 10_000 }).toBe(1)
    const original = page.getByTestId('replay-original')
    const replay = page.getByTestId('replay-result')
    expect(await original.locator('[data-field="account"] dd').textContent()).toBe('a')
    expect(await replay.locator('[data-field="account"] dd').textContent()).toBe('b')
    expect(await original.locator('[data-field="tokens"] dd').textContent()).toBe('10 / 6')
    expect(await replay.locator('[data-field="tokens"] dd').textContent()).toBe('10 / 7')
    // test-gpt: $2 in, $8 out per 1M tokens.
    expect(await original.locator('[data-field="cost"] dd').textContent()).toBe('$0.000068')
    expect(await replay.locator('[data-field="cost"] dd').textContent()).toBe('$0.000076')
    expect(await replay.getByTestId('replay-text').textContent()).toBe('The sky is grey today.')
    const diff = page.getByTestId('replay-diff')
    expect(await diff.locator('del').allTextContents()).toEqual(['blue'])
    expect(await diff.locator('ins').allTextContents()).toEqual(['grey'])
    const logged = (await app.gateway.services.store.requestLog.page({ limit: 5 })).find((row) => row.replay_of === id)
    expect(logged).toMatchObject({ upstream_id: 'b', status: 200 })
    await sides.scrollIntoViewIfNeeded()
    await app.screenshot('usage-inspector-replay')

    await page.getByTestId('nav-settings').click()
    await page.getByTestId('settings-language').selectOption('zh')
    await page.getByTestId('nav-usage').click()
    await expect.poll(() => open.count()).toBe(1)
    if ((await page.getByTestId('usage-inspect').count()) === 0) await open.click({ timeout: 5000 })
    const inspect = page.getByTestId('usage-inspect').first()
    if ((await inspect.getAttribute('aria-expanded')) !== 'true') await inspect.click()
    await expect.poll(() => page.getByTestId('inspector-timings').count()).toBeGreaterThan(0)
    expect(await page.getByTestId('inspector-timings').first().locator('dt').allTextContents()).toEqual(['排队', '首字节', '首个词元', '总计'])
    expect(await page.getByTestId('replay-send').first().textContent()).toBe('重放（计费）')
    await page.getByTestId('nav-settings').click()
    expect(await page.getByTestId('settings-bodies').locator('h3').textContent()).toBe('请求检查器')
    await page.getByTestId('settings-language').selectOption('en')
  })
})

describe.skipIf(browserMissing)('the request inspector on an image request', () => {
  let images: Awaited<ReturnType<typeof startFakeOpenAIImages>>
  let app: AppUnderTest
  beforeAll(async () => {
    images = await startFakeOpenAIImages({ apiKey: 'oa' })
    app = await openApp({
      account: { balance: 100 },
      models: [{ id: 'img-gpt', family: 'gpt-image', vendor: 'openai', pricing: { unit: 'image', price: 0.04 }, variant: '2.5', sizeTiers: [], maxN: 10, maxReferenceImages: 16 }],
      upstreams: [{ id: 'oa', vendor: 'openai', baseUrl: images.url, apiKey: 'oa' }],
      groups: [{ id: 'img', protocol: 'chat', models: ['img-gpt'], upstreams: ['oa'] }],
      keys: [{ key: TEST_KEY, group: 'img' }],
    }, { group: 'img' })
  })
  afterAll(async () => {
    await app?.close()
    await images?.close()
  })

  it("shows an image answer's pictures as thumbnails when media is kept, and names them by type, size and hash when not", async () => {
    const { page } = app
    const generate = async () => {
      const res = await fetch(`${app.gateway.url}/v1/images/generations`, {
        method: 'POST', headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'img-gpt', prompt: 'a red square' }),
      })
      expect(res.status).toBe(200)
      await res.text()
      await app.gateway.services.store.ledger.flush()
      return res.headers.get('x-request-id')!
    }
    const inspect = async (id: string) => {
      await page.getByTestId('nav-usage').click()
      await page.getByTestId('usage-refresh').click({ timeout: 5000 })
      const open = page.locator(`[data-testid="usage-row-open"][title="${id}"]`)
      await expect.poll(() => open.count()).toBe(1)
      await open.click({ timeout: 5000 })
      const inspector = page.getByTestId('usage-detail').filter({ hasText: id }).getByTestId('usage-inspector')
      await inspector.getByTestId('usage-inspect').click({ timeout: 5000 })
      await expect.poll(() => inspector.getByTestId('inspector-answer').count()).toBe(1)
      return inspector.getByTestId('inspector-answer')
    }
    app.gateway.services.capture.configure({ keep: true, keepMedia: true, count: 200 })
    const kept = await inspect(await generate())
    const thumbs = kept.getByTestId('inspector-image')
    await expect.poll(() => thumbs.count()).toBe(1)
    await expect.poll(() => thumbs.first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
    await app.screenshot('usage-inspector-image')

    app.gateway.services.capture.configure({ keep: true, keepMedia: false, count: 200 })
    const described = await inspect(await generate())
    expect(await described.getByTestId('inspector-image').count()).toBe(0)
    expect(await described.getByTestId('inspector-stripped').first().textContent()).toMatch(/^image\/png, \d+ bytes, SHA-256 [0-9a-f]{12}… \(not kept\)$/)
  })
})
