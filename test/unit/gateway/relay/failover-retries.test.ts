import { describe, expect, it } from 'vitest'
import type { UpstreamAttempt } from '../../../../shared/admin.js'
import { gatewayError, GatewayError } from '../../../../electron/gateway/errors.js'
import { createRouting, failoverServed, type Attempt, type FailoverRun, type RoutingConfig } from '../../../../electron/gateway/relay/failover.js'
import type { UpstreamFailure } from '../../../../electron/gateway/relay/upstream-failure.js'
import type { UpstreamAccount } from '../../../../electron/gateway/contract/accounts.js'
import type { RequestContext } from '../../../../electron/gateway/context.js'
import { requestRun } from '../../../../electron/gateway/relay/attempt.js'

const account = (id: string): UpstreamAccount => ({ id, vendor: 'openai', baseUrl: `http://127.0.0.1:1/${id}`, apiKey: `key-${id}`, priority: 0 })

const failed = (failure: UpstreamFailure): Attempt<string> => ({ done: false, failure })
const answered = (value: string): Attempt<string> => ({ done: true, value })
const status = (code: number, retryAfterMs?: number): UpstreamFailure => ({
  kind: 'status', status: code, error: gatewayError('upstream_error', 'upstream_error', { detail: `HTTP ${code}` }), ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
})

/** A fake clock: each attempt takes 10 ms, a sleep moves time on by what it asked; the jitter draws 0.5. */
function harness(config: RoutingConfig = {}) {
  let t = 0
  const sleeps: number[] = []
  const routing = createRouting(config, {
    now: () => t,
    random: () => 0.5,
    sleep: async (ms) => {
      sleeps.push(ms)
      t += ms
    },
  })
  const calls: Array<{ id: string; at: number }> = []
  /** One request: the scripted results of each account, in turn (the last one repeats). */
  const request = (ids: string[], script: Record<string, Array<() => Attempt<string>>>, run: Partial<FailoverRun> = {}) => {
    const attempts: UpstreamAttempt[] = []
    const counts: number[] = []
    const seen = new Map<string, number>()
    const result = failoverServed(ids.map(account), undefined, async (upstream) => {
      calls.push({ id: upstream.id, at: t })
      const n = seen.get(upstream.id) ?? 0
      seen.set(upstream.id, n + 1)
      const steps = script[upstream.id]
      t += 10
      return steps[Math.min(n, steps.length - 1)]()
    }, { routing, model: 'gpt-4o', attempts, onCall: (count) => counts.push(count), ...run })
    return { result, attempts, counts }
  }
  return { routing, request, calls, sleeps, advance: (ms: number) => void (t += ms), now: () => t }
}

async function rejection(result: Promise<unknown>): Promise<GatewayError> {
  const err = await result.then(() => undefined, (e: unknown) => e)
  expect(err).toBeInstanceOf(GatewayError)
  return err as GatewayError
}

