import { beforeEach, describe, expect, it } from 'vitest'
import { startFakeOpenAI } from '../fakes/openai.js'
import { TEST_KEY, withGateway } from '../helpers/gateway.js'
import { readSse } from '../helpers/sse.js'
import { adminClient } from './admin/admin-helpers.js'
import { configWithoutAccount } from './budget-config.js'

// test-gpt: 2 USD per 1M input tokens, 8 per 1M output.
const body = { model: 'test-gpt', messages: [{ role: 'user', content: 'hello' }] }
const USAGE = { prompt_tokens: 1000, completion_tokens: 500 } // 0.006 USD
const QUOTA_KEY = 'sk-budget-quota-0123456789'
const REFUSED_BALANCE = { error: { message: 'The account balance cannot cover this request; top up to continue.', type: 'insufficient_quota', param: null, code: 'insufficient_quota' } }
const REFUSED_KEY = { error: { message: 'This API key has used up its quota.', type: 'insufficient_quota', param: null, code: 'insufficient_quota' } }

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
    expect((await admin.get('/admin/v1/account')).json).toEqual({ budget: null, spent: 0, remaining: null, balance: 0, reserved: 0, concurrency: 5 })
    for (let i = 0; i < 2; i++) {
      const res = await gw.post('/v1/chat/completions', body)
      expect(res.status).toBe(200)
      await res.json()
    }
    const stream = await gw.post('/v1/chat/completions', { ...body, stream: true })
    expect(stream.status).toBe(200)
    await readSse(stream)
    expect((await gw.services.store.ledger.recent(null, 3)).map((r) => r.cost_nano)).toEqual([6_000_000, 6_000_000, 6_000_000])
    expect((await admin.get('/admin/v1/account')).json).toEqual({ budget: null, spent: 0.018, remaining: null, balance: 0, reserved: 0, concurrency: 5 })
    expect(await usage()).toMatchObject({ object: 'usage', budget: null, spent: 0.018, remaining: null, balance: 0, currency: 'USD' })
  })

  it('a budget set through the admin API refuses with 402 once spent, and null clears it again', async () => {
    const set = await admin.patch('/admin/v1/account', { budget: 0.01 })
    expect(set.status).toBe(200)
    expect(set.json).toEqual({ budget: 0.01, spent: 0, remaining: 0.01, balance: 0.01, reserved: 0, concurrency: 5 })
    // 0.006 of 0.01: still positive, so allowed; the second takes it below zero (the cost is known only afterwards)
    for (let i = 0; i < 2; i++) expect((await gw.post('/v1/chat/completions', body)).status).toBe(200)
    expect(await usage()).toMatchObject({ budget: 0.01, spent: 0.012, remaining: -0.002, balance: -0.002 })
    const refused = await gw.post('/v1/chat/completions', body)
    expect(refused.status).toBe(402)
    expect(await refused.json()).toEqual(REFUSED_BALANCE)
    expect(fake.calls.length).toBe(2)

    const cleared = await admin.patch('/admin/v1/account', { budget: null })
    expect(cleared.json).toEqual({ budget: null, spent: 0, remaining: null, balance: 0, reserved: 0, concurrency: 5 })
    expect((await gw.post('/v1/chat/completions', body)).status).toBe(200)
    expect(await usage()).toMatchObject({ budget: null, spent: 0.006, remaining: null, balance: 0 })
  })

  it('a budget of 0 refuses at once; a wrong budget is a 400 naming the field', async () => {
    expect((await admin.patch('/admin/v1/account', { budget: 0 })).status).toBe(200)
    const refused = await gw.post('/v1/chat/completions', body)
    expect(refused.status).toBe(402)
    expect(await refused.json()).toEqual(REFUSED_BALANCE)
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

  it('a key budget is its quota: set, refused once spent, cleared with null', async () => {
    const key = (await admin.get('/admin/v1/keys')).json.find((k: { name: string | null }) => k.name === 'quota')
    expect((await admin.patch(`/admin/v1/keys/${key.id}`, { quota: 0.005 })).json).toMatchObject({ quota: 0.005, used: 0 })
    expect((await gw.post('/v1/chat/completions', body, { authorization: `Bearer ${QUOTA_KEY}` })).status).toBe(200)
    const refused = await gw.post('/v1/chat/completions', body, { authorization: `Bearer ${QUOTA_KEY}` })
    expect(refused.status).toBe(402)
    expect(await refused.json()).toEqual(REFUSED_KEY)
    // the account has no budget: other keys go on
    expect((await gw.post('/v1/chat/completions', body)).status).toBe(200)
    expect((await admin.patch(`/admin/v1/keys/${key.id}`, { quota: null })).json).toMatchObject({ quota: null, used: 0.006 })
    expect((await gw.post('/v1/chat/completions', body, { authorization: `Bearer ${QUOTA_KEY}` })).status).toBe(200)
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
  beforeEach(() => second.setScenario({ kind: 'ok', usage: USAGE }))
  const upstream = async (id: string) => (await capAdmin.get('/admin/v1/upstreams')).json.find((u: { id: string }) => u.id === id)

  it('failover skips an account whose budget is reached; with none left the answer is 402 naming them', async () => {
    expect(await upstream('first')).toMatchObject({ budget: 0.005, spent: 0 })
    // 0.006 through `first` takes it past its cap of 0.005
    expect((await capped.post('/v1/chat/completions', body)).status).toBe(200)
    expect((await capped.services.store.ledger.recent(null, 1))[0].upstream_id).toBe('first')
    expect(await upstream('first')).toMatchObject({ budget: 0.005, spent: 0.006 })
    expect((await capped.post('/v1/chat/completions', body)).status).toBe(200)
    expect((await capped.services.store.ledger.recent(null, 1))[0].upstream_id).toBe('second')
    expect(fake.calls.length).toBe(1)

    expect((await capAdmin.patch('/admin/v1/upstreams/second', { budget: 0.001 })).json).toMatchObject({ budget: 0.001, spent: 0 })
    expect((await capped.post('/v1/chat/completions', body)).status).toBe(200)
    const refused = await capped.post('/v1/chat/completions', body)
    expect(refused.status).toBe(402)
    expect(await refused.json()).toEqual({ error: {
      message: 'Every upstream account that serves test-gpt has reached its budget (first, second): raise or remove a budget under Keys & groups.',
      type: 'insufficient_quota', param: null, code: 'insufficient_quota',
    } })
    expect(second.calls.length).toBe(2)
  })

  it('removing a budget (null) opens the account again; a restart with the same config keeps what was spent', async () => {
    // spending counts anew from each change of the cap, its removal too
    expect((await capAdmin.patch('/admin/v1/upstreams/second', { budget: null })).json).toMatchObject({ budget: null, spent: 0 })
    expect((await capped.post('/v1/chat/completions', body)).status).toBe(200)
    expect((await capped.services.store.ledger.recent(null, 1))[0].upstream_id).toBe('second')
    // the config's cap for `first` is applied again at each start: the same value keeps its spend
    const rows = (await capped.services.store.upstreams.all())
    await capped.services.store.upstreams.upsert({ ...rows[0] })
    expect((await capped.services.store.upstreams.all())[0]).toMatchObject({ id: 'first', budget_nano: 5_000_000, spent_nano: 6_000_000 })
    await capped.services.store.upstreams.upsert({ ...rows[0], budget_nano: 7_000_000 })
    expect((await capped.services.store.upstreams.all())[0]).toMatchObject({ budget_nano: 7_000_000, spent_nano: 0 })
  })
})
