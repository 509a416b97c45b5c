// Hard caps (issue 24): a request holds its worst case before any upstream call, so the account's budget, a key's
// quota and an upstream account's budget are never exceeded, however many requests run at once. Runs on SQLite
// (node) and PostgreSQL (node-pg); test/pg/hard-caps-replicas.test.ts shares one budget between two replicas.
import { beforeEach, describe, expect, it } from 'vitest'
import { startFakeAnthropic } from '../fakes/anthropic.js'
import { startFakeOpenAIImages } from '../fakes/images/openai-images.js'
import { startFakeOpenAI } from '../fakes/openai.js'
import { startTestGateway, tempDataDir, TEST_KEY, withGateway, type TestGateway } from '../helpers/gateway.js'
import { adminClient } from './admin/admin-helpers.js'
import { configWithoutAccount } from './budget-config.js'

// test-gpt: 2 USD per 1M input tokens (2000 nano-USD a token), 8 per 1M output (8000 nano-USD a token).
const MAX_TOKENS = 40
const body = { model: 'test-gpt', max_tokens: MAX_TOKENS, messages: [{ role: 'user', content: 'hello there' }] }
/** The prompt's tokens as the gateway counts them ("hello there", as one user message). */
const PROMPT_TOKENS = 4
/** The worst case: the prompt, and max_tokens of output. */
const WORST = PROMPT_TOKENS * 2000 + MAX_TOKENS * 8000
/** What a call that uses its whole cap costs: exactly the worst case. */
const FULL_USAGE = { prompt_tokens: PROMPT_TOKENS, completion_tokens: MAX_TOKENS }
/** Room for five worst cases, one nano-USD short of six. */
const ROOM_FOR_FIVE = 6 * WORST - 1
const QUOTA_KEY = 'sk-hard-caps-quota-0123456789'
const MESSAGES_KEY = 'sk-hard-caps-messages-0123456789'
const CALLS = 50

/** USD as the 402 messages write it: nano-dollar digits, trailing zeros dropped. */
const usd = (nano: number) => (nano / 1e9).toFixed(9).replace(/\.?0+$/, '')
const chatRefusal = (message: string) => ({ error: { message, type: 'insufficient_quota', param: null, code: 'insufficient_quota' } })
// Left after five worst cases: WORST - 1; the largest max_tokens whose worst case fits it.
const FIT = Math.floor((WORST - 1 - PROMPT_TOKENS * 2000) / 8000)
const ACCOUNT_REFUSAL = chatRefusal(
  `This request could cost up to ${usd(WORST)} USD, and ${usd(WORST - 1)} USD is left of the account's budget (less what requests under way hold). A lower max_tokens fits: at most ${FIT}.`,
)
const KEY_REFUSAL = chatRefusal(
  `This request could cost up to ${usd(WORST)} USD, and ${usd(WORST - 1)} USD is left of this API key's quota (less what its requests under way hold). A lower max_tokens fits: at most ${FIT}.`,
)
const UPSTREAM_REFUSAL = chatRefusal(
  `This request could cost up to ${usd(WORST)} USD, more than is left of the budget of any upstream account that serves test-gpt (a; at most ${usd(WORST - 1)} USD left). A lower max_tokens fits: at most ${FIT}.`,
)

/** `CALLS` requests at once: their statuses and bodies, in order sent. */
async function burst(gw: TestGateway, headers: Record<string, string> = {}, request: unknown = body) {
  const answers = await Promise.all(Array.from({ length: CALLS }, async () => {
    const res = await gw.post('/v1/chat/completions', request, headers)
    return { status: res.status, json: await res.json() }
  }))
  return { ok: answers.filter((a) => a.status === 200), refused: answers.filter((a) => a.status !== 200) }
}

