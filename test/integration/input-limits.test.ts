// Issue 24: a prompt over the model's limits.maxInputTokens gets the vendor's 400 before it is sent (every family,
// every protocol, the quote too), and chat `n` is bounded instead of forwarded whatever it is.
import { describe, expect, it } from 'vitest'
import { countTextTokens } from '../../electron/gateway/tokens/tokens.js'
import { startFakeAnthropic } from '../fakes/anthropic.js'
import { startFakeGemini } from '../fakes/gemini.js'
import { startFakeOpenAI } from '../fakes/openai.js'
import { TEST_KEY, withGateway } from '../helpers/gateway.js'

const MESSAGES_KEY = 'sk-input-limits-messages-0123456789'
const CAP = 100

const { gw, fakes: { openai, anthropic, gemini } } = withGateway({
  fakes: {
    openai: () => startFakeOpenAI({ apiKey: 'oa' }),
    anthropic: () => startFakeAnthropic({ apiKey: 'an' }),
    gemini: () => startFakeGemini({ apiKey: 'gm' }),
  },
  config: ({ openai, anthropic, gemini }) => ({
    account: { balance: 100, concurrency: 10 },
    models: [
      { id: 'capped-gpt', family: 'gpt', vendor: 'openai', pricing: { unit: 'token', input: 2, output: 8 }, limits: { maxOutputTokens: 4096, maxInputTokens: CAP } },
      { id: 'capped-claude', family: 'claude', vendor: 'anthropic', pricing: { unit: 'token', input: 3, output: 15 }, limits: { maxOutputTokens: 8000, maxInputTokens: CAP } },
      { id: 'capped-gemini', family: 'gemini', vendor: 'gemini', pricing: { unit: 'token', input: 1, output: 4 }, limits: { maxOutputTokens: 8000, maxInputTokens: CAP } },
      { id: 'capped-falls-back', family: 'gpt', vendor: 'openai', pricing: { unit: 'token', input: 2, output: 8 }, limits: { maxOutputTokens: 4096, maxInputTokens: CAP }, fallbacks: [{ model: 'roomy-gpt', on: ['context_length'] }] },
      { id: 'roomy-gpt', family: 'gpt', vendor: 'openai', pricing: { unit: 'token', input: 4, output: 16 }, limits: { maxOutputTokens: 4096 } },
      { id: 'few-choices', family: 'gpt', vendor: 'openai', pricing: { unit: 'token', input: 2, output: 8 }, limits: { maxOutputTokens: 100 }, maxChoices: 4 },
    ] as never,
    upstreams: [
      { id: 'oa', vendor: 'openai', baseUrl: openai.url, apiKey: 'oa' },
      { id: 'an', vendor: 'anthropic', baseUrl: anthropic.url, apiKey: 'an' },
      { id: 'gm', vendor: 'gemini', baseUrl: gemini.url, apiKey: 'gm' },
    ],
    groups: [
      { id: 'main', protocol: 'chat', models: ['capped-gpt', 'capped-gemini', 'few-choices', 'gpt-6.1-sol', 'capped-falls-back', 'roomy-gpt'], upstreams: ['oa', 'gm'] },
      { id: 'claude', protocol: 'messages', models: ['capped-claude'], upstreams: ['an'] },
    ],
    keys: [{ key: TEST_KEY, group: 'main' }, { key: MESSAGES_KEY, group: 'claude' }],
  }),
  resetFakes: true,
})

const calls = () => openai.calls.length + anthropic.calls.length + gemini.calls.length
const long = 'word '.repeat(3 * CAP)
const short = 'word '.repeat(CAP / 4)

async function refusal(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await gw.post(path, body, headers)
  return { status: res.status, body: (await res.json()) as any }
}

