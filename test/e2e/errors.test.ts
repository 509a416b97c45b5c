// Errors that name the fix (issue 25 item 4): each class shown from the one table, in English and in Chinese (no
// English word of four letters or more in the Chinese title and fix other than names and codes), the vendor's own
// words quoted, the account linked to Keys & groups, where Test connection checks a saved account by id.
import { describe, expect, it } from 'vitest'
import { ADMIN_SESSION_HEADER } from '../../shared/admin.js'
import { startFakeOpenAI } from '../fakes/openai.js'
import { chatConfig } from '../helpers/gateway.js'
import { englishWordsIn } from '../unit/shared/zh-words.js'
import { browserMissing, withApp } from './harness.js'
import type { Locator } from 'playwright-core'

interface Shown { kind: string; en: [string, string]; zh: [string, string] }

describe.skipIf(browserMissing)('errors name the fix, in both languages', () => {
  const { app, fakes: { fake, refusing } } = withApp({
    fakes: {
      fake: startFakeOpenAI,
      // This vendor wants another key than the one the account holds: it refuses every call, the model list too.
      refusing: () => startFakeOpenAI({ apiKey: 'the-right-key' }),
    },
    config({ fake, refusing }) {
      const config = chatConfig([{ id: 'fake', baseUrl: fake.url }])
      config.upstreams!.push(
        { id: 'bad-key', vendor: 'openai', baseUrl: refusing.url, apiKey: 'a-wrong-key-0123' },
        // nothing listens on port 9 of this machine: the connection is refused
        { id: 'gone', vendor: 'openai', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'gone-key-0123456' },
      )
      config.groups!.push(
        { id: 'refused', protocol: 'chat', models: ['test-gpt'], upstreams: ['bad-key'] },
        { id: 'dead', protocol: 'chat', models: ['test-gpt'], upstreams: ['gone'] },
      )
      return config
    },
    options: { group: 'main' },
  })

  async function language(lang: 'en' | 'zh') {
    const { page } = app
    await page.getByTestId('nav-settings').click()
    await page.getByTestId('settings-language').selectOption(lang)
    await page.getByTestId('nav-chat').click()
  }

  /** Sends a question in the group and returns the failed answer's error. */
  async function failIn(group: string, question: string): Promise<Locator> {
    const { page } = app
    await page.getByTestId('group-picker').selectOption(group)
    await page.getByTestId('chat-model').selectOption('test-gpt')
    await page.getByTestId('chat-input').fill(question)
    await page.getByTestId('chat-send').click()
    const message = page.getByTestId('chat-message-assistant').last()
    await expect.poll(() => message.getAttribute('data-state'), { timeout: 20_000 }).toBe('error')
    return message.getByTestId('action-error')
  }

  /** The error in English, then the same error in Chinese, then back to English. */
  async function expectShown(error: Locator, shown: Shown, name: string, account?: string) {
    await language('en')
    await expect.poll(() => error.getAttribute('data-kind'), { timeout: 5_000 }).toBe(shown.kind)
    await expect.poll(() => error.getByTestId('error-title').textContent()).toBe(shown.en[0])
    expect(await error.getByTestId('error-fix').textContent()).toBe(shown.en[1])
    await app.screenshot(`error-${name}-en`)
    await language('zh')
    await expect.poll(() => error.getByTestId('error-title').textContent()).toBe(shown.zh[0])
    const fix = await error.getByTestId('error-fix').textContent()
    expect(fix).toBe(shown.zh[1])
    expect(englishWordsIn(`${shown.zh[0]} ${fix}`)).toEqual([])
    // the rest of the error's own words in Chinese: the quote's label, the account and Retry
    const label = (await error.getByTestId('error-detail-label').count()) > 0 ? await error.getByTestId('error-detail-label').textContent() : ''
    // the account's and the request's ids are names: left out of the check
    const row = (await error.locator('.row').textContent())!.replace(/请求 \S+/, '').replaceAll(account ?? '\u0000', '')
    expect(englishWordsIn(`${label} ${row}`)).toEqual([])
    await app.screenshot(`error-${name}-zh`)
    await language('en')
  }

  it('a refused key: the vendor refused the key of the account, its words quoted, the account one click away, where Test connection says the same', async () => {
    const error = await failIn('refused', 'hello')
    await expect.poll(() => error.getByTestId('error-account').textContent()).toBe('Account bad-key')
    await expectShown(error, {
      kind: 'key_refused',
      en: ['502 The vendor refused the key of account “bad-key”.', 'Check the key of account “bad-key” under Keys & groups; Test connection tells at once.'],
      zh: ['502 服务商拒绝了账户“bad-key”的密钥。', '请在“密钥与分组”中检查账户“bad-key”的密钥；“测试连接”可立即确认。'],
    }, 'key-refused', 'bad-key')
    expect(await error.getByTestId('error-detail-label').textContent()).toBe('The vendor said:')
    expect(await error.getByTestId('error-detail').textContent()).toContain('Incorrect API key provided')

    const { page } = app
    await error.getByTestId('error-account').click()
    const row = page.locator('[data-testid="upstream-row"][data-upstream-id="bad-key"]')
    await expect.poll(() => row.getAttribute('data-focused')).toBe('true')
    const before = refusing.calls.length
    await row.getByTestId('upstream-test').click()
    const result = row.getByTestId('welcome-test-result')
    await expect.poll(() => result.getAttribute('data-ok'), { timeout: 15_000 }).toBe('false')
    expect(await result.getAttribute('data-reason')).toBe('unauthorized')
    expect(await result.textContent()).toContain('The vendor refused the key (HTTP 401)')
    // the saved key went to the vendor from the gateway; the app never held it
    expect(refusing.calls.slice(before).map((c) => `${c.method} ${c.path}`)).toEqual(['GET /v1/models'])
    expect(refusing.calls.at(-1)!.headers.authorization).toBe('Bearer a-wrong-key-0123')
    await app.screenshot('error-key-refused-tested')
    await page.getByTestId('nav-chat').click()
  })

  it('Test connection on a saved account that works lists its models', async () => {
    const { page } = app
    await page.getByTestId('nav-keys').click()
    await page.getByTestId('group-picker').selectOption('main')
    const row = page.locator('[data-testid="upstream-row"][data-upstream-id="fake"]')
    await row.getByTestId('upstream-test').click()
    const result = row.getByTestId('welcome-test-result')
    await expect.poll(() => result.getAttribute('data-ok'), { timeout: 15_000 }).toBe('true')
    await page.getByTestId('nav-chat').click()
  })

  it('an unreachable vendor: the base URL of the account and the network', async () => {
    const error = await failIn('dead', 'anyone there?')
    await expectShown(error, {
      kind: 'unreachable',
      en: ['502 The vendor could not be reached from account “gone”.', 'Check the base URL of account “gone” and this computer’s network, then retry.'],
      zh: ['502 无法从账户“gone”连接到服务商。', '请检查账户“gone”的基础地址和本机网络，然后重试。'],
    }, 'unreachable', 'gone')
  })

  it('rate limited: the vendor is rate-limiting the account', async () => {
    fake.setScenario({ kind: 'status', status: 429, body: { error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } }, headers: { 'retry-after': '0' } })
    const error = await failIn('main', 'quickly')
    await expectShown(error, {
      kind: 'rate_limited',
      en: ['503 The vendor is rate-limiting account “fake”.', 'Retry in a moment, or add another account to the group.'],
      zh: ['503 服务商正在对账户“fake”限流。', '请稍后重试，或为分组添加另一个账户。'],
    }, 'rate-limited', 'fake')
    expect(await error.getByTestId('error-detail').textContent()).toBe('Rate limit reached for requests')
  })

  it('a prompt too long for the model: lower max_tokens', async () => {
    fake.setScenario({ kind: 'status', status: 400, body: { error: { message: 'This model’s maximum context length is 8192 tokens.', type: 'invalid_request_error', code: 'context_length_exceeded' } } })
    const error = await failIn('main', 'a very long question')
    await expectShown(error, {
      kind: 'too_long',
      en: ['400 The request is longer than the model accepts.', 'Lower max_tokens or shorten the conversation.'],
      zh: ['400 请求超过了模型能接受的长度。', '请调低 max_tokens 或缩短对话。'],
    }, 'too-long', 'fake')
  })

  it('a content check: the prompt, not the account', async () => {
    fake.setScenario({ kind: 'status', status: 400, body: { error: { message: 'Your request was rejected by the safety system.', type: 'invalid_request_error', code: 'moderation_blocked' } } })
    const error = await failIn('main', 'something refused')
    await expectShown(error, {
      kind: 'moderation',
      en: ['400 The vendor’s content check refused this request.', 'Change the prompt or the images and submit again; the account is fine.'],
      zh: ['400 服务商的内容审核拒绝了此请求。', '请修改提示词或图片后重新提交；账户本身没有问题。'],
    }, 'moderation', 'fake')
  })

  it('the budget: raise it or add funds, linked to Usage', async () => {
    const { page } = app
    // the budget used up, as the app's own session sets it
    const status = await page.evaluate(async (header) => {
      const res = await fetch('/admin/v1/account', {
        method: 'PATCH', credentials: 'same-origin', body: JSON.stringify({ budget: 0.000001 }),
        headers: { 'content-type': 'application/json', [header]: sessionStorage.getItem('gatehouse.session') ?? '' },
      })
      return res.status
    }, ADMIN_SESSION_HEADER)
    expect(status).toBe(200)
    fake.setScenario({ kind: 'ok', text: 'never sent' })
    const error = await failIn('main', 'one more')
    await expectShown(error, {
      kind: 'budget',
      en: ['402 The balance or a budget cannot cover the request.', 'Raise the budget or add funds under Usage.'],
      zh: ['402 余额或预算不足以支付此请求。', '请在“用量”中提高预算或充值。'],
    }, 'budget')
    await error.getByTestId('error-budget').click()
    await page.getByTestId('panel-usage').waitFor()
  })
})
