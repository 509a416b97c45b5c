import { getMetricsFromIterator, type PromHistogramData, type PromMetrics } from 'prom2javascript'
import { describe, expect, it } from 'vitest'
import { MESSAGES } from '../../shared/messages.js'
import { startFakeOpenAI } from '../fakes/openai.js'
import { chatConfig, startTestGateway, tempDataDir, TEST_KEY, withGateway, type TestGateway } from '../helpers/gateway.js'
import { until } from '../helpers/until.js'

const METRICS_TOKEN = 'metrics-token-0123456789abcdef0123456789'
const body = { model: 'test-gpt', messages: [{ role: 'user', content: 'hello' }] }

const { gw, fakes: { first, second } } = withGateway({
  fakes: { first: startFakeOpenAI, second: startFakeOpenAI },
  // One failure opens an account's breaker, for long: its state shows in the scrape.
  config: ({ first, second }) => chatConfig([{ id: 'first', baseUrl: first.url }, { id: 'second', baseUrl: second.url }], { routing: { breaker: { failures: 1, coolDownMs: 600_000 } } }),
  options: { metricsToken: METRICS_TOKEN },
})

/** Scrapes with the metrics token and parses the text format. */
async function scrape(g: TestGateway): Promise<PromMetrics> {
  const res = await fetch(`${g.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
  return getMetricsFromIterator((await res.text()).split('\n')[Symbol.iterator]())
}

/** The series of one metric whose labels include `labels`. */
function series<T extends { labels: Record<string, string> }>(metrics: PromMetrics, name: string, labels: Record<string, string> = {}): T[] {
  expect(metrics[name], name).toBeDefined()
  return (metrics[name].data as unknown as T[]).filter((d) => Object.entries(labels).every(([k, v]) => d.labels[k] === v))
}
/** The value of the one series of a counter or gauge whose labels include `labels`. */
function value(metrics: PromMetrics, name: string, labels: Record<string, string> = {}): number {
  const found = series<{ labels: Record<string, string>; value: number }>(metrics, name, labels)
  expect(found, `${name} ${JSON.stringify(labels)}`).toHaveLength(1)
  return found[0].value
}

describe('GET /metrics', () => {
  it('counts requests, latency, tokens, cost, attempts, failovers, upstream errors and breaker states as the ledger records them', async () => {
    first.setScenario({ kind: 'status', status: 401 })
    second.setScenario({ kind: 'ok', usage: { prompt_tokens: 10, completion_tokens: 5 } })
    expect((await gw.post('/v1/chat/completions', body)).status).toBe(200)
    expect((await gw.post('/v1/chat/completions', { ...body, model: 'no-such-model' })).status).toBe(404)
    await gw.services.store.ledger.flush()
    const rows = await gw.services.store.ledger.recent(null, 10)
    const served = rows.find((r) => r.status === 200)!

    const m = await scrape(gw)
    expect(value(m, 'gatehouse_requests_total', { endpoint: 'chat.completions', model: 'test-gpt', status: '200' })).toBe(1)
    // A model the catalog does not know never becomes a label.
    expect(value(m, 'gatehouse_requests_total', { endpoint: 'chat.completions', model: '', status: '404' })).toBe(1)
    expect(m.gatehouse_request_duration_seconds.type).toBe('histogram')
    const latency = series<PromHistogramData>(m, 'gatehouse_request_duration_seconds', { endpoint: 'chat.completions', model: 'test-gpt' })
    expect(latency).toHaveLength(1)
    expect(latency[0].count).toBe(1)
    expect(latency[0].buckets['+Inf']).toBe(1)
    expect(latency[0].sum).toBeGreaterThan(0)
    expect(latency[0].sum).toBeLessThan(10)
    expect(m.gatehouse_requests_total.type).toBe('counter')
    expect(m.gatehouse_breaker_state.type).toBe('gauge')
    expect(value(m, 'gatehouse_tokens_total', { model: 'test-gpt', direction: 'input' })).toBe(10)
    expect(value(m, 'gatehouse_tokens_total', { model: 'test-gpt', direction: 'output' })).toBe(5)
    // 10 × 2 + 5 × 8 USD per 1M tokens, as the ledger row charged it.
    expect(value(m, 'gatehouse_cost_usd_total', { model: 'test-gpt' })).toBeCloseTo(0.00006, 12)
    expect(value(m, 'gatehouse_cost_usd_total', { model: 'test-gpt' })).toBeCloseTo(served.cost_nano / 1e9, 12)
    expect(value(m, 'gatehouse_upstream_attempts_total', { account: 'first', result: 'failed' })).toBe(1)
    expect(value(m, 'gatehouse_upstream_attempts_total', { account: 'second', result: 'ok' })).toBe(1)
    expect(value(m, 'gatehouse_failovers_total', { endpoint: 'chat.completions' })).toBe(1)
    expect(value(m, 'gatehouse_upstream_errors_total', { account: 'first', reason: 'key_refused' })).toBe(1)
    expect(series(m, 'gatehouse_upstream_errors_total', { account: 'second' })).toEqual([])
    expect(value(m, 'gatehouse_breaker_state', { account: 'first' })).toBe(2)
    expect(value(m, 'gatehouse_breaker_state', { account: 'second' })).toBe(0)
    expect(value(m, 'gatehouse_in_flight_requests')).toBe(0)
    expect(series(m, 'gatehouse_key_in_flight_requests')).toEqual([])

    // A request in flight shows in the process's count and its key's, by key id.
    second.setScenario({ kind: 'slow', delayMs: 1_500 })
    const slow = gw.post('/v1/chat/completions', body)
    await until('the request in flight', 3_000, async () => value(await scrape(gw), 'gatehouse_in_flight_requests') === 1)
    const during = await scrape(gw)
    expect(value(during, 'gatehouse_key_in_flight_requests', { key_id: served.key_id! })).toBe(1)
    expect((await slow).status).toBe(200)
    const after = await scrape(gw)
    expect(value(after, 'gatehouse_in_flight_requests')).toBe(0)
    // Counts add up across requests, and a scrape reads them without changing them.
    expect(value(after, 'gatehouse_requests_total', { endpoint: 'chat.completions', model: 'test-gpt', status: '200' })).toBe(2)
    expect(value(after, 'gatehouse_upstream_attempts_total', { account: 'second', result: 'ok' })).toBe(2)
    expect(value(await scrape(gw), 'gatehouse_requests_total', { endpoint: 'chat.completions', model: 'test-gpt', status: '200' })).toBe(2)
    expect(value(await scrape(gw), 'gatehouse_upstream_errors_total', { account: 'first', reason: 'key_refused' })).toBe(1)
  })

  it('shows ids, never a gateway key or an upstream secret', async () => {
    const res = await fetch(`${gw.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
    const text = await res.text()
    expect(text).not.toContain(TEST_KEY)
    expect(text).not.toContain('upstream-secret-')
    expect(text).not.toContain('sk-')
  })

  it('opens to the admin token too, and to nothing else: 401 admin_unauthorized', async () => {
    expect((await fetch(`${gw.url}/metrics`, { headers: { authorization: `Bearer ${gw.adminToken}` } })).status).toBe(200)
    const refused: Array<Record<string, string>> = [{}, { authorization: `Bearer ${TEST_KEY}` }, { authorization: `Bearer ${METRICS_TOKEN}x` }, { authorization: METRICS_TOKEN }]
    for (const headers of refused) {
      const res = await fetch(`${gw.url}/metrics`, { headers })
      expect(res.status).toBe(401)
      const answer = (await res.json()) as { error: { code: string; message: string } }
      expect(answer.error.code).toBe('admin_unauthorized')
      expect(answer.error.message).toBe(MESSAGES.admin_unauthorized.en)
    }
  })
})

describe('the metrics token', () => {
  it('is closed without one: only the admin API\'s proofs open /metrics', async () => {
    const fake = await startFakeOpenAI()
    const g = await startTestGateway(chatConfig([{ id: 'only', baseUrl: fake.url }]), tempDataDir(), { metricsToken: undefined })
    try {
      expect((await fetch(`${g.url}/metrics`)).status).toBe(401)
      expect((await fetch(`${g.url}/metrics`, { headers: { authorization: 'Bearer ' } })).status).toBe(401)
      expect((await fetch(`${g.url}/metrics`, { headers: { authorization: `Bearer ${g.adminToken}` } })).status).toBe(200)
    } finally {
      await g.stop()
      await fake.close()
    }
  })

  it('refuses to start with a token shorter than 32 characters', async () => {
    const dir = tempDataDir()
    try {
      await expect(startTestGateway(chatConfig([]), dir, { metricsToken: 'short-token' })).rejects.toThrow('GATEHOUSE_METRICS_TOKEN must be at least 32 characters (e.g. openssl rand -hex 32)')
    } finally {
      dir.remove()
    }
  })
})
