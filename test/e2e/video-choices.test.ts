// Video choices the vendor accepts (issue 25 item 5): Seedance 2.x offers 4–15 s, as Ark takes; finished cards, done
// or failed, have Delete; a content check's refusal of a video reads as one, not as an account failure.
import { beforeAll, describe, expect, it } from 'vitest'
import { startFakeArk } from '../fakes/video/ark.js'
import { englishWordsIn } from '../unit/shared/zh-words.js'
import { browserMissing, withApp } from './harness.js'

const SEEDANCE = 'doubao-seedance-2-5-260628'

describe.skipIf(browserMissing)('video choices', () => {
  const { app, fakes: { ark } } = withApp({
    fakes: { ark: () => startFakeArk({ script: ['queued', 'succeeded'] }) },
    config: ({ ark }) => ({
      account: { balance: 100, concurrency: 5 },
      upstreams: [{ id: 'ark', vendor: 'ark', baseUrl: `${ark.url}/api/v3`, apiKey: 'ark-test-key' }],
      groups: [{ id: 'video', protocol: 'chat', models: [SEEDANCE], upstreams: ['ark'] }],
    }),
    options: { group: 'video', videoPollMs: 200 },
  })
  beforeAll(async () => {
    await app.page.getByTestId('nav-video').click()
    await app.page.getByTestId('panel-video').waitFor()
  })

  it('Seedance 2.5 offers 4 to 15 seconds, nothing longer', async () => {
    const { page } = app
    await page.getByTestId('video-model').selectOption(SEEDANCE)
    const offered = (await page.getByTestId('video-duration').locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).filter((v) => v !== '')
    expect(offered).toEqual(['4', '5', '6', '7', '8', '9', '10', '11', '12', '13', '14', '15'])
    await app.screenshot('video-seedance-durations')
  })

  it('a finished card has Delete: the task and its kept video go, the card with them', async () => {
    const { page } = app
    await page.getByTestId('video-duration').selectOption('15')
    await page.getByTestId('video-prompt').fill('a paper boat')
    await page.getByTestId('video-submit').click()
    const card = page.getByTestId('video-task').first()
    await expect.poll(() => card.getAttribute('data-status'), { timeout: 30_000 }).toBe('succeeded')
    expect(ark.calls.find((c) => c.method === 'POST')?.body).toMatchObject({ model: SEEDANCE, duration: 15 })
    const id = (await card.getAttribute('data-task-id'))!
    // Delete waits for the gateway's copy of the video: before that it is a 409, shown on the card.
    await expect.poll(async () => (await app.gateway.services.store.media.byRequest(id)).length, { timeout: 15_000 }).toBe(1)
    page.once('dialog', (d) => void d.accept())
    await card.getByTestId('video-delete').click()
    await expect.poll(() => page.locator(`[data-testid="video-task"][data-task-id="${id}"]`).count(), { timeout: 10_000 }).toBe(0)
    expect(await app.gateway.services.store.tasks.get(id)).toBeUndefined()
    expect(await app.gateway.services.store.media.byRequest(id)).toEqual([])
    // a refresh from the gateway does not bring it back
    await page.getByTestId('video-refresh').click()
    await page.waitForTimeout(500)
    expect(await page.locator(`[data-testid="video-task"][data-task-id="${id}"]`).count()).toBe(0)
  })

  it('a video the vendor’s content check refused reads as that, in both languages, and its card has Delete', async () => {
    const { page } = app
    ark.script(['queued', 'failed:OutputVideoSensitiveContentDetected'])
    await page.getByTestId('video-prompt').fill('a refused scene')
    await page.getByTestId('video-submit').click()
    const card = page.getByTestId('video-task').first()
    await expect.poll(() => card.getAttribute('data-status'), { timeout: 30_000 }).toBe('failed')
    const error = card.getByTestId('action-error')
    expect(await error.getAttribute('data-kind')).toBe('moderation')
    // the task's request-log row says 502 (the gateway's status of a failed task); the words name the content check
    await expect.poll(() => error.getByTestId('error-title').textContent()).toBe('502 The vendor’s content check refused this request.')
    expect(await error.getByTestId('error-fix').textContent()).toBe('Change the prompt or the images and submit again; the account is fine.')
    expect(await error.getByTestId('error-detail').textContent()).toContain('may contain sensitive information')
    await app.screenshot('video-moderation-en')
    await page.getByTestId('nav-settings').click()
    await page.getByTestId('settings-language').selectOption('zh')
    await page.getByTestId('nav-video').click()
    const title = await error.getByTestId('error-title').textContent()
    const fix = await error.getByTestId('error-fix').textContent()
    expect([title, fix]).toEqual(['502 服务商的内容审核拒绝了此请求。', '请修改提示词或图片后重新提交；账户本身没有问题。'])
    expect(englishWordsIn(`${title} ${fix}`)).toEqual([])
    await app.screenshot('video-moderation-zh')
    await page.getByTestId('nav-settings').click()
    await page.getByTestId('settings-language').selectOption('en')
    await page.getByTestId('nav-video').click()

    const id = (await card.getAttribute('data-task-id'))!
    page.once('dialog', (d) => void d.accept())
    await card.getByTestId('video-delete').click()
    await expect.poll(() => page.locator(`[data-testid="video-task"][data-task-id="${id}"]`).count(), { timeout: 10_000 }).toBe(0)
    expect(await app.gateway.services.store.tasks.get(id)).toBeUndefined()
  })
})
