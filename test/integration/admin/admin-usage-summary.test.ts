// GET /admin/v1/usage/summary against a real ledger: requests through a fake vendor, their timestamps and latencies
// then set in the store so they spread over known local days.
import { describe, expect, it } from 'vitest'
import { USAGE_LATENCY_SAMPLE } from '../../../shared/admin.js'
import { startFakeOpenAI } from '../../fakes/openai.js'
import { chatConfig, TEST_KEY, withGateway } from '../../helpers/gateway.js'
import { adminClient, apiError } from './admin-helpers.js'

const SECOND_KEY = 'sk-second-0123456789abcdef'
const TZ = 'Asia/Shanghai' // UTC+8 all year: local midnight is 16:00 UTC the day before
const localMidnight = (date: string) => Date.parse(`${date}T00:00:00+08:00`)
const HOUR = 3_600_000

const { gw, fakes: { openai: fake } } = withGateway({
  fakes: { openai: startFakeOpenAI },
  config: ({ openai }) => chatConfig([{ id: 'fake', baseUrl: openai.url }], {
    models: [
      { id: 'test-gpt', family: 'gpt', vendor: 'openai', pricing: { unit: 'token', input: 2, output: 8 } },
      { id: 'test-mini', family: 'gpt', vendor: 'openai', pricing: { unit: 'token', input: 1, output: 4 } },
    ],
    groups: [
      { id: 'main', protocol: 'chat', models: ['test-gpt', 'test-mini'], upstreams: ['fake'] },
      { id: 'side', protocol: 'chat', models: ['test-mini'], upstreams: ['fake'] },
    ],
    keys: [{ key: TEST_KEY, group: 'main', name: 'first' }, { key: SECOND_KEY, group: 'side', name: 'second' }],
  }),
})
const admin = adminClient(gw)

/** One chat request; answers its request id. */
async function chat(key: string, model: string): Promise<string> {
  const res = await gw.post('/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hi' }] }, { authorization: `Bearer ${key}` })
  await res.text()
  return res.headers.get('x-request-id')!
}

/** Moves a ledger row to a moment and gives it a latency. */
async function place(id: string, createdAt: number, latencyMs: number): Promise<void> {
  await gw.services.store.ledger.flush()
  expect((await gw.services.store.sql.run('UPDATE requests SET created_at = ?, latency_ms = ? WHERE id = ?', [createdAt, latencyMs, id])).changes).toBe(1)
}

const costOf = async (id: string) => (await gw.services.store.ledger.get(id))!.cost_nano / 1e9

