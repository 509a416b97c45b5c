import { describe, expect, it } from 'vitest'
import type { RequestLogEntry } from '../../../../../shared/admin'
import { DEFAULT_COLUMNS, LOG_COLUMNS, savedColumns } from '../../../../../renderer/panels/usage/log-query'
import { requestFacts } from '../../../../../renderer/panels/usage/request-detail'

const row = (patch: Partial<RequestLogEntry>): RequestLogEntry => ({
  id: 'req_1', createdAt: 0, keyId: 'key_1', group: 'main', model: 'gpt-x', endpoint: 'chat.completions', status: 200, errorCode: null,
  upstream: 'acc-a', inputTokens: 10, outputTokens: 5, cost: 0.01, latencyMs: 120, attempts: null, ...patch,
}) as RequestLogEntry

describe('request detail facts', () => {
  it('a request served at the first call: requested and served alike, one account', () => {
    const r = row({ attempts: [{ account: 'acc-a', model: 'gpt-x', outcome: 'ok', ms: 100 }] })
    expect(requestFacts(r)).toEqual({ requested: 'gpt-x', served: 'gpt-x', servedBy: 'acc-a', accounts: ['acc-a'], upstreamMs: 100 })
  })

  it('a fallback: the first model as requested, the fallback as served, every account once in order', () => {
    const r = row({
      model: 'gpt-small', upstream: 'acc-c',
      attempts: [
        { account: 'acc-a', model: 'gpt-x', outcome: 'status 503', ms: 40, next: 'failed over' },
        { account: 'acc-b', model: 'gpt-x', outcome: 'skipped: breaker open', ms: 0, next: 'failed over' },
        { account: 'acc-a', model: 'gpt-x', outcome: 'timeout', ms: 60, next: 'failed over' },
        { account: 'acc-c', model: 'gpt-small', outcome: 'ok', ms: 30 },
      ],
    })
    expect(requestFacts(r)).toEqual({ requested: 'gpt-x', served: 'gpt-small', servedBy: 'acc-c', accounts: ['acc-a', 'acc-b', 'acc-c'], upstreamMs: 130 })
  })

  it('a request refused before any upstream call: the model it named, none served, no account', () => {
    const r = row({ model: 'no-such-model', status: 404, errorCode: 'model_not_found', upstream: null })
    expect(requestFacts(r)).toEqual({ requested: 'no-such-model', served: null, servedBy: null, accounts: [], upstreamMs: null })
  })

  it('every account failed: none served', () => {
    const r = row({ status: 502, errorCode: 'upstream_error', attempts: [{ account: 'acc-a', model: 'gpt-x', outcome: 'status 500', ms: 20, next: 'no account left' }] })
    expect(requestFacts(r)).toMatchObject({ requested: 'gpt-x', served: null, servedBy: null, accounts: ['acc-a'], upstreamMs: 20 })
  })
})

describe('saved column choice', () => {
  it('keeps known columns in table order, whatever order they were saved in', () => {
    expect(savedColumns(['latency', 'model', 'time'])).toEqual(['time', 'model', 'latency'])
    expect(savedColumns([...LOG_COLUMNS].reverse())).toEqual([...LOG_COLUMNS])
  })

  it('drops unknown names; the defaults for nothing usable', () => {
    expect(savedColumns(['model', 'secret', 42])).toEqual(['model'])
    for (const value of [undefined, null, 'model', {}, [], ['nope']]) expect(savedColumns(value)).toEqual([...DEFAULT_COLUMNS])
  })
})
