// Compare in Chat: one prompt to three models of the group at once, their answers side by side, each with its cost;
// the one picked continues the conversation. English and Chinese.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js'
import { chatConfig } from '../helpers/gateway.js'
import { browserMissing, openApp, type AppUnderTest } from './harness.js'

const MODELS = ['test-gpt', 'test-gpt-mini', 'test-gpt-nano']

describe.skipIf(browserMissing)('compare in Chat', () => {
  const fakes: FakeOpenAI[] = []
  let app: AppUnderTest
  beforeAll(async () => {
    for (let i = 0; i < 3; i++) fakes.push(await startFakeOpenAI())
    const base = chatConfig(fakes.map((f, i) => ({ id: `u${i}`, baseUrl: f.url })))
    app = await openApp({
      ...base,
      models: [
        ...base.models!,
        { id: 'test-gpt-mini', family: 'gpt', vendor: 'openai', pricing: { unit: 'token', input: 0.5, output: 1 }, limits: { maxOutputTokens: 4096 } },
        { id: 'test-gpt-nano', family: 'gpt', vendor: 'openai', pricing: { unit: 'token', input: 0.1, output: 0.4 }, limits: { maxOutputTokens: 4096 } },
      ],
      // Each account serves one model, so each model's answer is its own.
      upstreams: base.upstreams!.map((u, i) => ({ ...u, models: [MODELS[i]] })),
      groups: [{ id: 'main', protocol: 'chat', models: MODELS, upstreams: ['u0', 'u1', 'u2'] }],
      keys: base.keys!.slice(0, 1),
    }, { group: 'main' })
  })
  afterAll(async () => {
    await app?.close()
    for (const f of fakes) await f.close()
  })

  it('asks three models at once, shows each answer with its cost, and continues with the one picked', async () => {
    const { page } = app
    const texts = ['Paris is the capital.', 'The capital is Paris.', 'Paris.']
    fakes.forEach((f, i) => f.setScenario({ kind: 'ok', text: texts[i], usage: { prompt_tokens: 10, completion_tokens: 5 } }))
    await page.getByTestId('compare-open').click({ timeout: 5000 })
    for (const model of MODELS) await page.locator(`[data-testid="compare-model"][value="${model}"]`).check()
    await page.getByTestId('compare-prompt').fill('What is the capital of France?')
    await page.getByTestId('compare-send').click()
    const columns = page.getByTestId('compare-column')
    await expect.poll(() => columns.count()).toBe(3)
    const costs = () => columns.getByTestId('compare-cost').allTextContents()
    // 10 in, 5 out: test-gpt $2/$8, mini $0.5/$1, nano $0.1/$0.4 per 1M tokens.
    await expect.poll(costs, { timeout: 10_000 }).toEqual(['10 in / 5 out · $0.00006', '10 in / 5 out · $0.00001', '10 in / 5 out · $0.000003'])
    expect(await columns.locator('h4').allTextContents()).toEqual(MODELS)
    expect((await columns.allTextContents()).map((t, i) => t.includes(texts[i]))).toEqual([true, true, true])
    for (const f of fakes) expect(f.calls.at(-1)!.body.messages).toEqual([{ role: 'user', content: 'What is the capital of France?' }])
    await app.screenshot('chat-compare')

    await columns.nth(1).getByTestId('compare-continue').click()
    await expect.poll(() => page.getByTestId('chat-compare').count()).toBe(0)
    expect(await page.getByTestId('chat-model').inputValue()).toBe('test-gpt-mini')
    const assistant = page.getByTestId('chat-message-assistant')
    expect(await assistant.count()).toBe(1)
    expect(await assistant.first().textContent()).toContain('The capital is Paris.')
    expect(await assistant.first().getByTestId('chat-usage').textContent()).toMatch(/\$0\.00001/)

    fakes[1].setScenario({ kind: 'ok', text: 'About two million people.', usage: { prompt_tokens: 20, completion_tokens: 5 } })
    await page.getByTestId('chat-input').fill('How many people live there?')
    await page.getByTestId('chat-send').click()
    await expect.poll(() => assistant.last().getAttribute('data-state')).toBe('done')
    expect(fakes[1].calls.at(-1)!.body.messages).toEqual([
      { role: 'user', content: 'What is the capital of France?' },
      { role: 'assistant', content: 'The capital is Paris.' },
      { role: 'user', content: 'How many people live there?' },
    ])

    await page.getByTestId('nav-settings').click()
    await page.getByTestId('settings-language').selectOption('zh')
    await page.getByTestId('nav-chat').click()
    expect(await page.getByTestId('compare-open').textContent()).toBe('比较模型')
    await page.getByTestId('compare-open').click()
    for (const model of MODELS) await page.locator(`[data-testid="compare-model"][value="${model}"]`).check()
    await page.getByTestId('compare-prompt').fill('再说一遍')
    await page.getByTestId('compare-send').click()
    await expect.poll(costs, { timeout: 10_000 }).toEqual([
      expect.stringMatching(/^输入 \d+ \/ 输出 5 · \$/), expect.stringMatching(/^输入 \d+ \/ 输出 5 · \$/), expect.stringMatching(/^输入 \d+ \/ 输出 5 · \$/),
    ])
    expect(await page.getByTestId('compare-continue').first().textContent()).toBe('用这个回答继续对话')
    await page.getByTestId('compare-close').click()
    await page.getByTestId('nav-settings').click()
    await page.getByTestId('settings-language').selectOption('en')
  })
})
