import { describe, expect, it } from 'vitest'
import type { UpstreamAttempt } from '../../shared/admin.js'
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js'
import { chatConfig, withGateway, type TestGateway } from '../helpers/gateway.js'
import { readSse } from '../helpers/sse.js'

const body = { model: 'test-gpt', messages: [{ role: 'user', content: 'hello' }] }
const TEXT = 'Hello from the fake upstream.'

/** The times (performance.now) at which the fake received each call. */
function callTimes(fake: FakeOpenAI): number[] {
  const times: number[] = []
  const push = fake.calls.push.bind(fake.calls)
  fake.calls.push = (...calls) => {
    times.push(performance.now())
    return push(...calls)
  }
  return times
}

const attemptsOf = async (gw: TestGateway, res: Response): Promise<UpstreamAttempt[]> => {
  const row = await gw.services.store.ledger.get(res.headers.get('x-request-id')!)
  return JSON.parse(row!.attempts!) as UpstreamAttempt[]
}

const content = async (res: Response) => ((await res.json()) as { choices: Array<{ message: { content: string } }> }).choices[0].message.content

// Each account alone in its group: what it asks for is all there is. These two wait in real time, side by side,
// each on its own fake (nothing resets them between tests).
describe('retries after the delay the vendor asked for', () => {
  const { gw, fakes } = withGateway({
    fakes: { limited: startFakeOpenAI, tired: startFakeOpenAI },
    config: ({ limited, tired }) => ({
      ...chatConfig([{ id: 'limited', baseUrl: limited.url }, { id: 'tired', baseUrl: tired.url }]),
      groups: [
        { id: 'limited', protocol: 'chat', models: ['test-gpt'], upstreams: ['limited'] },
        { id: 'tired', protocol: 'chat', models: ['test-gpt'], upstreams: ['tired'] },
      ],
      keys: [{ key: 'sk-limited-0123456789', group: 'limited' }, { key: 'sk-tired-0123456789', group: 'tired' }],
    }),
  })

  it.concurrent('a 429 with Retry-After is retried once it has passed, never sooner, and answers', async () => {
    const times = callTimes(fakes.limited)
    fakes.limited.once({ kind: 'status', status: 429, headers: { 'retry-after': '1' } })
    const res = await gw.post('/v1/chat/completions', body, { authorization: 'Bearer sk-limited-0123456789' })
    expect(res.status).toBe(200)
    expect(await content(res)).toBe(TEXT)
    expect(res.headers.get('x-gatehouse-attempts')).toBe('2')
    expect(times).toHaveLength(2)
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(1000)
    const attempts = await attemptsOf(gw, res)
    expect(attempts.map(({ ms: _, ...a }) => a)).toEqual([
      { account: 'limited', model: 'test-gpt', outcome: 'status 429', next: 'retry in 1000 ms (Retry-After)' },
      { account: 'limited', model: 'test-gpt', outcome: 'ok' },
    ])
  })

  it.concurrent('a 503 with Retry-After-Ms is retried after it, and the answer is billed once', async () => {
    const times = callTimes(fakes.tired)
    fakes.tired.once({ kind: 'status', status: 503, headers: { 'retry-after-ms': '600' } })
    const res = await gw.post('/v1/chat/completions', body, { authorization: 'Bearer sk-tired-0123456789' })
    expect(res.status).toBe(200)
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(600)
    const row = await gw.services.store.ledger.get(res.headers.get('x-request-id')!)
    // test-gpt: 2 and 8 USD per million tokens; the failed call costs nothing
    expect([row!.status, row!.upstream_id, row!.input_tokens, row!.output_tokens, row!.cost_nano]).toEqual([200, 'tired', 2, 5, 2 * 2000 + 5 * 8000])
  })
})

describe('retries on the same account', () => {
  const { gw, fakes } = withGateway({
    fakes: { solo: startFakeOpenAI },
    config: ({ solo }) => chatConfig([{ id: 'solo', baseUrl: solo.url }]),
    resetFakes: true,
  })

  it('a Retry-After longer than the retry budget is not waited: the client gets it', async () => {
    fakes.solo.setScenario({ kind: 'status', status: 429, headers: { 'retry-after': '45' } })
    const res = await gw.post('/v1/chat/completions', body)
    expect(res.status).toBe(503)
    expect([res.headers.get('retry-after'), res.headers.get('retry-after-ms'), res.headers.get('x-gatehouse-attempts')]).toEqual(['45', '45000', '1'])
    expect(await res.json()).toEqual({ error: {
      message: 'The model is overloaded or rate-limited on every account; retry later.', type: 'overloaded_error', param: null, code: 'upstream_unavailable',
      upstream: { reason: 'rate_limited', status: 429, message: 'Rate limit reached for requests. Please try again in 1s.' },
    } })
    expect(fakes.solo.calls).toHaveLength(1)
    expect((await attemptsOf(gw, res)).map(({ ms: _, ...a }) => a)).toEqual([
      { account: 'solo', model: 'test-gpt', outcome: 'status 429', next: 'retry budget spent (would wait 45000 ms)' },
    ])
  })

  it('a 500 once is retried on the only account after a short backoff', async () => {
    fakes.solo.once({ kind: 'status', status: 500 })
    const res = await gw.post('/v1/chat/completions', body)
    expect(res.status).toBe(200)
    expect(await content(res)).toBe(TEXT)
    expect(fakes.solo.calls).toHaveLength(2)
  })

  it('a stream names the count of calls made when its headers went out', async () => {
    fakes.solo.once({ kind: 'reset' })
    const res = await gw.post('/v1/chat/completions', { ...body, stream: true })
    expect(res.status).toBe(200)
    expect(res.headers.get('x-gatehouse-attempts')).toBe('2')
    const events = await readSse(res)
    expect(events.at(-1)!.data).toBe('[DONE]')
  })
})

