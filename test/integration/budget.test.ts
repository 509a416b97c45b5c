import { beforeEach, describe, expect, it } from 'vitest'
import { startFakeOpenAI } from '../fakes/openai.js'
import { TEST_KEY, withGateway } from '../helpers/gateway.js'
import { readSse } from '../helpers/sse.js'
import { adminClient } from './admin/admin-helpers.js'
import { configWithoutAccount } from './budget-config.js'

// test-gpt: 2 USD per 1M input tokens, 8 per 1M output (2000 and 8000 nano-USD a token).
const body = { model: 'test-gpt', messages: [{ role: 'user', content: 'hello' }] }
const USAGE = { prompt_tokens: 1000, completion_tokens: 500 } // 0.006 USD
// Every request holds its worst case first (issue 24): "hello" counts 3 tokens; with max_tokens 500 it may cost
// 3 × 2000 + 500 × 8000 = 0.004006 USD, and a call that uses its cap costs exactly that.
const cappedBody = { ...body, max_tokens: 500 }
const CAPPED_WORST = 4_006_000
const CAPPED_USAGE = { prompt_tokens: 3, completion_tokens: 500 }
const QUOTA_KEY = 'sk-budget-quota-0123456789'
const refused = (message: string) => ({ error: { message, type: 'insufficient_quota', param: null, code: 'insufficient_quota' } })

const { gw, fakes: { openai: fake } } = withGateway({
  fakes: { openai: startFakeOpenAI },
  /** A new install's config, with a key to give a quota. */
  config({ openai }) {
    const config = configWithoutAccount([{ id: 'a', baseUrl: openai.url }])
    config.keys!.push({ key: QUOTA_KEY, group: 'main', name: 'quota' })
    return config
  },
  resetFakes: true,
})
const admin = adminClient(gw)
const usage = async (key = TEST_KEY) => (await gw.get('/v1/usage', { authorization: `Bearer ${key}` })).json()

beforeEach(() => fake.setScenario({ kind: 'ok', usage: USAGE }))

