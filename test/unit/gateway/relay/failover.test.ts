import { describe, expect, it } from 'vitest'
import { gatewayError, GatewayError } from '../../../../electron/gateway/errors.js'
import { failover, type Attempt } from '../../../../electron/gateway/relay/failover.js'
import type { UpstreamFailure } from '../../../../electron/gateway/relay/upstream-failure.js'
import type { UpstreamAccount } from '../../../../electron/gateway/contract/accounts.js'

const account = (id: string): UpstreamAccount => ({ id, vendor: 'openai', baseUrl: `http://127.0.0.1:1/${id}`, apiKey: `key-${id}`, priority: 0 })
const ACCOUNTS = ['a', 'b', 'c'].map(account)

const failed = (failure: UpstreamFailure): Attempt<string> => ({ done: false, failure })
const answered = (value: string): Attempt<string> => ({ done: true, value })
const overloaded = (status: number): UpstreamFailure => ({ kind: 'status', status, error: gatewayError('upstream_error', 'upstream_error', { detail: `HTTP ${status}` }) })

/** Runs the loop with one scripted result per account, recording the accounts tried. */
function run(script: Record<string, () => Attempt<string>>, signal?: AbortSignal) {
  const tried: string[] = []
  const result = failover(ACCOUNTS, signal, async (upstream) => {
    tried.push(upstream.id)
    return script[upstream.id]()
  })
  return { tried, result }
}

/** The error a rejected loop ends with. */
async function rejection(result: Promise<unknown>): Promise<GatewayError> {
  const err = await result.then(() => undefined, (e: unknown) => e)
  expect(err).toBeInstanceOf(GatewayError)
  return err as GatewayError
}

describe('failover', () => {
  it('tries the accounts in order and stops at the first that answers', async () => {
    const { tried, result } = run({
      a: () => failed({ kind: 'transport', reason: 'connect' }),
      b: () => answered('from b'),
      c: () => answered('from c'),
    })
    expect(await result).toBe('from b')
    expect(tried).toEqual(['a', 'b'])
  })

  it('tries no account once the client has left, and says so', async () => {
    const gone = new AbortController()
    gone.abort()
    const { tried, result } = run({ a: () => answered('a'), b: () => answered('b'), c: () => answered('c') }, gone.signal)
    const err = await rejection(result)
    expect(tried).toEqual([])
    expect([err.status, err.code, err.message]).toEqual([499, 'client_closed_request', 'The client closed the connection before the request was complete.'])
  })

  it('tries no further account when the client leaves during an attempt', async () => {
    const client = new AbortController()
    const { tried, result } = run({
      a: () => {
        client.abort()
        return failed({ kind: 'transport', reason: 'reset' })
      },
      b: () => answered('b'),
      c: () => answered('c'),
    }, client.signal)
    expect((await rejection(result)).code).toBe('client_closed_request')
    expect(tried).toEqual(['a'])
  })

  it("throws the client's own error at once, without trying the next account", async () => {
    const refusal = gatewayError('invalid_request', 'missing_field', { field: 'prompt' }, { param: 'prompt' })
    const { tried, result } = run({
      a: () => {
        throw refusal
      },
      b: () => answered('b'),
      c: () => answered('c'),
    })
    expect(await rejection(result)).toBe(refusal)
    expect(tried).toEqual(['a'])
  })

  it.each([
    ['the last account timed out: 504', [overloaded(500), { kind: 'transport', reason: 'connect' }, { kind: 'transport', reason: 'timeout' }], 504, 'upstream_timeout', 'The model did not answer in time.'],
    ['the last account was rate-limited: 503', [{ kind: 'transport', reason: 'timeout' }, overloaded(500), overloaded(429)], 503, 'upstream_unavailable', 'The model is overloaded or rate-limited on every account; retry later.'],
    ['the last account broke: 502 naming why', [overloaded(429), { kind: 'transport', reason: 'timeout' }, overloaded(500)], 502, 'upstream_error', 'The model is temporarily unavailable after trying every account (HTTP 500).'],
    ['the last answer was malformed: 502', [overloaded(503), overloaded(503), { kind: 'malformed' }], 502, 'upstream_error', 'The model is temporarily unavailable after trying every account (malformed answer).'],
  ] as Array<[string, UpstreamFailure[], number, string, string]>)('every account failed, %s', async (_, failures, status, code, message) => {
    const { tried, result } = run({ a: () => failed(failures[0]), b: () => failed(failures[1]), c: () => failed(failures[2]) })
    const err = await rejection(result)
    expect(tried).toEqual(['a', 'b', 'c'])
    expect([err.status, err.code, err.message]).toEqual([status, code, message])
  })

  it('a 503 after failover says when to retry', async () => {
    const { result } = await run({ a: () => failed(overloaded(429)), b: () => failed(overloaded(529)), c: () => failed(overloaded(503)) })
    expect((await rejection(result)).headers).toEqual({ 'retry-after': '2', 'retry-after-ms': '2000' })
  })

  it('no account at all is a 502', async () => {
    const err = await rejection(failover([], undefined, async () => answered('never')))
    expect([err.status, err.code, err.message]).toEqual([502, 'upstream_error', 'The model is temporarily unavailable after trying every account (no account answered).'])
  })
})
