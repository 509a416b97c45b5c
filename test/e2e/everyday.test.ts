import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GatewayConfig } from '../../electron/gateway/config/load-config.js'
import { startFakeOpenAIImages, type FakeOpenAIImages, type MultipartBody } from '../fakes/images/openai-images.js'
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js'
import { startFakeKling } from '../fakes/video/kling.js'
import { answer, type FakeVideoServer } from '../fakes/video/task-script.js'
import { chatConfig } from '../helpers/gateway.js'
import { browserMissing, openApp, type AppUnderTest } from './harness.js'

/** A 6000×6000 photo, the size that used to crash the tab when attached. */
const bigPhoto = () =>
  sharp({ create: { width: 6000, height: 6000, channels: 3, background: { r: 180, g: 120, b: 60 } } }).jpeg({ quality: 90 }).toBuffer()

/** The pixel size of a base64 data URL's image. */
async function dataUrlSize(url: string): Promise<[number, number]> {
  const meta = await sharp(Buffer.from(url.slice(url.indexOf(',') + 1), 'base64')).metadata()
  return [meta.width!, meta.height!]
}

const VENDOR_TEXT = 'This model is not available for your organization in this region.'

describe.skipIf(browserMissing)('everyday screens: chat', () => {
  let fake: FakeOpenAI
  let app: AppUnderTest
  const pageErrors: string[] = []
  beforeAll(async () => {
    fake = await startFakeOpenAI()
    const config = chatConfig([{ id: 'fake', baseUrl: fake.url }])
    config.models!.push({ id: 'test-gpt-2', family: 'gpt', vendor: 'openai', pricing: { unit: 'token', input: 2, output: 8 } } as never)
    config.groups!.push({ id: 'other', protocol: 'chat', models: ['test-gpt-2'], upstreams: ['fake'] })
    app = await openApp(config, { group: 'main' })
    app.page.on('pageerror', (err) => pageErrors.push(err.message))
    app.page.on('crash', () => pageErrors.push('tab crashed'))
  })
  afterAll(async () => {
    await app?.close()
    await fake?.close()
  })

  it('a 6000×6000 photo waits for consent, then goes to the vendor at 2048×2048', async () => {
    const { page } = app
    fake.setScenario({ kind: 'ok', text: 'A warm brown square.' })
    await page.getByTestId('chat-model').selectOption('test-gpt')
    await page.getByTestId('chat-attach').setInputFiles({ name: 'photo.jpg', mimeType: 'image/jpeg', buffer: await bigPhoto() })
    const question = page.getByTestId('image-oversize')
    await question.waitFor()
    expect(await question.textContent()).toContain('6000×6000')
    await app.screenshot('everyday-chat-oversize')
    await page.getByTestId('image-downscale').click()
    await page.getByTestId('chat-attachment').waitFor()
    expect(await page.getByTestId('image-oversize').count()).toBe(0)
    await page.getByTestId('chat-input').fill('What colour is this?')
    await page.getByTestId('chat-send').click()
    const answerEl = page.getByTestId('chat-message-assistant').last()
    await expect.poll(() => answerEl.getAttribute('data-state'), { timeout: 15_000 }).toBe('done')
    const parts = (fake.calls.at(-1)!.body as { messages: Array<{ content: Array<{ type: string; image_url?: { url: string } }> }> }).messages[0].content
    const image = parts.find((p) => p.type === 'image_url')!.image_url!.url
    expect(image.startsWith('data:image/jpeg;base64,')).toBe(true)
    expect(await dataUrlSize(image)).toEqual([2048, 2048])
    expect(pageErrors).toEqual([])
  })

  it('a vendor error shows in its message: title in the language, vendor text quoted, the account linked, and Retry works', async () => {
    const { page } = app
    fake.setScenario({ kind: 'status', status: 403, body: { error: { message: VENDOR_TEXT, type: 'invalid_request_error', code: 'unsupported_country_region_territory' } } })
    await page.getByTestId('chat-input').fill('Hello again')
    await page.getByTestId('chat-send').click()
    const message = page.getByTestId('chat-message-assistant').last()
    await expect.poll(() => message.getAttribute('data-state'), { timeout: 15_000 }).toBe('error')
    const error = message.getByTestId('action-error')
    // A 403 from the only account fails over and ends as the gateway's 502, which names the refused key and quotes the vendor.
    await expect.poll(() => error.getByTestId('error-account').textContent()).toBe('Account fake')
    expect(await error.getByTestId('error-title').textContent()).toBe('502 The vendor refused the key of account “fake”.')
    expect(await error.getByTestId('error-fix').textContent()).toBe('Check the key of account “fake” under Keys & groups; Test connection tells at once.')
    expect(await error.getByTestId('error-detail').textContent()).toBe(VENDOR_TEXT)
    await app.screenshot('everyday-chat-error')

    fake.setScenario({ kind: 'ok', text: 'Hello after the retry.' })
    await error.getByTestId('error-retry').click()
    await expect.poll(() => page.getByTestId('chat-message-assistant').last().getAttribute('data-state'), { timeout: 15_000 }).toBe('done')
    expect(await page.getByTestId('chat-message-assistant').last().textContent()).toContain('Hello after the retry.')
    // The failed answer gave way to the new one: still one answer for the question.
    expect(await page.getByTestId('chat-message-assistant').count()).toBe(2)
  })

  it('a vendor 4xx passed through is quoted as the vendor said it, and the account link opens it under Keys & groups', async () => {
    const { page } = app
    fake.setScenario({ kind: 'status', status: 400, body: { error: { message: VENDOR_TEXT, type: 'invalid_request_error', code: 'model_not_available' } } })
    await page.getByTestId('chat-input').fill('Once more')
    await page.getByTestId('chat-send').click()
    const message = page.getByTestId('chat-message-assistant').last()
    await expect.poll(() => message.getAttribute('data-state'), { timeout: 15_000 }).toBe('error')
    const error = message.getByTestId('action-error')
    await expect.poll(() => error.getByTestId('error-account').textContent()).toBe('Account fake')
    expect(await error.getByTestId('error-title').textContent()).toBe('400 The vendor refused the request.')
    expect(await error.getByTestId('error-detail').textContent()).toBe(VENDOR_TEXT)
    await error.getByTestId('error-account').click()
    const row = page.locator('[data-testid="upstream-row"][data-upstream-id="fake"]')
    await expect.poll(() => row.getAttribute('data-focused')).toBe('true')
    await app.screenshot('everyday-account-opened')
    await page.getByTestId('nav-chat').click()
  })

  it('switching group clears a model the new group does not have; Send waits for a choice', async () => {
    const { page } = app
    expect(await page.getByTestId('chat-model').inputValue()).toBe('test-gpt')
    await page.getByTestId('group-picker').selectOption('other')
    await expect.poll(() => page.getByTestId('chat-model').inputValue()).toBe('')
    await page.getByTestId('chat-input').fill('to which model?')
    expect(await page.getByTestId('chat-send').isDisabled()).toBe(true)
    await app.screenshot('everyday-group-switched')
    await page.getByTestId('chat-model').selectOption('test-gpt-2')
    expect(await page.getByTestId('chat-send').isDisabled()).toBe(false)
    await page.getByTestId('group-picker').selectOption('main')
  })
})

