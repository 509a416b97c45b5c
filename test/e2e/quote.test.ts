// The live price next to Send and Generate (POST /v1/quote), and the confirmation asked above the amount set in Settings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GatewayConfig } from '../../electron/gateway/config/load-config.js'
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js'
import { browserMissing, openApp, type AppUnderTest } from './harness.js'

const config = (baseUrl: string): GatewayConfig => ({
  account: { balance: 100, concurrency: 5 },
  models: [
    // A model that could write 100k tokens: the worst case of a short message is dollars, a typical answer (the gpt
    // family's typicalOutputTokens, 1000) under a cent.
    { id: 'test-gpt', family: 'gpt', vendor: 'openai', pricing: { unit: 'token', input: 2, output: 8 }, limits: { maxOutputTokens: 100_000 } },
    { id: 'img-gpt', family: 'gpt-image', vendor: 'openai', pricing: { unit: 'image', price: 0.04 }, maxN: 4, outputFormats: ['png'] },
    { id: 'img-gemini', family: 'gemini-image', vendor: 'gemini', pricing: { unit: 'image', price: 0.05, byTier: { '1K': 0.05, '2K': 0.1, '4K': 0.2 } }, imageSizes: ['1K', '2K', '4K'], maxNByTier: { '1K': 4, '2K': 4, '4K': 2 }, aspectRatios: ['1:1', '16:9'] },
  ] as never,
  upstreams: [
    { id: 'oa', vendor: 'openai', baseUrl, apiKey: 'sk-upstream-quote' },
    // never called: quotes reach no upstream, and no image is generated here
    { id: 'gm', vendor: 'gemini', baseUrl: 'http://127.0.0.1:9', apiKey: 'gm' },
  ],
  groups: [{ id: 'priced', protocol: 'chat', models: ['test-gpt', 'img-gpt', 'img-gemini'], upstreams: ['oa', 'gm'] }],
})

describe.skipIf(browserMissing)('prices before sending', () => {
  let fake: FakeOpenAI
  let app: AppUnderTest
  beforeAll(async () => {
    fake = await startFakeOpenAI({ apiKey: 'sk-upstream-quote' })
    app = await openApp(config(fake.url), { group: 'priced' })
  })
  afterAll(async () => {
    await app?.close()
    await fake?.close()
  })

  it('shows the expected price of the next answer and the most it can cost next to Send, from the gateway\'s quote', async () => {
    const { page } = app
    await page.getByTestId('chat-model').selectOption('test-gpt')
    await page.getByTestId('chat-input').fill('Say hello')
    const tag = page.locator('.chat-composer .row').getByTestId('price-tag')
    // a few prompt tokens at $2/M, plus a typical 1000-token answer at $8/M (expected) or up to 100k tokens (at most)
    await expect.poll(() => tag.textContent()).toBe('≈ $0.008 · up to $0.80')
    expect(fake.calls).toHaveLength(0)
    await app.screenshot('quote-chat')
  })

  /** Sets the amount in Settings, types `text` in the chat and waits for its price to read `price`. */
  async function typeWithAmount(amount: string, text: string, price: string | RegExp) {
    const { page } = app
    await page.getByTestId('nav-settings').click()
    await page.getByTestId('settings-confirm-above').fill(amount)
    await page.getByTestId('nav-chat').click()
    await page.getByTestId('chat-input').fill(text)
    await expect.poll(() => page.getByTestId('price-tag').textContent()).toMatch(price)
  }

  /** Clicks Send, answering every confirmation with `answer`; the questions asked until `done` holds of them. */
  async function sendAnswering(answer: 'accept' | 'dismiss', done: (questions: string[]) => Promise<boolean> | boolean): Promise<string[]> {
    const { page } = app
    const questions: string[] = []
    const listen = (dialog: { message(): string; accept(): Promise<void>; dismiss(): Promise<void> }) => {
      questions.push(dialog.message())
      void dialog[answer]()
    }
    page.on('dialog', listen)
    try {
      await page.getByTestId('chat-send').click()
      await expect.poll(() => done(questions)).toBe(true)
    } finally {
      page.off('dialog', listen)
    }
    return questions
  }
  const answered = () => app.page.getByTestId('chat-message-assistant').last().getAttribute('data-state').then((state) => state === 'done')

  it('does not ask for a message expected under the amount, however much it could cost at most', async () => {
    await typeWithAmount('0.50', 'Say hi', /^≈ \$0\.008 · up to \$0\.80$/)
    expect(await sendAnswering('dismiss', answered)).toEqual([])
    expect(fake.calls).toHaveLength(1)
    fake.reset()
  })

  it('asks before sending when the expected price is above the amount set in Settings, showing it and the most; declining sends nothing', async () => {
    const { page } = app
    // the conversation so far is part of the prompt: a few more input tokens than a new chat
    await typeWithAmount('0.001', 'Say hello again', /^≈ \$0\.008\d? · up to \$0\.80$/)
    const declined = await sendAnswering('dismiss', (questions) => questions.length === 1)
    expect(declined[0]).toMatch(/^This is expected to cost \$0\.008\d? \(at most \$0\.80\), more than the \$0\.001 set in Settings\. Send anyway\?$/)
    expect(fake.calls).toHaveLength(0)
    expect(await page.getByTestId('chat-input').inputValue()).toBe('Say hello again')
    expect(await sendAnswering('accept', answered)).toHaveLength(1)
    expect(fake.calls).toHaveLength(1)
  })

  it('in Chinese: the price and the question name the expected cost and the most', async () => {
    const { page } = app
    await page.getByTestId('nav-settings').click()
    await page.getByTestId('settings-language').selectOption('zh')
    await typeWithAmount('0.001', '你好', /^约 \$0\.008\d? · 最多 \$0\.80$/)
    const declined = await sendAnswering('dismiss', (questions) => questions.length === 1)
    expect(declined[0]).toMatch(/^本次调用预计花费 \$0\.008\d?（最多 \$0\.80），超过设置中的 \$0\.001。仍要发送吗？$/)
    await app.screenshot('quote-chat-zh')
    await page.getByTestId('nav-settings').click()
    await page.getByTestId('settings-language').selectOption('en')
    await page.getByTestId('settings-confirm-above').fill('')
  })

  it('shows the exact image price next to Generate, following n and the size tier', async () => {
    const { page } = app
    await page.getByTestId('nav-image').click()
    await page.getByTestId('image-model').selectOption('img-gpt')
    await page.getByTestId('image-prompt').fill('a red fox')
    const tag = page.locator('.image-form').getByTestId('price-tag')
    await expect.poll(() => tag.textContent()).toBe('$0.04')
    await page.getByTestId('image-n').fill('3')
    await expect.poll(() => tag.textContent()).toBe('$0.12')
    await page.getByTestId('image-model').selectOption('img-gemini')
    await page.getByTestId('image-image-size').selectOption('4K')
    await page.getByTestId('image-n').fill('2')
    await expect.poll(() => tag.textContent()).toBe('$0.40')
    await page.getByTestId('image-image-size').selectOption('1K')
    await expect.poll(() => tag.textContent()).toBe('$0.10')
    await app.screenshot('quote-image')
  })
})