describe('usage summary', () => {
  it('buckets requests by local day, stacks spending by model or group, counts errors, and splits spending by key', async () => {
    fake.setScenario({ kind: 'ok', usage: { prompt_tokens: 1000, completion_tokens: 500 } })
    const gpt = [await chat(TEST_KEY, 'test-gpt'), await chat(TEST_KEY, 'test-gpt')]
    const mini = [await chat(TEST_KEY, 'test-mini'), await chat(SECOND_KEY, 'test-mini')]
    fake.setScenario({ kind: 'status', status: 400, body: { error: { message: 'no', type: 'invalid_request_error' } } })
    const failed = await chat(SECOND_KEY, 'test-mini')
    expect(await costOf(gpt[0])).toBeCloseTo(0.006, 12)
    expect(await costOf(mini[0])).toBeCloseTo(0.003, 12)
    expect(await costOf(failed)).toBe(0)

    // Day 1 (local 2026-03-01): 23:30 local is 15:30 UTC the same date; day 3: 00:10 local is 16:10 UTC of day 2.
    await place(gpt[0], localMidnight('2026-03-01') + 1 * HOUR, 100)
    await place(mini[0], localMidnight('2026-03-01') + 23.5 * HOUR, 300)
    await place(gpt[1], localMidnight('2026-03-03') + HOUR / 6, 200)
    await place(mini[1], localMidnight('2026-03-03') + 2 * HOUR, 400)
    await place(failed, localMidnight('2026-03-03') + 3 * HOUR, 10)

    const res = await admin.get(`/admin/v1/usage/summary?since=2026-03-01&until=2026-03-03&tz=${encodeURIComponent(TZ)}`)
    expect(res.status).toBe(200)
    const s = res.json
    expect(s).toMatchObject({ since: '2026-03-01', until: '2026-03-03', timeZone: TZ, by: 'model', housekeeping: true, other: null, otherKeys: null })
    expect(s.days).toEqual([
      { date: '2026-03-01', start: localMidnight('2026-03-01'), requests: 2, errors: 0, cost: 0.009, latency: { p50: 100, p90: 300, p99: 300, sampled: 2 } },
      { date: '2026-03-02', start: localMidnight('2026-03-02'), requests: 0, errors: 0, cost: 0, latency: null },
      { date: '2026-03-03', start: localMidnight('2026-03-03'), requests: 3, errors: 1, cost: 0.009, latency: { p50: 200, p90: 400, p99: 400, sampled: 3 } },
    ])
    expect(s.series).toEqual([{ id: 'test-gpt', cost: [0.006, 0, 0.006] }, { id: 'test-mini', cost: [0.003, 0, 0.003] }])
    expect(s.keys).toEqual([
      { keyId: expect.stringMatching(/^key_/), name: 'first', hint: expect.any(String), app: false, requests: 3, cost: 0.015 },
      { keyId: expect.stringMatching(/^key_/), name: 'second', hint: expect.any(String), app: false, requests: 2, cost: 0.003 },
    ])

    const byGroup = (await admin.get(`/admin/v1/usage/summary?since=2026-03-01&until=2026-03-03&tz=${encodeURIComponent(TZ)}&by=group`)).json
    expect(byGroup.series).toEqual([{ id: 'main', cost: [0.009, 0, 0.006] }, { id: 'side', cost: [0, 0, 0.003] }])

    // In UTC the 01:00 request of local March 1 falls on February 28 (outside), the 23:30 one stays on March 1,
    // and the three of local March 3 (00:10 to 03:00) fall on March 2.
    const utc = (await admin.get('/admin/v1/usage/summary?since=2026-03-01&until=2026-03-03&tz=UTC')).json
    expect(utc.days.map((d: { requests: number }) => d.requests)).toEqual([1, 3, 0])
  })

  it("leaves out the app's housekeeping calls with housekeeping=false, in the summary and the request log", async () => {
    const appKey = (await admin.post('/admin/v1/groups/main/app-key')).json.key as string
    const day = localMidnight('2026-04-10')
    const ids: string[] = []
    // Each key lists the models and prices a draft (the app does both as the user types).
    for (const key of [appKey, TEST_KEY]) {
      const res = await gw.get('/v1/models', { authorization: `Bearer ${key}` })
      await res.text()
      ids.push(res.headers.get('x-request-id')!)
      const quote = await gw.post('/v1/quote', { endpoint: '/v1/chat/completions', request: { model: 'test-gpt', messages: [{ role: 'user', content: 'hi' }] } }, { authorization: `Bearer ${key}` })
      expect(quote.status).toBe(200)
      ids.push(quote.headers.get('x-request-id')!)
    }
    fake.setScenario({ kind: 'ok', usage: { prompt_tokens: 10, completion_tokens: 10 } })
    ids.push(await chat(appKey, 'test-gpt')) // work done in the app's panels is not housekeeping
    for (const id of ids) await place(id, day + HOUR, 5)

    const summary = (all: boolean) => admin.get(`/admin/v1/usage/summary?since=2026-04-10&until=2026-04-10&tz=${encodeURIComponent(TZ)}&housekeeping=${all}`)
    expect((await summary(true)).json.days[0].requests).toBe(5)
    const without = (await summary(false)).json
    expect(without.housekeeping).toBe(false)
    expect(without.days[0].requests).toBe(3)
    expect(without.keys.map((k: { app: boolean; requests: number }) => [k.app, k.requests])).toEqual([[true, 1], [false, 2]])

    const log = (all: boolean) => admin.get(`/admin/v1/requests?since=${day}&until=${day + 2 * HOUR}&housekeeping=${all}`)
    expect((await log(true)).json.data.map((r: { id: string }) => r.id).sort()).toEqual([...ids].sort())
    expect((await log(false)).json.data.map((r: { id: string }) => r.id).sort()).toEqual([ids[2], ids[3], ids[4]].sort())
    expect((await admin.get('/admin/v1/requests?housekeeping=no')).json).toEqual(apiError('invalid_request', 'Query parameter housekeeping: must be true or false', 'housekeeping'))
  })

  it('sums the series after the tenth and the keys after the twentieth, and reads percentiles from a bounded sample', async () => {
    const day = localMidnight('2026-05-05')
    const row = (i: number, model: string, keyId: string | null, latency: number) => ({
      id: `req_bound_${i}`, key_id: keyId, group_id: 'main', model, endpoint: 'chat.completions', status: 200, error_code: null, upstream_id: 'fake',
      input_tokens: 1, output_tokens: 1, usage: null, cost_nano: 1000 * (i + 1), latency_ms: latency, created_at: day + (i % 1000),
    })
    // 12 models costing 1..12 µUSD; then 2500 free-ish rows with latencies 1..2500 on the same day.
    for (let i = 0; i < 12; i++) gw.services.store.ledger.enqueue(row(i, `model-${String(i).padStart(2, '0')}`, `key_made_up_${i % 22}`, 1))
    for (let i = 0; i < 22; i++) gw.services.store.ledger.enqueue({ ...row(100 + i, 'model-00', `key_made_up_${i}`, 1), cost_nano: 1 })
    for (let i = 0; i < 2500; i++) gw.services.store.ledger.enqueue({ ...row(1000 + i, 'model-00', null, i + 1), cost_nano: 0 })
    const s = (await admin.get(`/admin/v1/usage/summary?since=2026-05-05&until=2026-05-05&tz=${encodeURIComponent(TZ)}`)).json
    expect(s.series.map((x: { id: string }) => x.id)).toEqual(['model-11', 'model-10', 'model-09', 'model-08', 'model-07', 'model-06', 'model-05', 'model-04', 'model-03', 'model-02'])
    expect(s.other).toEqual({ count: 2, cost: [(1000 + 2000 + 22) / 1e9] })
    expect(s.keys).toHaveLength(20)
    expect(s.otherKeys.count).toBe(3) // 22 made-up keys and the requests without a key
    expect(s.days[0].requests).toBe(12 + 22 + 2500)
    expect(s.days[0].latency.sampled).toBe(USAGE_LATENCY_SAMPLE)
    // A sample spread over the day's rows: its percentiles are near the exact ones (1, 1267, 2266, 2491 of 2534).
    expect(s.days[0].latency.p50).toBeGreaterThan(1100)
    expect(s.days[0].latency.p50).toBeLessThan(1450)
    expect(s.days[0].latency.p99).toBeGreaterThan(2400)
    const again = (await admin.get(`/admin/v1/usage/summary?since=2026-05-05&until=2026-05-05&tz=${encodeURIComponent(TZ)}`)).json
    expect(again.days[0].latency).toEqual(s.days[0].latency)
  })

  it('refuses malformed or unbounded queries, naming the parameter', async () => {
    const error = async (query: string) => (await admin.get(`/admin/v1/usage/summary?${query}`)).json
    expect(await error('since=2026-03-05&until=2026-03-01')).toEqual(apiError('invalid_request', 'Query parameter since: must not be after until', 'since'))
    expect(await error('since=2026-01-01&until=2026-04-03')).toEqual(apiError('invalid_request', 'Query parameter since: at most 92 days from since to until', 'since'))
    expect(await error('until=2026-02-30')).toEqual(apiError('invalid_request', 'Query parameter until: must be a date, YYYY-MM-DD', 'until'))
    expect(await error('tz=Mars/Olympus')).toEqual(apiError('invalid_request', 'Query parameter tz: must be an IANA time zone such as Europe/Berlin', 'tz'))
    expect(await error('by=endpoint')).toEqual(apiError('invalid_request', 'Query parameter by: must be model or group', 'by'))
    expect(await error('housekeeping=1')).toEqual(apiError('invalid_request', 'Query parameter housekeeping: must be true or false', 'housekeeping'))
    // Without dates: the last 30 days in the gateway's zone, today last.
    const recent = (await admin.get('/admin/v1/usage/summary?tz=UTC')).json
    expect(recent.days).toHaveLength(30)
    expect(recent.until).toBe(new Date().toISOString().slice(0, 10))
  })
})