const imagesConfig = (baseUrl: string): GatewayConfig => ({
  account: { balance: 100, concurrency: 5 },
  models: [{ id: 'img-gpt', family: 'gpt-image', vendor: 'openai', pricing: { unit: 'image', price: 0.04 }, maxN: 4, outputFormats: ['png', 'jpeg', 'webp'] }],
  upstreams: [{ id: 'oa', vendor: 'openai', baseUrl, apiKey: 'sk-upstream-images' }],
  groups: [{ id: 'images', protocol: 'chat', models: ['img-gpt'], upstreams: ['oa'] }],
})

describe.skipIf(browserMissing)('everyday screens: images', () => {
  let fake: FakeOpenAIImages
  let app: AppUnderTest
  beforeAll(async () => {
    fake = await startFakeOpenAIImages({ apiKey: 'sk-upstream-images' })
    app = await openApp(imagesConfig(fake.url), { group: 'images' })
    await app.page.getByTestId('nav-image').click()
    await app.page.getByTestId('panel-image').waitFor()
  })
  afterAll(async () => {
    await app?.close()
    await fake?.close()
  })

  it('a 6000×6000 reference waits for consent and reaches the vendor at 4096×4096', async () => {
    const { page } = app
    expect(await page.getByTestId('image-mode-edit').getAttribute('role')).toBe('radio')
    await page.getByTestId('image-mode-edit').click()
    await page.getByTestId('image-file').setInputFiles({ name: 'photo.jpg', mimeType: 'image/jpeg', buffer: await bigPhoto() })
    await page.getByTestId('image-oversize').waitFor()
    await app.screenshot('everyday-reference-oversize')
    await page.getByTestId('image-downscale').click()
    const ref = page.getByTestId('image-ref')
    await ref.waitFor()
    expect(await ref.textContent()).toContain('4096×4096')
    await page.getByTestId('image-prompt').fill('make it blue')
    await page.getByTestId('image-submit').click()
    await expect.poll(() => page.getByTestId('image-status').getAttribute('data-state'), { timeout: 30_000 }).toBe('succeeded')
    const body = fake.calls.at(-1)!.body as MultipartBody
    const image = body.files.find((f) => f.field === 'image' || f.field === 'image[]')!
    expect([image.width, image.height]).toEqual([4096, 4096])
  })

  it('a refused generation shows its reason under the submit button, with the account, and Retry sends again', async () => {
    const { page } = app
    await page.getByTestId('image-mode-generate').click()
    fake.setScenario({ kind: 'status', status: 400, body: { error: { message: 'Your request was rejected by the safety system.', type: 'image_generation_user_error', param: null, code: 'moderation_blocked' } } })
    await page.getByTestId('image-prompt').fill('something refused')
    await page.getByTestId('image-submit').click()
    await expect.poll(() => page.getByTestId('image-status').getAttribute('data-state'), { timeout: 20_000 }).toBe('failed')
    // Inside the form that holds the submit button, not only in the gallery below the fold.
    const error = page.locator('form.image-form').getByTestId('action-error')
    await expect.poll(() => error.getByTestId('error-account').textContent()).toBe('Account oa')
    expect(await error.getByTestId('error-title').textContent()).toBe('400 The vendor’s content check refused this request.')
    expect(await error.getByTestId('error-detail').textContent()).toBe('Your request was rejected by the safety system.')
    await app.screenshot('everyday-image-error')
    fake.setScenario({ kind: 'ok' })
    await error.getByTestId('error-retry').click()
    await expect.poll(() => page.getByTestId('image-status').getAttribute('data-state'), { timeout: 20_000 }).toBe('succeeded')
    expect(await page.locator('form.image-form').getByTestId('action-error').count()).toBe(0)
  })

  it('in Chinese the same error reads in Chinese as a whole; only the vendor text stays as the vendor wrote it', async () => {
    const { page } = app
    await page.getByTestId('nav-settings').click()
    await page.getByTestId('settings-language').selectOption('zh')
    await page.getByTestId('nav-image').click()
    fake.setScenario({ kind: 'status', status: 400, body: { error: { message: 'Your request was rejected by the safety system.', type: 'image_generation_user_error', param: null, code: 'moderation_blocked' } } })
    await page.getByTestId('image-submit').click()
    const error = page.locator('form.image-form').getByTestId('action-error')
    await expect.poll(() => error.getByTestId('error-account').textContent(), { timeout: 20_000 }).toBe('账户 oa')
    expect(await error.getByTestId('error-title').textContent()).toBe('400 服务商的内容审核拒绝了此请求。')
    expect(await error.getByTestId('error-retry').textContent()).toBe('重试')
    await app.screenshot('everyday-image-error-zh')
    fake.setScenario({ kind: 'ok' })
  })
})

