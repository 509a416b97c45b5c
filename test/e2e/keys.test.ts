import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { browserMissing, fakeOpenAIChatApp, withApp } from './harness.js'

describe.skipIf(browserMissing)('keys panel', () => {
  const { app, fakes: { openai: fake } } = withApp(fakeOpenAIChatApp())

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

    // Escape before the key was copied asks first (the key cannot be shown again), and the dialog stays.
    await page.keyboard.press('Escape')
    await page.getByTestId('key-secret-confirm').waitFor()
    expect(await page.getByTestId('key-secret').textContent()).toBe(secret)
    await app.screenshot('keys-secret-leave-question')
    await page.getByTestId('key-secret-stay').click()
    expect(await page.getByTestId('key-secret-confirm').count()).toBe(0)
    // Closing the dialog leaves only the hint on the page.
    await page.getByTestId('key-secret-close').click()
    await page.getByTestId('key-secret-leave').click()
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

  it('a group\'s "Continue cut answers on the next account" is off by default, saved through the admin API, in English and Chinese', async () => {
    const { page } = app
    const saved = async () => {
      const res = await fetch(`${app.gateway.url}/admin/v1/groups`, { headers: { authorization: `Bearer ${app.gateway.adminToken}` } })
      expect(res.status).toBe(200)
      return ((await res.json()) as Array<{ id: string; continuation: boolean }>).find((g) => g.id === 'main')!.continuation
    }
    const editMain = async () => {
      await page.getByTestId('nav-keys').click()
      await page.locator('[data-testid="group-row"][data-group-id="main"]').getByTestId('group-edit').click()
      return page.getByTestId('group-editor')
    }
    const option = (editor: ReturnType<typeof page.getByTestId>) => editor.locator('label', { has: page.getByTestId('group-continuation') })
    // a fresh page, whatever the test before left open (the app reopens on the panel it was left on)
    await page.goto(await app.gateway.loginUrl())
    await page.waitForSelector('[data-testid="nav-keys"]')

    // the option is in the admin API's published shapes: the group as listed, created and changed
    const openapi = (await (await fetch(`${app.gateway.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, any>> }
    const continuationOf = (schema: any) => schema?.properties?.continuation?.type
    expect(continuationOf(openapi.paths['/admin/v1/groups/{group}'].patch.requestBody.content['application/json'].schema)).toBe('boolean')
    expect(continuationOf(openapi.paths['/admin/v1/groups'].post.requestBody.content['application/json'].schema)).toBe('boolean')
    expect(continuationOf(openapi.paths['/admin/v1/groups'].get.responses['200'].content['application/json'].schema.items)).toBe('boolean')

    expect(await saved()).toBe(false)
    let editor = await editMain()
    expect((await option(editor).textContent())?.trim()).toBe('Continue cut answers on the next account')
    expect(await editor.getByTestId('group-continuation').isChecked()).toBe(false)
    await editor.getByTestId('group-continuation').check()
    await app.screenshot('keys-group-continuation')
    await editor.getByTestId('group-save').click()
    await expect.poll(() => page.getByTestId('group-editor').count()).toBe(0)
    expect(await saved()).toBe(true)
    // the running gateway serves the group with it at once
    expect(app.gateway.services.registry.groups.get('main')?.options.continuation).toBe(true)

    await page.getByTestId('nav-settings').click()
    await page.getByTestId('settings-language').selectOption('zh')
    editor = await editMain()
    expect((await option(editor).textContent())?.trim()).toBe('回答中断时由下一个账号接着写完')
    expect(await editor.getByTestId('group-continuation').isChecked()).toBe(true)
    await editor.getByTestId('group-continuation').uncheck()
    await app.screenshot('keys-group-continuation-zh')
    await editor.getByTestId('group-save').click()
    await expect.poll(() => page.getByTestId('group-editor').count()).toBe(0)
    expect(await saved()).toBe(false)
    expect(app.gateway.services.registry.groups.get('main')?.options.continuation).toBe(false)
    await page.getByTestId('nav-settings').click()
    await page.getByTestId('settings-language').selectOption('en')
  })
})
