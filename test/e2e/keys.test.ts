import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js'
import { chatConfig } from '../helpers/gateway.js'
import { browserMissing, openApp, type AppUnderTest } from './harness.js'

describe.skipIf(browserMissing)('keys panel', () => {
  let fake: FakeOpenAI
  let app: AppUnderTest
  beforeAll(async () => {
    fake = await startFakeOpenAI()
    app = await openApp(chatConfig([{ id: 'fake', baseUrl: fake.url }]), { group: 'main' })
  })
  afterAll(async () => {
    await app?.close()
    await fake?.close()
  })

  it('a key created in the UI is shown once and works from the openai client; revoked, it stops working', async () => {
    const { page } = app
    await page.getByTestId('nav-keys').click()
    await page.getByTestId('key-create').click()
    await page.getByTestId('key-name').fill('from the UI')
    await page.getByTestId('key-create-submit').click()
    const secret = ((await page.getByTestId('key-secret').textContent()) ?? '').trim()
    expect(secret).toMatch(/^sk-gh-[\w-]{43}$/)
    await app.screenshot('keys-created')

    const client = new OpenAI({ baseURL: `${app.gateway.url}/v1`, apiKey: secret, maxRetries: 0 })
    const models = await client.models.list()
    expect(models.data.map((m) => m.id)).toContain('test-gpt')
    fake.setScenario({ kind: 'ok', text: 'hi from the key' })
    const answer = await client.chat.completions.create({ model: 'test-gpt', messages: [{ role: 'user', content: 'hi' }] })
    expect(answer.choices[0].message.content).toBe('hi from the key')

    // Closing the dialog leaves only the hint on the page.
    await page.keyboard.press('Escape')
    // The dialog leaves the page once React has seen it close (the key's row was there all along).
    await expect.poll(() => page.getByTestId('key-secret-dialog').count()).toBe(0)
    const row = page.getByTestId('key-row').filter({ hasText: 'from the UI' })
    expect(await row.count()).toBe(1)
    expect(await page.content()).not.toContain(secret)
    page.once('dialog', (d) => void d.accept())
    await row.getByTestId('key-revoke').click()
    await expect.poll(() => row.count()).toBe(0)
    await expect(client.models.list()).rejects.toMatchObject({ status: 401 })
  })
})