describe('the account budget (issue 14)', () => {
  it('a config without `account` has no budget: requests with a $0 balance succeed and their cost is still recorded', async () => {
    expect((await admin.get('/admin/v1/account')).json).toEqual({ budget: null, spent: 0, remaining: null, balance: 0, reserved: 0, available: null, concurrency: 5 })
    for (let i = 0; i < 2; i++) {
      const res = await gw.post('/v1/chat/completions', body)
      expect(res.status).toBe(200)
      await res.json()
    }
    const stream = await gw.post('/v1/chat/completions', { ...body, stream: true })
    expect(stream.status).toBe(200)
    await readSse(stream)
    expect((await gw.services.store.ledger.recent(null, 3)).map((r) => r.cost_nano)).toEqual([6_000_000, 6_000_000, 6_000_000])
    expect((await admin.get('/admin/v1/account')).json).toEqual({ budget: null, spent: 0.018, remaining: null, balance: 0, reserved: 0, available: null, concurrency: 5 })
    expect(await usage()).toMatchObject({ object: 'usage', budget: null, spent: 0.018, remaining: null, balance: 0, currency: 'USD' })
  })

  it('a budget set through the admin API refuses with 402 a request whose worst case does not fit, and null clears it again', async () => {
    fake.setScenario({ kind: 'ok', usage: CAPPED_USAGE })
    const set = await admin.patch('/admin/v1/account', { budget: 0.01 })
    expect(set.status).toBe(200)
    expect(set.json).toEqual({ budget: 0.01, spent: 0, remaining: 0.01, balance: 0.01, reserved: 0, available: 0.01, concurrency: 5 })
    // Two worst cases fit in 0.01; the third does not: the budget is never passed.
    for (let i = 0; i < 2; i++) expect((await gw.post('/v1/chat/completions', cappedBody)).status).toBe(200)
    expect(await usage()).toMatchObject({ budget: 0.01, spent: 0.008012, remaining: 0.001988, balance: 0.001988, reserved: 0, available: 0.001988 })
    const refusal = await gw.post('/v1/chat/completions', cappedBody)
    expect(refusal.status).toBe(402)
    expect(await refusal.json()).toEqual(refused(
      "This request could cost up to 0.004006 USD, and 0.001988 USD is left of the account's budget (less what requests under way hold). A lower max_tokens fits: at most 247.",
    ))
    expect(fake.calls.length).toBe(2)
    // The largest max_tokens it named fits.
    expect((await gw.post('/v1/chat/completions', { ...cappedBody, max_tokens: 247 })).status).toBe(200)

    const cleared = await admin.patch('/admin/v1/account', { budget: null })
    expect(cleared.json).toEqual({ budget: null, spent: 0, remaining: null, balance: 0, reserved: 0, available: null, concurrency: 5 })
    fake.setScenario({ kind: 'ok', usage: USAGE })
    expect((await gw.post('/v1/chat/completions', body)).status).toBe(200)
    expect(await usage()).toMatchObject({ budget: null, spent: 0.006, remaining: null, balance: 0 })
  })

  it('a budget of 0 refuses at once; a wrong budget is a 400 naming the field', async () => {
    expect((await admin.patch('/admin/v1/account', { budget: 0 })).status).toBe(200)
    const refusal = await gw.post('/v1/chat/completions', body)
    expect(refusal.status).toBe(402)
    // Without max_tokens the cap is test-gpt's output limit, 4096 tokens.
    expect(await refusal.json()).toEqual(refused(
      "This request could cost up to 0.032774 USD, and 0 USD is left of the account's budget (less what requests under way hold). Even a one-token answer does not fit.",
    ))
    const negative = await admin.patch('/admin/v1/account', { budget: -1 })
    expect(negative.status).toBe(400)
    expect(negative.json.error).toMatchObject({ code: 'invalid_request', param: 'budget' })
    // Money is integer nano-USD, exact below 2^53 on either store: at most 9 million USD, for the account and a key.
    const huge = await admin.patch('/admin/v1/account', { budget: 9_000_001 })
    expect([huge.status, huge.json.error]).toMatchObject([400, { code: 'invalid_request', param: 'budget', message: expect.stringContaining('must be <= 9000000') }])
    expect((await admin.patch('/admin/v1/account', { budget: 9_000_000 })).status).toBe(200)
    const key = (await admin.get('/admin/v1/keys')).json.find((k: { name: string | null }) => k.name === 'quota')
    const hugeQuota = await admin.patch(`/admin/v1/keys/${key.id}`, { quota: 9_000_001 })
    expect([hugeQuota.status, hugeQuota.json.error]).toMatchObject([400, { code: 'invalid_request', param: 'quota' }])
    expect((await admin.patch('/admin/v1/account', { budget: null })).status).toBe(200)
  })

  it('a key budget is its quota: set, refused when the worst case no longer fits, cleared with null', async () => {
    fake.setScenario({ kind: 'ok', usage: CAPPED_USAGE })
    const key = (await admin.get('/admin/v1/keys')).json.find((k: { name: string | null }) => k.name === 'quota')
    expect((await admin.patch(`/admin/v1/keys/${key.id}`, { quota: 0.005 })).json).toMatchObject({ quota: 0.005, used: 0, reserved: 0 })
    expect((await gw.post('/v1/chat/completions', cappedBody, { authorization: `Bearer ${QUOTA_KEY}` })).status).toBe(200)
    const refusal = await gw.post('/v1/chat/completions', cappedBody, { authorization: `Bearer ${QUOTA_KEY}` })
    expect(refusal.status).toBe(402)
    expect(await refusal.json()).toEqual(refused(
      "This request could cost up to 0.004006 USD, and 0.000994 USD is left of this API key's quota (less what its requests under way hold). A lower max_tokens fits: at most 123.",
    ))
    expect((await usage(QUOTA_KEY)).key).toMatchObject({ quota: 0.005, used: CAPPED_WORST / 1e9, remaining: 0.000994, reserved: 0, available: 0.000994 })
    // the account has no budget: other keys go on
    expect((await gw.post('/v1/chat/completions', cappedBody)).status).toBe(200)
    expect((await admin.patch(`/admin/v1/keys/${key.id}`, { quota: null })).json).toMatchObject({ quota: null, used: CAPPED_WORST / 1e9 })
    expect((await gw.post('/v1/chat/completions', cappedBody, { authorization: `Bearer ${QUOTA_KEY}` })).status).toBe(200)
  })
})

