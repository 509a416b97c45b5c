import { describe, expect, it } from 'vitest'
import { browserMissing, fakeOpenAIChatApp, withApp, type AppUnderTest } from './harness.js'

const LONG = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ')

describe.skipIf(browserMissing)('chat panel', () => {
  const { app, fakes: { openai: fake } } = withApp(fakeOpenAIChatApp())

  it('streams an answer into the page, with its usage and cost', async () => {
    const { page } = app
    fake.setScenario({ kind: 'ok', text: 'Hello **bold** world from the fake', usage: { prompt_tokens: 12, completion_tokens: 7 } })
    await page.getByTestId('chat-model').selectOption('test-gpt')
    await page.getByTestId('chat-input').fill('Say hello')
    await page.getByTestId('chat-send').click()
    const answer = page.getByTestId('chat-message-assistant').last()
    await expect.poll(() => answer.getAttribute('data-state')).toBe('done')
    expect(await answer.locator('strong').textContent()).toBe('bold')
    expect(await answer.textContent()).toContain('Hello bold world from the fake')
    const sent = fake.calls.at(-1)!.body
    expect(sent).toMatchObject({ model: 'test-gpt', stream: true, messages: [{ role: 'user', content: 'Say hello' }] })
    // 12 input tokens at $2/M + 7 output at $8/M = $0.00008
    await expect.poll(() => answer.getByTestId('chat-usage').textContent()).toMatch(/12.*7.*\$0\.00008/s)
    await app.screenshot('chat-answer')
  })

  it('stops a streaming answer: the partial text stays and the upstream call is cut', async () => {
    const { page } = app
    fake.setScenario({ kind: 'slow', delayMs: 150, text: LONG })
    await page.getByTestId('chat-input').fill('Count slowly')
    await page.getByTestId('chat-send').click()
    const answer = page.getByTestId('chat-message-assistant').last()
    await expect.poll(() => answer.textContent(), { timeout: 10_000 }).toContain('word2')
    expect(await answer.getAttribute('data-state')).toBe('streaming')
    await page.getByTestId('chat-stop').click()
    await expect.poll(() => answer.getAttribute('data-state')).toBe('stopped')
    // The answer's words, without the usage line that appears under it once the cost is known.
    const words = async () =>
      (await answer.evaluate((el) => {
        const copy = el.cloneNode(true) as HTMLElement
        copy.querySelector('[data-testid="chat-usage"]')?.remove()
        return copy.textContent ?? ''
      })).match(/word\d+/g) ?? []
    const partial = await words()
    expect(partial).toContain('word2')
    expect(partial).not.toContain('word59')
    await page.waitForTimeout(600)
    expect(await words()).toEqual(partial)
    // The cut request's row is written once the gateway has ended it (the stop reaches it through the browser's
    // closed connection): waited for, bounded, rather than assumed to have come within the 600 ms above.
    const newestStatus = async () => (await (await gateway(app)).store.requestLog.page({ endpoint: 'chat.completions', limit: 1 }))[0]?.status
    await expect.poll(newestStatus, { timeout: 5_000 }).toBe(499)
    await app.screenshot('chat-stopped')
  })

  it('keeps conversations across a restart of the page, and switches to Chinese from Settings', async () => {
    const { page } = app
    await page.waitForTimeout(600) // the saved state is written after a short debounce
    await page.goto(await app.gateway.loginUrl())
    await page.getByTestId('panel-chat').waitFor()
    await expect.poll(() => page.getByTestId('chat-message-assistant').count()).toBe(2)
    expect(await page.getByTestId('chat-message-assistant').first().textContent()).toContain('Hello bold world from the fake')
    expect(await page.getByTestId('chat-message-assistant').last().getAttribute('data-state')).toBe('stopped')

    await page.getByTestId('nav-settings').click()
    await page.getByTestId('settings-language').selectOption('zh')
    await expect.poll(() => page.getByTestId('nav-chat').textContent()).toBe('对话')
    await page.goto(await app.gateway.loginUrl())
    await expect.poll(() => page.getByTestId('nav-chat').textContent()).toBe('对话')
    await app.screenshot('settings-chinese')
  })
})

const gateway = async (app: AppUnderTest) => (await app.gateway.services.store.ledger.flush(), app.gateway.services)