describe('failover retries', () => {
  it('a 500 once fails over at once to a healthy account (no wait), and records both tries', async () => {
    const h = harness()
    const { result, attempts, counts } = h.request(['a', 'b'], { a: [() => failed(status(500))], b: [() => answered('b')] })
    expect(await result).toEqual({ value: 'b', upstream: account('b') })
    expect(h.sleeps).toEqual([])
    expect(counts).toEqual([1, 2])
    expect(attempts).toEqual([
      { account: 'a', model: 'gpt-4o', outcome: 'status 500', ms: 10, next: 'retry in 188 ms (backoff)' },
      { account: 'b', model: 'gpt-4o', outcome: 'ok', ms: 10 },
    ])
  })

  it('a 500 once on the only account is retried on it once, after a short jittered backoff', async () => {
    const h = harness()
    const { result, attempts } = h.request(['a'], { a: [() => failed(status(500)), () => answered('a again')] })
    expect((await result).value).toBe('a again')
    // backoffMs 250 with the jitter's draw of 0.5: 125 + 62.5, rounded
    expect(h.sleeps).toEqual([188])
    expect(h.calls).toEqual([{ id: 'a', at: 0 }, { id: 'a', at: 198 }])
    expect(attempts.map((a) => a.outcome)).toEqual(['status 500', 'ok'])
  })

  it('a 429 with Retry-After is retried no sooner than it asked', async () => {
    const h = harness()
    const { result, attempts } = h.request(['a'], { a: [() => failed(status(429, 2000)), () => answered('a')] })
    expect((await result).value).toBe('a')
    expect(h.calls[1].at - h.calls[0].at - 10).toBe(2000)
    expect(attempts[0]).toEqual({ account: 'a', model: 'gpt-4o', outcome: 'status 429', ms: 10, next: 'retry in 2000 ms (Retry-After)' })
  })

  it('a persistent 429 without Retry-After backs off once per account, then answers 503 with the default Retry-After', async () => {
    const h = harness()
    const { result, attempts } = h.request(['a', 'b'], { a: [() => failed(status(429))], b: [() => failed(status(429))] })
    const err = await rejection(result)
    expect([err.status, err.code, err.headers]).toEqual([503, 'upstream_unavailable', { 'retry-after': '2', 'retry-after-ms': '2000' }])
    expect(h.calls.map((c) => c.id)).toEqual(['a', 'b', 'a', 'b'])
    // rateLimitBackoffMs 1000 jittered to 750 after a's first try (at 10): a again at 760, b's ready at 770
    expect(h.calls.map((c) => c.at)).toEqual([0, 10, 760, 770])
    expect(attempts.map((a) => a.next)).toEqual(['retry in 750 ms (backoff)', 'retry in 750 ms (backoff)', 'failed over', 'no account left'])
  })

  it('a delay longer than the budget is not waited: the client gets the vendor\'s Retry-After', async () => {
    const h = harness()
    const { result, attempts } = h.request(['a'], { a: [() => failed(status(429, 34_400))] })
    const err = await rejection(result)
    expect([err.status, err.headers]).toEqual([503, { 'retry-after': '35', 'retry-after-ms': '34400' }])
    expect(h.calls).toHaveLength(1)
    expect(h.sleeps).toEqual([])
    expect(attempts[0].next).toBe('retry budget spent (would wait 34400 ms)')
  })

  it('the exhausted 503 passes the soonest delay any account named', async () => {
    const h = harness({ retries: { maxBackoffMs: 0 } })
    const { result } = h.request(['a', 'b'], { a: [() => failed(status(429, 5000))], b: [() => failed(status(503, 3000))] })
    const err = await rejection(result)
    // b asked for 3000 ms at 20: the answer goes out at 20
    expect(err.headers).toEqual({ 'retry-after': '3', 'retry-after-ms': '3000' })
  })

  it('a persistent 503 stops within maxAttempts', async () => {
    const h = harness({ retries: { maxAttempts: 3 } })
    const { result, attempts } = h.request(['a', 'b'], { a: [() => failed(status(503))], b: [() => failed(status(503))] })
    expect((await rejection(result)).status).toBe(503)
    expect(h.calls.map((c) => c.id)).toEqual(['a', 'b', 'a'])
    expect(attempts.map((a) => a.next)).toEqual(['retry in 188 ms (backoff)', 'retry budget spent (attempts)', 'no account left'])
  })

  it('a reset before headers is retried; on a non-idempotent call (video submission) it is not', async () => {
    const idempotent = harness()
    const reset = (): Attempt<string> => failed({ kind: 'transport', reason: 'reset' })
    expect((await idempotent.request(['a'], { a: [reset, () => answered('a')] }).result).value).toBe('a')
    expect(idempotent.calls).toHaveLength(2)
    const once = harness()
    const err = await rejection(once.request(['a'], { a: [reset, () => answered('a')] }, { idempotent: false }).result)
    expect([err.status, err.message]).toEqual([502, 'The model is temporarily unavailable after trying every account (connection reset).'])
    expect(once.calls).toHaveLength(1)
  })

  it.each([
    ['a timeout (it already cost a whole deadline)', { kind: 'transport', reason: 'timeout' }],
    ['refused credentials', status(401)],
    ['a malformed answer', { kind: 'malformed' }],
  ] as Array<[string, UpstreamFailure]>)('%s is never retried on the same account', async (_, failure) => {
    const h = harness()
    await rejection(h.request(['a'], { a: [() => failed(failure), () => answered('a')] }).result)
    expect(h.calls).toHaveLength(1)
  })

  it("the client's own error ends the loop at once, recorded", async () => {
    const h = harness()
    const refusal = gatewayError('invalid_request', 'missing_field', { field: 'prompt' }, { param: 'prompt' })
    const { result, attempts } = h.request(['a', 'b'], { a: [() => { throw refusal }], b: [() => answered('b')] })
    expect(await rejection(result)).toBe(refusal)
    expect(attempts).toEqual([{ account: 'a', model: 'gpt-4o', outcome: 'status 400', ms: 10, next: 'ended: not an upstream failure' }])
  })

  it('the budget is shared by the runs of one request (a fallback model after the first)', async () => {
    const h = harness({ retries: { maxAttempts: 3 } })
    const spent = { calls: 0, waitedMs: 0 }
    await rejection(h.request(['a', 'b'], { a: [() => failed(status(503))], b: [() => failed(status(503))] }, { spent }).result)
    expect(spent.calls).toBe(3)
    const second = h.request(['c'], { c: [() => answered('c')] }, { spent })
    expect(await rejection(second.result)).toMatchObject({ status: 502, message: 'The model is temporarily unavailable after trying every account (no account answered).' })
  })
})

