// A long prompt's hold (billing/holds.ts): its input bounded by the prompt's UTF-8 size instead of counted, since
// counting costs the request ~30 ns a character; counted only when the bound does not fit, so the count decides
// every refusal. Runs on SQLite (node) and PostgreSQL (node-pg).
import { beforeEach, describe, expect, it } from 'vitest'
import { COUNTED_HOLD_CHARS } from '../../electron/gateway/billing/quote-price.js'
import { countTextTokens, promptText } from '../../electron/gateway/tokens/tokens.js'
import { startFakeOpenAI } from '../fakes/openai.js'
import { withGateway } from '../helpers/gateway.js'
import { adminClient } from './admin/admin-helpers.js'
import { configWithoutAccount } from './budget-config.js'

// test-gpt: 2000 nano-USD an input token, 8000 an output token.
const MAX_TOKENS = 40
/** Well past COUNTED_HOLD_CHARS: about 4 bytes a token, so the bound is about four times the count. */
const LONG = 'The quick brown fox jumps over the lazy dog. '.repeat(Math.ceil((COUNTED_HOLD_CHARS * 2) / 45))
const body = (content: string) => ({ model: 'test-gpt', max_tokens: MAX_TOKENS, messages: [{ role: 'user', content }] })
const worst = (inputTokens: number) => inputTokens * 2000 + MAX_TOKENS * 8000

const { gw, fakes: { openai: fake } } = withGateway({
  fakes: { openai: startFakeOpenAI },
  config({ openai }) {
    const config = configWithoutAccount([{ id: 'a', baseUrl: openai.url }])
    config.account = { concurrency: 10 }
    return config
  },
  resetFakes: true,
})
const admin = adminClient(gw)

let counted: number
let bound: number
beforeEach(async () => {
  const text = promptText(body(LONG).messages)
  counted = await countTextTokens(text)
  bound = Buffer.byteLength(text, 'utf8')
  expect(bound).toBeGreaterThan(counted * 3)
  fake.setScenario({ kind: 'ok', usage: { prompt_tokens: counted, completion_tokens: 5 } })
  expect((await admin.patch('/admin/v1/account', { budget: null })).status).toBe(200)
})

const heldOf = async (res: Response) => {
  await res.json()
  await gw.services.store.ledger.flush()
  return (await gw.services.store.sql.get<{ reserved_nano: number }>('SELECT reserved_nano FROM requests WHERE id = ?', [res.headers.get('x-request-id')]))!.reserved_nano
}

describe('the hold of a prompt longer than COUNTED_HOLD_CHARS', () => {
  it('holds the bound (its UTF-8 size as input tokens) when the budget has room for it', async () => {
    expect((await admin.patch('/admin/v1/account', { budget: 1 })).status).toBe(200)
    const res = await gw.post('/v1/chat/completions', body(LONG))
    expect(res.status).toBe(200)
    expect(Number(await heldOf(res))).toBe(worst(bound))
  })

  it('is counted when the bound does not fit: a budget with room for the counted worst case only admits it, holding that', async () => {
    expect((await admin.patch('/admin/v1/account', { budget: (worst(counted) + 1) / 1e9 })).status).toBe(200)
    const res = await gw.post('/v1/chat/completions', body(LONG))
    expect(res.status).toBe(200)
    expect(Number(await heldOf(res))).toBe(worst(counted))
  })

  it('a refusal names the counted worst case, not the bound', async () => {
    expect((await admin.patch('/admin/v1/account', { budget: (worst(counted) - 1) / 1e9 })).status).toBe(200)
    const res = await gw.post('/v1/chat/completions', body(LONG))
    expect(res.status).toBe(402)
    const usd = (nano: number) => (nano / 1e9).toFixed(9).replace(/\.?0+$/, '')
    expect((await res.json()).error.message).toContain(`This request could cost up to ${usd(worst(counted))} USD`)
  })

  it('a short prompt is still counted for its hold', async () => {
    expect((await admin.patch('/admin/v1/account', { budget: 1 })).status).toBe(200)
    const short = 'hello there'
    const res = await gw.post('/v1/chat/completions', body(short))
    expect(res.status).toBe(200)
    expect(Number(await heldOf(res))).toBe(worst(await countTextTokens(promptText(body(short).messages))))
  })

  it('a quote counts a long prompt: POST /v1/quote is never bounded', async () => {
    const quote = await (await gw.post('/v1/quote', { endpoint: '/v1/chat/completions', request: body(LONG) })).json()
    expect(quote.basis.input_tokens).toBe(counted)
    expect(quote.basis.input_tokens_bound).toBeUndefined()
    expect(Math.round(quote.max * 1e9)).toBe(worst(counted))
  })
})
