import { describe, expect, it } from 'vitest'
import { startFakeOpenAI } from '../fakes/openai.js'
import { chatConfig, fakeOpenAIChat, startGatewayOnTestStore, tempDataDir, TEST_KEY, withGateway } from '../helpers/gateway.js'
import { until } from '../helpers/until.js'
import { readSse } from '../helpers/sse.js'

const body = { model: 'test-gpt', messages: [{ role: 'user', content: 'hello' }] }
const QUOTA_KEY = 'sk-quota-0123456789'
// test-gpt: 2 USD per 1M input tokens, 8 per 1M output = 2000 and 8000 nano-USD per token.
const cost = (input: number, output: number) => input * 2000 + output * 8000

const { gw, fakes: { openai: fake } } = withGateway({ ...fakeOpenAIChat({}, [{ key: QUOTA_KEY, group: 'main', quota: 0.0001 }]), resetFakes: true })

const ledger = async () => (await gw.services.store.ledger.recent(null, 1))[0]
const balance = async (key = TEST_KEY) => (await (await gw.get('/v1/usage', { authorization: `Bearer ${key}` })).json()) as { balance: number; key: { used: number; quota: number | null; remaining: number | null } }

describe('billing (spec §1)', () => {
  it('a successful request is billed from its usage, in one ledger row', async () => {
    const before = await balance()
    fake.setScenario({ kind: 'ok', usage: { prompt_tokens: 1000, completion_tokens: 500 } })
    const res = await gw.post('/v1/chat/completions', body)
    const requestId = res.headers.get('x-request-id')
    await res.json()
    const row = (await ledger())
    expect(row).toMatchObject({ id: requestId, model: 'test-gpt', endpoint: 'chat.completions', status: 200, input_tokens: 1000, output_tokens: 500, cost_nano: cost(1000, 500), upstream_id: 'a', group_id: 'main' })
    expect(row.latency_ms).toBeGreaterThan(0)
    const after = await balance()
    expect(before.balance - after.balance).toBeCloseTo(cost(1000, 500) / 1e9, 12)
    expect(after.key.used - before.key.used).toBeCloseTo(cost(1000, 500) / 1e9, 12)
  })

  it('a streamed request is billed from the usage the gateway asked for, even when the client did not', async () => {
    fake.setScenario({ kind: 'ok', usage: { prompt_tokens: 10, completion_tokens: 20 } })
    await readSse(await gw.post('/v1/chat/completions', { ...body, stream: true }))
    expect((await ledger())).toMatchObject({ status: 200, input_tokens: 10, output_tokens: 20, cost_nano: cost(10, 20) })
  })

  it('failed requests are not billed', async () => {
    const before = await balance()
    fake.setScenario({ kind: 'status', status: 500 })
    expect((await gw.post('/v1/chat/completions', body)).status).toBe(502)
    expect((await ledger())).toMatchObject({ status: 502, cost_nano: 0 })
    expect((await gw.post('/v1/chat/completions', { model: 'test-gpt' })).status).toBe(400)
    expect((await ledger())).toMatchObject({ status: 400, error_code: 'invalid_request', cost_nano: 0 })
    expect((await balance()).balance).toBe(before.balance)
  })

  it('an upstream break mid-stream bills the output already produced, counted locally when no usage came', async () => {
    fake.setScenario({ kind: 'break_after', chunks: 3 })
    const events = await readSse(await gw.post('/v1/chat/completions', { ...body, stream: true }))
    expect(events.at(-1)?.event).toBe('error')
    const row = (await ledger())
    expect(row).toMatchObject({ status: 502, error_code: 'stream_interrupted' })
    // "Hello from the" is 3 tokens in o200k; the prompt "user\nhello" is 3 more.
    expect(row.output_tokens).toBe(3)
    expect(row.input_tokens).toBe(3)
    expect(row.cost_nano).toBe(cost(3, 3))
    expect(JSON.parse(row.usage!)).toMatchObject({ counted_locally: true })
  })

  it('a client that disconnects is recorded as 499 and billed for what was streamed', async () => {
    fake.setScenario({ kind: 'slow', delayMs: 60, text: 'one two three four five six seven eight nine ten' })
    const abort = new AbortController()
    const res = await fetch(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${TEST_KEY}` }, body: JSON.stringify({ ...body, stream: true }), signal: abort.signal })
    const reader = res.body!.getReader()
    let seen = ''
    while (!seen.includes('two')) seen += new TextDecoder().decode((await reader.read()).value)
    abort.abort()
    const id = res.headers.get('x-request-id')!
    const row = await until('the 499 is in the ledger', 5_000, () => gw.services.store.ledger.get(id))
    expect(row.status).toBe(499)
    expect(row.error_code).toBe('client_closed_request')
    expect(row.output_tokens).toBeGreaterThanOrEqual(2)
    expect(row.output_tokens).toBeLessThan(10)
    expect(row.cost_nano).toBe(cost(row.input_tokens!, row.output_tokens!))
  })

  it('a client that leaves before the first byte of a stream is recorded as 499 and not billed', async () => {
    fake.setScenario({ kind: 'slow', delayMs: 400 })
    const abort = new AbortController()
    const before = (await ledger())?.id
    const pending = fetch(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${TEST_KEY}` }, body: JSON.stringify({ ...body, stream: true }), signal: abort.signal }).catch(() => undefined)
    await until('the request reached the vendor', 5_000, () => fake.calls.length === 1)
    abort.abort()
    await pending
    const row = await until('its row is in the ledger', 5_000, async () => { const r = await ledger(); return r?.id !== before && r })
    expect(row).toMatchObject({ status: 499, cost_nano: 0, output_tokens: null })
  })

  it('402 insufficient_quota before any upstream call when the key quota cannot hold the worst case', async () => {
    fake.setScenario({ kind: 'ok', usage: { prompt_tokens: 100, completion_tokens: 100 } })
    const key = { authorization: `Bearer ${QUOTA_KEY}` }
    const refusal = async (request: object) => {
      const res = await gw.post('/v1/chat/completions', request, key)
      const json = (await res.json()) as { error: { code: string; message: string } }
      return [res.status, json.error.code, json.error.message]
    }
    // "hello" counts 3 tokens; without max_tokens the cap is test-gpt's output limit (4096): more than the 0.0001 quota.
    expect(await refusal(body)).toEqual([402, 'insufficient_quota',
      "This request could cost up to 0.032774 USD, and 0.0001 USD is left of this API key's quota (less what its requests under way hold). A lower max_tokens fits: at most 11."])
    // With max_tokens 10 it fits (0.000086). The vendor reports 0.001 USD of usage, past the cap: billed as reported.
    expect((await gw.post('/v1/chat/completions', { ...body, max_tokens: 10 }, key)).status).toBe(200)
    expect((await balance(QUOTA_KEY)).key.remaining).toBeCloseTo(-0.0009, 12)
    fake.reset()
    expect(await refusal({ ...body, max_tokens: 10 })).toEqual([402, 'insufficient_quota',
      "This request could cost up to 0.000086 USD, and 0 USD is left of this API key's quota (less what its requests under way hold). Even a one-token answer does not fit."])
    expect(fake.calls).toHaveLength(0)
  })
})