const KLING = 'kling-v2-5-turbo'

describe.skipIf(browserMissing)('everyday screens: video', () => {
  let kling: FakeVideoServer
  let app: AppUnderTest
  beforeAll(async () => {
    kling = await startFakeKling({ script: ['queued', 'succeeded'] })
    app = await openApp({
      account: { balance: 100, concurrency: 5 },
      upstreams: [{ id: 'kling', vendor: 'kling', baseUrl: kling.url, apiKey: 'kling-ak:kling-sk' }],
      groups: [{ id: 'video', protocol: 'chat', models: [KLING], upstreams: ['kling'] }],
    }, { group: 'video', videoPollMs: 200 })
    await app.page.getByTestId('nav-video').click()
    await app.page.getByTestId('panel-video').waitFor()
  })
  afterAll(async () => {
    await app?.close()
    await kling?.close()
  })

  it('a submission the vendor rejects stays one card, with the account and the vendor text', async () => {
    const { page } = app
    kling.switches.nextStart.push(answer(400, { code: 1301, message: 'The prompt was flagged by the content policy.', request_id: 'kl-1' }))
    await page.getByTestId('video-model').selectOption(KLING)
    await page.getByTestId('video-prompt').fill('a refused scene')
    await page.getByTestId('video-submit').click()
    const card = page.getByTestId('video-task').first()
    await expect.poll(() => card.getAttribute('data-status'), { timeout: 15_000 }).toBe('submit_failed')
    // The gateway keeps the rejected submission as a failed task: it is listed, yet it is this card.
    const stored = (await app.gateway.services.store.tasks.recent('video', 10))
    expect(stored.map((t) => t.status)).toEqual(['failed'])
    await page.getByTestId('video-refresh').click()
    await page.waitForTimeout(1_500)
    expect(await page.getByTestId('video-task').count()).toBe(1)
    const error = card.getByTestId('action-error')
    await expect.poll(() => error.getByTestId('error-account').textContent()).toBe('Account kling')
    expect(await error.getByTestId('error-detail').textContent()).toContain('The prompt was flagged by the content policy.')
    await app.screenshot('everyday-video-rejected')
  })
})