describe('failover and the circuit breaker', () => {
  const BREAKER = { failures: 3, coolDownMs: 300 }
  const { gw, fakes } = withGateway({
    fakes: { primary: startFakeOpenAI, secondary: startFakeOpenAI },
    config: ({ primary, secondary }) => chatConfig([{ id: 'primary', baseUrl: primary.url }, { id: 'secondary', baseUrl: secondary.url }], {
      routing: { breaker: BREAKER },
    }),
    resetFakes: true,
  })
  /** the primary's chat calls (a background probe of its model list is a GET) */
  const chats = () => fakes.primary.calls.filter((c) => c.method === 'POST')

  it('a healthy account is called once and the answer says so', async () => {
    const res = await gw.post('/v1/chat/completions', body)
    expect(res.headers.get('x-gatehouse-attempts')).toBe('1')
    expect(await attemptsOf(gw, res)).toEqual([{ account: 'primary', model: 'test-gpt', outcome: 'ok', ms: expect.any(Number) }])
  })

  it('a 503 fails over at once; a dead primary is skipped after 3 failures, probed in the background after the cool-down, and used once the probe answers', async () => {
    fakes.primary.setScenario({ kind: 'status', status: 503 })
    for (let i = 0; i < BREAKER.failures; i++) {
      const res = await gw.post('/v1/chat/completions', body)
      expect([res.status, res.headers.get('x-gatehouse-attempts')]).toEqual([200, '2'])
      expect((await attemptsOf(gw, res)).map((a) => [a.account, a.outcome])).toEqual([['primary', 'status 503'], ['secondary', 'ok']])
    }
    expect(chats()).toHaveLength(3)
    expect(gw.services.routing.breakers.state('primary')).toBe('open')

    // Open: skipped at once, recorded as such.
    const skipped = await gw.post('/v1/chat/completions', body)
    expect([skipped.status, skipped.headers.get('x-gatehouse-attempts')]).toEqual([200, '1'])
    expect(await attemptsOf(gw, skipped)).toEqual([
      { account: 'primary', model: 'test-gpt', outcome: 'skipped: breaker open', ms: 0, next: 'failed over' },
      { account: 'secondary', model: 'test-gpt', outcome: 'ok', ms: expect.any(Number) },
    ])
    expect(chats()).toHaveLength(3)

    // The primary recovers. At the end of the cool-down the gateway probes its model list in the background (README
    // "Circuit breakers"): the answer closes the breaker with no client request as its trial, and traffic returns.
    // The deadline: the cool-down, then a probe the fake answers at once, with seconds to spare on a loaded machine.
    fakes.primary.setScenario({ kind: 'ok' })
    const closed = await waitFor(() => gw.services.routing.breakers.state('primary') === 'closed', BREAKER.coolDownMs + 5_000)
    expect(closed).toBe(true)
    expect(gw.services.routing.breakers.transitions('primary').map((t) => [t.from, t.to, t.why])).toEqual([
      ['closed', 'open', '3 failures in a row: status 503'],
      ['open', 'half-open', 'background probe'],
      ['half-open', 'closed', 'probe answered (status 200)'],
    ])
    expect(fakes.primary.calls.filter((c) => c.method === 'GET').map((c) => c.path)).toEqual(['/v1/models'])
    expect(chats()).toHaveLength(3)
    const first = await gw.post('/v1/chat/completions', body)
    expect((await attemptsOf(gw, first)).map((a) => [a.account, a.outcome])).toEqual([['primary', 'ok']])
    expect(gw.services.routing.breakers.state('primary')).toBe('closed')
    const back = await gw.post('/v1/chat/completions', body)
    expect(back.status).toBe(200)
    expect(chats()).toHaveLength(5)
  })
})

/** Waits, on a timer armed for `deadlineMs`, for the breaker's cool-down and its probe (a span of time: there is no event to await). */
async function waitFor(check: () => boolean, deadlineMs: number): Promise<boolean> {
  const deadline = performance.now() + deadlineMs
  while (!check()) {
    if (performance.now() > deadline) return false
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return true
}