describe('the in-memory mirror of balances (what pre-call checks read)', () => {
  /** Memory against the store, once everything queued is committed: the account's balance, the key's and the upstream account's spend. */
  async function mirrorAndStore() {
    const { store, registry } = gw.services
    await store.ledger.flush()
    const key = registry.findKey(TEST_KEY)!
    const [account, keys, upstreams] = await Promise.all([store.account.get(), store.apiKeys.spending(), store.upstreams.spending()])
    return {
      memory: [registry.account.balanceNano, registry.keysById.get(key.id)!.usedNano, registry.upstreams.get('a')!.spentNano],
      store: [account.balance_nano, keys.find((k) => k.id === key.id)!.used_nano, upstreams.find((u) => u.id === 'a')!.spent_nano],
    }
  }

  it.each(['refreshMoney', 'reload'] as const)('a %s whose reads requests overlap, each charged before the read returns, counts every charge once', async (method) => {
    fake.setScenario({ kind: 'ok', usage: { prompt_tokens: 10, completion_tokens: 5 } })
    const { store, registry } = gw.services
    const read = store.account.get
    let overlapped = 0
    store.account.get = async () => {
      const row = await read()
      // A request ends while the read is under way: its charge is mirrored in memory, and is not in the row read.
      if (overlapped < 3) {
        overlapped++
        const mirrored = registry.account.balanceNano
        const res = await gw.post('/v1/chat/completions', body)
        expect(res.status).toBe(200)
        await res.json()
        await until('the charge mirrored', 5_000, () => registry.account.balanceNano === mirrored - cost(10, 5))
      }
      return row
    }
    try {
      await registry[method]()
    } finally {
      store.account.get = read
    }
    expect(overlapped).toBeGreaterThan(0)
    const { memory, store: stored } = await mirrorAndStore()
    expect(memory).toEqual(stored)
  })
})

describe('the account balance', () => {
  it('402 when the balance is used up; a restart with the same config neither refills it nor bills twice', async () => {
    const upstream = await startFakeOpenAI()
    upstream.setScenario({ kind: 'ok', usage: { prompt_tokens: 1_000_000, completion_tokens: 0 } })
    const dir = tempDataDir()
    const config = chatConfig([{ id: 'a', baseUrl: upstream.url }], { account: { balance: 3, concurrency: 5 } })
    let g = await startGatewayOnTestStore({ dataDir: dir.dir, config, port: 0, log: () => {} })
    const post = () => fetch(`${g.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${TEST_KEY}` }, body: JSON.stringify(body) })
    // Each holds 0.033 USD and is billed 2 (the vendor's usage, past the hold, billed as reported): 3 -> 1 -> -1
    for (let i = 0; i < 2; i++) expect((await post()).status).toBe(200)
    const refused = await post()
    expect(refused.status).toBe(402)
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
      "This request could cost up to 0.032774 USD, and 0 USD is left of the account's budget (less what requests under way hold). Even a one-token answer does not fit.",
    )
    const rows = (await g.services.store.ledger.recent(null, 10)).length
    await g.close()

    g = await startGatewayOnTestStore({ dataDir: dir.dir, config, port: 0, log: () => {} })
    const usage = (await (await fetch(`${g.url}/v1/usage`, { headers: { authorization: `Bearer ${TEST_KEY}` } })).json()) as { balance: number }
    expect(usage.balance).toBe(-1)
    expect((await g.services.store.ledger.recent(null, 10)).length).toBe(rows + 1)
    await g.close()

    // Raising the balance in the config tops the account up to the new value.
    g = await startGatewayOnTestStore({ dataDir: dir.dir, config: { ...config, account: { balance: 10 } }, port: 0, log: () => {} })
    expect((await post()).status).toBe(200)
    await g.close()
    dir.remove()
    await upstream.close()
  })
})