describe('a prompt over limits.maxInputTokens is refused before it is sent, in the vendor\'s words', () => {
  it('chat completions to an OpenAI model: 400 context_length_exceeded, param messages, in English and Chinese; the quote says the same', async () => {
    const body = { model: 'capped-gpt', messages: [{ role: 'user', content: long }] }
    const en = await refusal('/v1/chat/completions', body)
    expect(en).toEqual({ status: 400, body: { error: {
      message: `This model's maximum input length is ${CAP} tokens. However, your messages resulted in more than ${CAP} tokens. Please reduce the length of the messages.`,
      type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded',
    } } })
    const zh = await refusal('/v1/chat/completions', body, { 'accept-language': 'zh-CN' })
    expect(zh.body.error).toMatchObject({ message: `此模型的输入最多 ${CAP} 个 token，而你的消息超过了 ${CAP} 个 token。请缩短消息。`, code: 'context_length_exceeded' })
    expect(await refusal('/v1/quote', { endpoint: '/v1/chat/completions', request: body })).toEqual(en)
    expect(calls()).toBe(0)
  })

  it('a prompt within the cap goes through', async () => {
    expect(await countTextTokens(`user\n${short}`)).toBeLessThanOrEqual(CAP)
    expect((await gw.post('/v1/chat/completions', { model: 'capped-gpt', messages: [{ role: 'user', content: short }] })).status).toBe(200)
    expect(openai.calls).toHaveLength(1)
  })

  it('a model with a context_length fallback sends the prompt to the fallback instead: one call, named and billed as the fallback', async () => {
    const res = await gw.post('/v1/chat/completions', { model: 'capped-falls-back', messages: [{ role: 'user', content: long }] })
    expect(res.status).toBe(200)
    const body = (await res.json()) as any
    expect(body.model).toBe('roomy-gpt')
    expect(openai.calls).toHaveLength(1)
    expect((openai.calls[0].body as any).model).toBe('roomy-gpt')
    await gw.services.store.ledger.flush()
    const row = (await gw.services.store.ledger.get(res.headers.get('x-request-id') ?? ''))!
    expect(row).toMatchObject({ status: 200, model: 'roomy-gpt' })
    expect(row.cost_nano).toBeGreaterThan(0)
  })

  it('responses: 400, param input', async () => {
    const res = await refusal('/v1/responses', { model: 'capped-gpt', input: long })
    expect(res).toMatchObject({ status: 400, body: { error: { param: 'input', code: 'context_length_exceeded' } } })
    expect(calls()).toBe(0)
  })

  it('messages protocol to an Anthropic model: Anthropic\'s wording in the messages shape', async () => {
    const res = await refusal('/v1/messages', { model: 'capped-claude', max_tokens: 10, messages: [{ role: 'user', content: long }] }, { authorization: `Bearer ${MESSAGES_KEY}` })
    expect(res).toEqual({ status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: `prompt is too long: more than ${CAP} tokens > ${CAP} maximum` } } })
    expect(calls()).toBe(0)
  })

  it('a Gemini model: Gemini\'s wording', async () => {
    const res = await refusal('/v1/chat/completions', { model: 'capped-gemini', messages: [{ role: 'user', content: long }] })
    expect(res).toMatchObject({ status: 400, body: { error: { message: `The input token count exceeds the maximum number of tokens allowed (${CAP}).`, code: 'context_length_exceeded' } } })
    expect(calls()).toBe(0)
  })

  it('the catalog\'s gpt-6.1-sol (922k input tokens): a 5.1 MB prompt is refused without being sent, counted off the event loop within seconds', async () => {
    const huge = 'The quick brown fox jumps over the lazy dog. '.repeat(Math.ceil(5.1e6 / 45))
    const started = Date.now()
    const res = await refusal('/v1/chat/completions', { model: 'gpt-6.1-sol', messages: [{ role: 'user', content: huge }] })
    expect(res).toMatchObject({ status: 400, body: { error: { code: 'context_length_exceeded', param: 'messages' } } })
    expect(res.body.error.message).toContain('922000')
    expect(Date.now() - started).toBeLessThan(30_000)
    expect(calls()).toBe(0)
  }, 60_000)
})

describe('chat n is bounded', () => {
  it('n = 1,000,000 is refused with OpenAI\'s 400, never forwarded; n = 0 too', async () => {
    const res = await refusal('/v1/chat/completions', { model: 'capped-gpt', messages: [{ role: 'user', content: 'hi' }], n: 1_000_000 })
    expect(res).toEqual({ status: 400, body: { error: {
      message: "Invalid 'n': integer above maximum value. Expected a value <= 128, but got 1000000 instead.",
      type: 'invalid_request_error', param: 'n', code: 'integer_above_max_value',
    } } })
    const zero = await refusal('/v1/chat/completions', { model: 'capped-gpt', messages: [{ role: 'user', content: 'hi' }], n: 0 })
    expect(zero.body.error).toMatchObject({ message: "Invalid 'n': integer below minimum value. Expected a value >= 1, but got 0 instead.", code: 'integer_below_min_value' })
    const zh = await refusal('/v1/chat/completions', { model: 'capped-gpt', messages: [{ role: 'user', content: 'hi' }], n: 129 }, { 'accept-language': 'zh' })
    expect(zh.body.error.message).toBe("无效的 'n'：整数超过最大值。应不大于 128，实际为 129。")
    expect(calls()).toBe(0)
  })

  it('Gemini models take at most 8 (candidateCount), their family\'s maxChoices', async () => {
    const res = await refusal('/v1/chat/completions', { model: 'capped-gemini', messages: [{ role: 'user', content: 'hi' }], n: 9 })
    expect(res.body.error).toMatchObject({ message: "Invalid 'n': integer above maximum value. Expected a value <= 8, but got 9 instead.", code: 'integer_above_max_value' })
    expect(calls()).toBe(0)
  })

  it('a row\'s maxChoices bounds it lower; n within it is forwarded and priced n times in the quote', async () => {
    expect((await refusal('/v1/chat/completions', { model: 'few-choices', messages: [{ role: 'user', content: 'hi' }], n: 5 })).body.error.message)
      .toBe("Invalid 'n': integer above maximum value. Expected a value <= 4, but got 5 instead.")
    expect(calls()).toBe(0)
    const request = { model: 'few-choices', messages: [{ role: 'user', content: 'hi' }], n: 4, max_tokens: 50 }
    const quote = (await (await gw.post('/v1/quote', { endpoint: '/v1/chat/completions', request })).json()) as any
    const tokens = quote.basis.input_tokens as number
    // the prompt billed once, each of the 4 answers up to its cap (max) or a typical answer within the cap (expected)
    expect(quote).toMatchObject({ min: tokens * 2e-6, expected: (tokens * 2 + 4 * 50 * 8) * 1e-6, max: (tokens * 2 + 4 * 50 * 8) * 1e-6, basis: { n: 4, max_output_tokens: 50, expected_output_tokens: 200 } })
    expect((await gw.post('/v1/chat/completions', request)).status).toBe(200)
    expect(openai.calls[0].body.n).toBe(4)
  })
})