/** The store's figures after every queued row is written. */
async function money(gw: TestGateway) {
  await gw.services.store.ledger.flush()
  const { sql } = gw.services.store
  const account = (await sql.get<{ balance_nano: number; budget_nano: number | null; reserved_nano: number }>('SELECT balance_nano, budget_nano, reserved_nano FROM account WHERE id = 1'))!
  const holds = (await sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM holds'))!
  const billed = (await sql.get<{ total: number | null }>('SELECT SUM(cost_nano) AS total FROM requests'))!
  return { balance: Number(account.balance_nano), reserved: Number(account.reserved_nano), holds: Number(holds.n), billed: Number(billed.total ?? 0) }
}

const { gw, fakes: { openai: fake } } = withGateway({
  fakes: { openai: startFakeOpenAI, claude: () => startFakeAnthropic({ apiKey: 'claude-key' }) },
  config({ openai, claude }) {
    const config = configWithoutAccount([{ id: 'a', baseUrl: openai.url }])
    config.account = { concurrency: 60 }
    config.keys!.push({ key: QUOTA_KEY, group: 'main', name: 'quota' }, { key: MESSAGES_KEY, group: 'claude' })
    // Claude through the Messages protocol: 3 USD per 1M input tokens, 15 per 1M output.
    config.models!.push({ id: 'test-claude', family: 'claude', vendor: 'anthropic', pricing: { unit: 'token', input: 3, output: 15 } })
    config.upstreams!.push({ id: 'claude', vendor: 'anthropic', baseUrl: claude.url, apiKey: 'claude-key' })
    config.groups!.push({ id: 'claude', protocol: 'messages', models: ['test-claude'], upstreams: ['claude'] })
    return config
  },
  resetFakes: true,
})
const admin = adminClient(gw)
const quotaKeyId = async () => (await admin.get('/admin/v1/keys')).json.find((k: { name: string | null }) => k.name === 'quota').id as string

beforeEach(async () => {
  fake.setScenario({ kind: 'ok', usage: FULL_USAGE })
  // Each test sets its own limits, from none; spending counts anew from each change.
  expect((await admin.patch('/admin/v1/account', { budget: null })).status).toBe(200)
  expect((await admin.patch(`/admin/v1/keys/${await quotaKeyId()}`, { quota: null })).status).toBe(200)
  expect((await admin.patch('/admin/v1/upstreams/a', { budget: null })).status).toBe(200)
})

describe('the worst case held is the quote\'s max', () => {
  it('a quote of the request says the same figure the test holds', async () => {
    const quote = await gw.post('/v1/quote', { endpoint: '/v1/chat/completions', request: body })
    expect(quote.status).toBe(200)
    const json = await quote.json()
    expect(json.basis).toMatchObject({ input_tokens: PROMPT_TOKENS, max_output_tokens: MAX_TOKENS, output_cap: 'max_tokens' })
    expect(Math.round(json.max * 1e9)).toBe(WORST)
  })
})

describe(`${CALLS} calls at once against room for 5`, () => {
  it('the account budget: exactly 5 answered, 45 refused with 402 insufficient_quota; spend is 5 worst cases, within the budget', async () => {
    expect((await admin.patch('/admin/v1/account', { budget: ROOM_FOR_FIVE / 1e9 })).json).toMatchObject({ budget: ROOM_FOR_FIVE / 1e9, reserved: 0 })
    const before = await money(gw)
    const { ok, refused } = await burst(gw)
    expect(ok.length).toBe(5)
    expect(refused.length).toBe(45)
    for (const r of refused) expect(r).toEqual({ status: 402, json: ACCOUNT_REFUSAL })
    const after = await money(gw)
    expect(after).toEqual({ balance: ROOM_FOR_FIVE - 5 * WORST, reserved: 0, holds: 0, billed: before.billed + 5 * WORST })
    expect(ROOM_FOR_FIVE - after.balance).toBeLessThanOrEqual(ROOM_FOR_FIVE)
    expect(fake.calls.length).toBe(5)
  })

  it('a key\'s quota: exactly 5 answered, 45 refused naming the key\'s quota; the key spent 5 worst cases', async () => {
    const id = await quotaKeyId()
    expect((await admin.patch(`/admin/v1/keys/${id}`, { quota: ROOM_FOR_FIVE / 1e9 })).json).toMatchObject({ quota: ROOM_FOR_FIVE / 1e9, used: 0 })
    const { ok, refused } = await burst(gw, { authorization: `Bearer ${QUOTA_KEY}` })
    expect(ok.length).toBe(5)
    expect(refused.length).toBe(45)
    for (const r of refused) expect(r).toEqual({ status: 402, json: KEY_REFUSAL })
    await gw.services.store.ledger.flush()
    expect(await gw.services.store.apiKeys.get(id)).toMatchObject({ quota_nano: ROOM_FOR_FIVE, used_nano: 5 * WORST })
    expect((await money(gw)).holds).toBe(0)
    // Another key, with no quota, goes on.
    expect((await gw.post('/v1/chat/completions', body)).status).toBe(200)
  })

  it('an upstream account\'s budget, the only account: exactly 5 answered, 45 refused naming it; it spent 5 worst cases', async () => {
    expect((await admin.patch('/admin/v1/upstreams/a', { budget: ROOM_FOR_FIVE / 1e9 })).json).toMatchObject({ budget: ROOM_FOR_FIVE / 1e9, spent: 0 })
    const { ok, refused } = await burst(gw)
    expect(ok.length).toBe(5)
    expect(refused.length).toBe(45)
    for (const r of refused) expect(r).toEqual({ status: 402, json: UPSTREAM_REFUSAL })
    await gw.services.store.ledger.flush()
    const upstream = (await gw.services.store.upstreams.all()).find((u) => u.id === 'a')!
    expect(Number(upstream.spent_nano)).toBe(5 * WORST)
    expect(await money(gw)).toMatchObject({ reserved: 0, holds: 0 })
  })

  it('the 402 in the Messages protocol\'s shape, and in Chinese', async () => {
    // The Messages request's worst case, as its quote says: its prompt at 3000 nano-USD a token, 40 tokens at 15000.
    const claudeBody = { ...body, model: 'test-claude' }
    const quote = await (await gw.post('/v1/quote', { endpoint: '/v1/messages', request: claudeBody }, { authorization: `Bearer ${MESSAGES_KEY}` })).json()
    const claudeWorst = quote.basis.input_tokens * 3000 + MAX_TOKENS * 15000
    expect(Math.round(quote.max * 1e9)).toBe(claudeWorst)
    expect((await admin.patch('/admin/v1/account', { budget: (claudeWorst - 1) / 1e9 })).status).toBe(200)
    const messages = await gw.post('/v1/messages', claudeBody, { authorization: `Bearer ${MESSAGES_KEY}` })
    expect(messages.status).toBe(402)
    expect(await messages.json()).toEqual({ type: 'error', error: { type: 'billing_error', message:
      `This request could cost up to ${usd(claudeWorst)} USD, and ${usd(claudeWorst - 1)} USD is left of the account's budget (less what requests under way hold). A lower max_tokens fits: at most 39.` } })
    expect((await admin.patch('/admin/v1/account', { budget: (WORST - 1) / 1e9 })).status).toBe(200)
    const zh = await gw.post('/v1/chat/completions', body, { 'accept-language': 'zh-CN' })
    expect(zh.status).toBe(402)
    expect(await zh.json()).toEqual(chatRefusal(
      `此请求最多可能花费 ${usd(WORST)} USD，账户预算剩余 ${usd(WORST - 1)} USD（已扣除进行中的请求所预留的金额）。降低 max_tokens 即可：最多 ${FIT}。`,
    ))
    // Without max_tokens the model's output limit is the cap; the advice names max_tokens all the same.
    const uncapped = await gw.post('/v1/chat/completions', { ...body, max_tokens: undefined })
    expect(uncapped.status).toBe(402)
    expect((await uncapped.json()).error.message).toMatch(/ A lower max_tokens fits: at most 39\.$/)
    // A budget the prompt alone does not fit: no max_tokens would.
    expect((await admin.patch('/admin/v1/account', { budget: 1e-9 })).status).toBe(200)
    const none = await gw.post('/v1/chat/completions', body)
    expect((await none.json()).error.message).toBe(
      `This request could cost up to ${usd(WORST)} USD, and 0.000000001 USD is left of the account's budget (less what requests under way hold). Even a one-token answer does not fit.`,
    )
    expect(fake.calls.length).toBe(0)
  })
})

describe('settling: the actual cost is charged, the rest given back to the nano-dollar', () => {
  const BUDGET = 1_000_000_000 // 1 USD
  beforeEach(async () => {
    expect((await admin.patch('/admin/v1/account', { budget: BUDGET / 1e9 })).status).toBe(200)
  })

  it('a success that used less than its cap: the row costs its usage and keeps what was held; nothing stays held', async () => {
    fake.setScenario({ kind: 'ok', usage: { prompt_tokens: PROMPT_TOKENS, completion_tokens: 10 } })
    const res = await gw.post('/v1/chat/completions', body)
    expect(res.status).toBe(200)
    const id = res.headers.get('x-request-id')!
    await res.json()
    const cost = PROMPT_TOKENS * 2000 + 10 * 8000
    expect(await money(gw)).toMatchObject({ balance: BUDGET - cost, reserved: 0, holds: 0 })
    expect(await gw.services.store.sql.get('SELECT cost_nano, reserved_nano FROM requests WHERE id = ?', [id])).toEqual({ cost_nano: cost, reserved_nano: WORST })
    const usage = await (await gw.get('/v1/usage')).json()
    expect(usage).toMatchObject({ budget: 1, spent: cost / 1e9, remaining: (BUDGET - cost) / 1e9, reserved: 0, available: (BUDGET - cost) / 1e9 })
  })

  it('a vendor that overran the cap is billed as reported; the row shows the hold it went past', async () => {
    fake.setScenario({ kind: 'ok', usage: { prompt_tokens: PROMPT_TOKENS, completion_tokens: MAX_TOKENS + 60 } })
    const res = await gw.post('/v1/chat/completions', body)
    expect(res.status).toBe(200)
    const id = res.headers.get('x-request-id')!
    await res.json()
    const cost = PROMPT_TOKENS * 2000 + (MAX_TOKENS + 60) * 8000
    await gw.services.store.ledger.flush()
    expect(await gw.services.store.sql.get('SELECT cost_nano, reserved_nano FROM requests WHERE id = ?', [id])).toEqual({ cost_nano: cost, reserved_nano: WORST })
    expect(await money(gw)).toMatchObject({ balance: BUDGET - cost, reserved: 0, holds: 0 })
  })

  it('the next request sees an overrun at once: its worst case is checked against what the overrun left', async () => {
    // Room for three worst cases; the first call goes 60 tokens past its cap (0.00048 USD more than it held), which
    // leaves less than one: the store must count the overrun before the next hold, not the first call's hold.
    expect((await admin.patch('/admin/v1/account', { budget: 3 * WORST / 1e9 })).status).toBe(200)
    fake.once({ kind: 'ok', usage: { prompt_tokens: PROMPT_TOKENS, completion_tokens: MAX_TOKENS + 60 } })
    const first = await gw.post('/v1/chat/completions', body)
    expect(first.status).toBe(200)
    await first.json()
    const next = await gw.post('/v1/chat/completions', body)
    expect(next.status).toBe(402)
    expect(await next.json()).toEqual(chatRefusal(
      `This request could cost up to ${usd(WORST)} USD, and ${usd(2 * WORST - 480_000)} USD is left of the account's budget (less what requests under way hold). A lower max_tokens fits: at most ${Math.floor((2 * WORST - 480_000 - PROMPT_TOKENS * 2000) / 8000)}.`,
    ))
  })

  it('a stream cut by the vendor: billed what was counted, the rest released', async () => {
    fake.once({ kind: 'break_after', chunks: 2 })
    const res = await gw.post('/v1/chat/completions', { ...body, stream: true })
    expect(res.status).toBe(200)
    const id = res.headers.get('x-request-id')!
    await res.text()
    const row = (await gw.services.store.ledger.get(id))!
    expect(row.cost_nano).toBeGreaterThan(0)
    expect(row.cost_nano).toBeLessThan(WORST)
    expect(await money(gw)).toMatchObject({ balance: BUDGET - row.cost_nano, reserved: 0, holds: 0 })
  })

  it('a client that leaves mid-stream: its 499 row is billed what was counted, the rest released', async () => {
    fake.once({ kind: 'slow', delayMs: 100, text: 'one two three four five six seven eight' })
    const res = await gw.post('/v1/chat/completions', { ...body, stream: true })
    expect(res.status).toBe(200)
    const id = res.headers.get('x-request-id')!
    const reader = res.body!.getReader()
    await reader.read()
    await reader.cancel()
    const deadline = Date.now() + 10_000
    while ((await gw.services.store.ledger.get(id)) === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
    const row = (await gw.services.store.ledger.get(id))!
    expect(row.status).toBe(499)
    expect(await money(gw)).toMatchObject({ balance: BUDGET - row.cost_nano, reserved: 0, holds: 0 })
  })

  it('an upstream error before any content: nothing billed, everything released', async () => {
    fake.once({ kind: 'status', status: 400 })
    const res = await gw.post('/v1/chat/completions', body)
    expect(res.status).toBe(400)
    await res.json()
    expect(await money(gw)).toMatchObject({ balance: BUDGET, reserved: 0, holds: 0 })
  })
})

describe('failover and upstream budgets', () => {
  const { gw: two, fakes: { second } } = withGateway({
    fakes: { second: startFakeOpenAI },
    config({ second }) {
      const config = configWithoutAccount([{ id: 'a', baseUrl: fake.url }, { id: 'b', baseUrl: second.url }])
      config.account = { concurrency: 60 }
      return config
    },
    resetFakes: true,
  })
  const twoAdmin = adminClient(two)

  it(`an account whose budget cannot hold the worst case is skipped: of ${CALLS} at once, 5 go to it and 45 to the next`, async () => {
    fake.setScenario({ kind: 'ok', usage: FULL_USAGE })
    second.setScenario({ kind: 'ok', usage: FULL_USAGE })
    expect((await twoAdmin.patch('/admin/v1/upstreams/a', { budget: ROOM_FOR_FIVE / 1e9 })).status).toBe(200)
    const { ok, refused } = await burst(two)
    expect([ok.length, refused.length]).toEqual([CALLS, 0])
    await two.services.store.ledger.flush()
    const upstreams = await two.services.store.upstreams.all()
    expect(Number(upstreams.find((u) => u.id === 'a')!.spent_nano)).toBe(5 * WORST)
    expect(await two.services.store.sql.get("SELECT COUNT(*) AS n FROM requests WHERE upstream_id = 'b' AND status = 200")).toEqual({ n: 45 })
    expect(await two.services.store.sql.get("SELECT COUNT(*) AS n FROM requests WHERE attempts LIKE '%skipped: budget%'")).toEqual({ n: 45 })
    expect((await money(two)).holds).toBe(0)
  })

  it('a failover to the next account moves the hold with it; the answer settles it on the account that served', async () => {
    expect((await twoAdmin.patch('/admin/v1/upstreams/a', { budget: null })).status).toBe(200)
    expect((await twoAdmin.patch('/admin/v1/account', { budget: 1 })).status).toBe(200)
    fake.setScenario({ kind: 'status', status: 500 })
    second.setScenario({ kind: 'ok', usage: { prompt_tokens: PROMPT_TOKENS, completion_tokens: 3 } })
    const res = await two.post('/v1/chat/completions', body)
    expect(res.status).toBe(200)
    const id = res.headers.get('x-request-id')!
    await res.json()
    const cost = PROMPT_TOKENS * 2000 + 3 * 8000
    await two.services.store.ledger.flush()
    expect(await two.services.store.sql.get('SELECT upstream_id, cost_nano, reserved_nano FROM requests WHERE id = ?', [id])).toEqual({ upstream_id: 'b', cost_nano: cost, reserved_nano: WORST })
    expect(await money(two)).toMatchObject({ balance: 1e9 - cost, reserved: 0, holds: 0 })
  })
})

describe('a fallback model holds again, at its own price', () => {
  // `cheap` (1 and 2 USD per 1M) on account `down`, which answers 503; its fallback `dear` (5 and 10) on `up`.
  const { gw: fb, fakes: { down, up } } = withGateway({
    fakes: { down: startFakeOpenAI, up: startFakeOpenAI },
    config: ({ down, up }) => ({
      account: { concurrency: 10 },
      models: [
        { id: 'cheap', family: 'gpt', vendor: 'openai', pricing: { unit: 'token', input: 1, output: 2 }, limits: { maxOutputTokens: 4096 }, fallbacks: [{ model: 'dear', on: ['unavailable'] }] },
        { id: 'dear', family: 'gpt', vendor: 'openai', pricing: { unit: 'token', input: 5, output: 10 }, limits: { maxOutputTokens: 4096 } },
      ],
      upstreams: [
        { id: 'down', vendor: 'openai', baseUrl: down.url, apiKey: 'k-down', models: ['cheap'] },
        { id: 'up', vendor: 'openai', baseUrl: up.url, apiKey: 'k-up', models: ['dear'] },
      ],
      groups: [{ id: 'main', protocol: 'chat', models: ['cheap', 'dear'], upstreams: ['down', 'up'] }],
      keys: [{ key: TEST_KEY, group: 'main' }],
    }),
    resetFakes: true,
  })
  const ask = { model: 'cheap', max_tokens: MAX_TOKENS, messages: [{ role: 'user', content: 'hello there' }] }
  const CHEAP_WORST = PROMPT_TOKENS * 1000 + MAX_TOKENS * 2000
  const DEAR_WORST = PROMPT_TOKENS * 5000 + MAX_TOKENS * 10_000

  it('the fallback that answers is held and billed at its price; the primary\'s hold is given back', async () => {
    expect((await adminClient(fb).patch('/admin/v1/account', { budget: 1 })).status).toBe(200)
    down.setScenario({ kind: 'status', status: 503 })
    up.setScenario({ kind: 'ok', usage: { prompt_tokens: PROMPT_TOKENS, completion_tokens: 7 } })
    const res = await fb.post('/v1/chat/completions', ask)
    expect(res.status).toBe(200)
    const id = res.headers.get('x-request-id')!
    await res.json()
    await fb.services.store.ledger.flush()
    const cost = PROMPT_TOKENS * 5000 + 7 * 10_000
    expect(await fb.services.store.sql.get('SELECT model, cost_nano, reserved_nano FROM requests WHERE id = ?', [id])).toEqual({ model: 'dear', cost_nano: cost, reserved_nano: DEAR_WORST })
    expect(await money(fb)).toMatchObject({ balance: 1e9 - cost, reserved: 0, holds: 0 })
  })

  it('a fallback whose worst case does not fit is passed over: the primary\'s error stands, nothing stays held', async () => {
    // Room for the primary's worst case, not the fallback's.
    expect((await adminClient(fb).patch('/admin/v1/account', { budget: (DEAR_WORST - 1) / 1e9 })).status).toBe(200)
    expect(CHEAP_WORST).toBeLessThan(DEAR_WORST - 1)
    down.setScenario({ kind: 'status', status: 503 })
    const res = await fb.post('/v1/chat/completions', ask)
    expect(res.status).toBe(503)
    await res.json()
    expect(up.calls).toHaveLength(0)
    expect(await money(fb)).toMatchObject({ balance: DEAR_WORST - 1, reserved: 0, holds: 0 })
  })
})

describe('an async image task takes its request\'s hold', () => {
  const { gw: images, fakes: { painter } } = withGateway({
    fakes: { painter: () => startFakeOpenAIImages({ apiKey: 'oa' }) },
    config: ({ painter }) => ({
      account: { concurrency: 10 },
      models: [{ id: 'img-gpt', family: 'gpt-image', vendor: 'openai', pricing: { unit: 'image', price: 0.04 }, variant: '2.5', sizeTiers: [], maxN: 10, maxReferenceImages: 16 }] as never,
      upstreams: [{ id: 'oa', vendor: 'openai', baseUrl: painter.url, apiKey: 'oa' }],
      groups: [{ id: 'main', protocol: 'chat', models: ['img-gpt'], upstreams: ['oa'] }],
      keys: [{ key: TEST_KEY, group: 'main' }],
    }),
  })

  it('held while the task runs (the 202 settles nothing), settled when it ends', async () => {
    // Room for two images of 0.04 USD.
    expect((await adminClient(images).patch('/admin/v1/account', { budget: 0.1 })).status).toBe(200)
    painter.setScenario({ kind: 'slow', delayMs: 1_500 })
    const submit = () => images.post('/v1/images/generations', { model: 'img-gpt', prompt: 'a fox' }, { prefer: 'respond-async' })
    const tasks: string[] = []
    for (let i = 0; i < 2; i++) {
      const res = await submit()
      expect(res.status).toBe(202)
      tasks.push(((await res.json()) as { task_id: string }).task_id)
    }
    // Both still running: their holds are theirs, and a third does not fit.
    const third = await submit()
    expect(third.status).toBe(402)
    expect(await third.json()).toEqual(chatRefusal("This request could cost up to 0.04 USD, and 0.02 USD is left of the account's budget (less what requests under way hold)."))
    await images.services.store.ledger.flush()
    expect((await images.services.store.sql.all<{ id: string }>('SELECT id FROM holds ORDER BY id')).map((h) => h.id)).toEqual([...tasks].sort())
    const deadline = Date.now() + 10_000
    while ((await money(images)).holds > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
    for (const id of tasks) expect(await images.services.store.ledger.get(id)).toMatchObject({ status: 200, cost_nano: 40_000_000 })
    expect(await money(images)).toMatchObject({ balance: 100_000_000 - 80_000_000, reserved: 0, holds: 0 })
  })
})

describe('a restart', () => {
  it('releases the holds a stopped process left, and nothing else', async () => {
    const config = configWithoutAccount([{ id: 'a', baseUrl: fake.url }])
    config.account = { balance: 1 }
    const dataDir = tempDataDir()
    const logs: string[] = []
    let running = await startTestGateway(config, dataDir)
    try {
      const first = running
      // A request under way when its process stopped: its hold is in the store, its row never written.
      await first.services.store.sql.run("INSERT INTO holds (id, replica, key_id, upstream_id, amount_nano, created_at) VALUES ('req_orphan', 'stopped-replica', 'k', NULL, 123456789, 0)")
      await first.services.store.sql.run('UPDATE account SET reserved_nano = reserved_nano + 123456789 WHERE id = 1')
      expect((await adminClient(first).get('/admin/v1/account')).json).toMatchObject({ budget: 1, reserved: 0.123456789, available: 0.876543211 })
      await first.close(1_000)
      const second = await startTestGateway(config, dataDir, { log: (line) => logs.push(line) })
      running = second
      expect((await adminClient(second).get('/admin/v1/account')).json).toMatchObject({ budget: 1, spent: 0, reserved: 0, available: 1 })
      expect(await second.services.store.sql.get('SELECT COUNT(*) AS n FROM holds')).toEqual({ n: 0 })
      expect(logs.some((l) => l.includes('released 1 hold'))).toBe(true)
    } finally {
      await running.stop()
    }
  })
})