describe('upstream account budgets', () => {
  // A gateway of this block's own, on the file's fake and a second one.
  const { gw: capped, fakes: { second } } = withGateway({
    fakes: { second: startFakeOpenAI },
    config({ second }) {
      const config = configWithoutAccount([{ id: 'first', baseUrl: fake.url }, { id: 'second', baseUrl: second.url }])
      config.upstreams![0].budget = 0.005
      return config
    },
  })
  const capAdmin = adminClient(capped)
  beforeEach(() => {
    fake.setScenario({ kind: 'ok', usage: CAPPED_USAGE })
    second.setScenario({ kind: 'ok', usage: CAPPED_USAGE })
  })
  const upstream = async (id: string) => (await capAdmin.get('/admin/v1/upstreams')).json.find((u: { id: string }) => u.id === id)

  it('failover skips an account whose budget cannot hold the worst case; with none left the answer is 402 naming them', async () => {
    expect(await upstream('first')).toMatchObject({ budget: 0.005, spent: 0 })
    // 0.004006 through `first` leaves 0.000994 of its cap of 0.005: too little for the next worst case
    expect((await capped.post('/v1/chat/completions', cappedBody)).status).toBe(200)
    expect((await capped.services.store.ledger.recent(null, 1))[0].upstream_id).toBe('first')
    expect(await upstream('first')).toMatchObject({ budget: 0.005, spent: 0.004006 })
    expect((await capped.post('/v1/chat/completions', cappedBody)).status).toBe(200)
    expect((await capped.services.store.ledger.recent(null, 1))[0].upstream_id).toBe('second')
    expect(fake.calls.length).toBe(1)

    expect((await capAdmin.patch('/admin/v1/upstreams/second', { budget: 0.001 })).json).toMatchObject({ budget: 0.001, spent: 0 })
    const refusal = await capped.post('/v1/chat/completions', cappedBody)
    expect(refusal.status).toBe(402)
    expect(await refusal.json()).toEqual(refused(
      'This request could cost up to 0.004006 USD, more than is left of the budget of any upstream account that serves test-gpt (first, second; at most 0.001 USD left). A lower max_tokens fits: at most 124.',
    ))
    expect(second.calls.length).toBe(1)
    // An account spent to its budget (a vendor past the cap) is passed over as before: the answer names them all.
    await capped.services.store.sql.run("UPDATE upstreams SET spent_nano = budget_nano WHERE id IN ('first', 'second')")
    await capped.services.registry.reload()
    const reached = await capped.post('/v1/chat/completions', cappedBody)
    expect(await reached.json()).toEqual(refused('Every upstream account that serves test-gpt has reached its budget (first, second): raise or remove a budget under Keys & groups.'))
  })

  it('removing a budget (null) opens the account again; a restart with the same config keeps what was spent', async () => {
    // spending counts anew from each change of the cap, its removal too
    expect((await capAdmin.patch('/admin/v1/upstreams/second', { budget: null })).json).toMatchObject({ budget: null, spent: 0 })
    expect((await capped.post('/v1/chat/completions', cappedBody)).status).toBe(200)
    expect((await capped.services.store.ledger.recent(null, 1))[0].upstream_id).toBe('second')
    // the config's cap for `first` is applied again at each start: the same value keeps its spend
    const rows = (await capped.services.store.upstreams.all())
    await capped.services.store.upstreams.upsert({ ...rows[0] })
    expect((await capped.services.store.upstreams.all())[0]).toMatchObject({ id: 'first', budget_nano: 5_000_000, spent_nano: 5_000_000 })
    await capped.services.store.upstreams.upsert({ ...rows[0], budget_nano: 7_000_000 })
    expect((await capped.services.store.upstreams.all())[0]).toMatchObject({ budget_nano: 7_000_000, spent_nano: 0 })
  })
})