describe('failover with circuit breakers', () => {
  it('skips an open account at once, tries it again after the cool-down, and returns to it when it answers', async () => {
    const h = harness({ breaker: { failures: 2, coolDownMs: 1000 }, retries: { maxBackoffMs: 0 } })
    let down = true
    const a = [() => (down ? failed(status(503)) : answered('a'))]
    const b = [() => answered('b')]
    for (let i = 0; i < 2; i++) expect((await h.request(['a', 'b'], { a, b }).result).value).toBe('b')
    expect(h.routing.breakers.state('a')).toBe('open')
    h.calls.length = 0
    const skipping = h.request(['a', 'b'], { a, b })
    expect((await skipping.result).value).toBe('b')
    expect(h.calls.map((c) => c.id)).toEqual(['b'])
    expect(skipping.attempts[0]).toEqual({ account: 'a', model: 'gpt-4o', outcome: 'skipped: breaker open', ms: 0, next: 'failed over' })
    expect(skipping.counts).toEqual([1])

    down = false
    h.advance(1000)
    h.calls.length = 0
    expect((await h.request(['a', 'b'], { a, b }).result).value).toBe('a')
    expect(h.calls.map((c) => c.id)).toEqual(['a'])
    expect(h.routing.breakers.state('a')).toBe('closed')
  })

  it('when every account is open, the one opened longest ago is still tried', async () => {
    const h = harness({ breaker: { failures: 1, coolDownMs: 60_000 }, retries: { maxBackoffMs: 0 } })
    await rejection(h.request(['a'], { a: [() => failed(status(503))] }).result)
    h.advance(5)
    await rejection(h.request(['b'], { b: [() => failed(status(503))] }).result)
    h.calls.length = 0
    const both = h.request(['b', 'a'], { a: [() => answered('a')], b: [() => answered('b')] })
    expect((await both.result).value).toBe('a')
    expect(h.calls.map((c) => c.id)).toEqual(['a'])
    expect(both.attempts.map((a) => a.outcome)).toEqual(['skipped: breaker open', 'skipped: breaker open', 'ok'])
    expect(h.routing.breakers.state('a')).toBe('closed')
  })
})

describe("a request's runs of the loop", () => {
  it('share one attempt list and one budget across models, and set x-gatehouse-attempts before each call', async () => {
    const headers: Record<string, string> = {}
    const ctx = { outcome: { costNano: 0 }, res: { headersSent: false, setHeader: (name: string, value: string) => void (headers[name] = value) } } as unknown as RequestContext
    const routing = createRouting({ retries: { maxAttempts: 2, maxBackoffMs: 0 } })
    const first = requestRun(ctx, routing, 'big')
    await rejection(failoverServed([account('a')], undefined, async () => failed(status(503)), first))
    expect(headers['x-gatehouse-attempts']).toBe('1')
    const fallback = requestRun(ctx, routing, 'bigger')
    expect(fallback.attempts).toBe(first.attempts)
    expect((await rejection(failoverServed([account('b'), account('c')], undefined, async (u) => (u.id === 'c' ? answered('c') : failed(status(503))), fallback))).status).toBe(503)
    expect(headers['x-gatehouse-attempts']).toBe('2')
    // the second model's run had one call left of the two: b, and never c
    expect(ctx.outcome.attempts!.map((a) => [a.model, a.account, a.outcome])).toEqual([['big', 'a', 'status 503'], ['bigger', 'b', 'status 503']])
  })
})
