import { describe, expect, it } from 'vitest'
import type { UsageDay, UsageKeySpend } from '../../../../../shared/admin'
import { barsOf, dayRange, daySeconds, errorRates, keyShares, latencyLines, localDate, rangeTotals, stackSpend, summaryQuery, usdTick } from '../../../../../renderer/panels/usage/usage-charts'

const day = (patch: Partial<UsageDay>): UsageDay => ({ date: '2026-03-01', start: 0, requests: 0, errors: 0, cost: 0, latency: null, ...patch })
const key = (patch: Partial<UsageKeySpend>): UsageKeySpend => ({ keyId: 'key_a', name: null, hint: 'sk-…a', app: false, requests: 1, cost: 0, ...patch })

describe('usage chart data', () => {
  it('asks for the last N local days, today included', () => {
    const now = new Date(2026, 2, 3, 0, 30) // local March 3, just after midnight
    expect(summaryQuery(7, 'group', false, now, 'Europe/Berlin')).toEqual({ since: '2026-02-25', until: '2026-03-03', tz: 'Europe/Berlin', by: 'group', housekeeping: 'false' })
    expect(summaryQuery(30, 'model', true, new Date(2026, 0, 15, 23, 59), 'UTC')).toMatchObject({ since: '2025-12-17', until: '2026-01-15', housekeeping: 'true' })
    expect(localDate(new Date(2026, 11, 31, 23, 59, 59))).toBe('2026-12-31')
  })

  it('stacks spending bottom first, the summed rest on top', () => {
    const layers = stackSpend({
      series: [{ id: 'gpt', cost: [3, 0, 1] }, { id: null, cost: [1, 0, 0] }],
      other: { count: 4, cost: [0.5, 0, 2] },
    })
    expect(layers).toEqual([
      { id: 'gpt', cost: [3, 0, 1], top: [3, 0, 1] },
      { id: null, cost: [1, 0, 0], top: [4, 0, 1] },
      { id: null, other: { count: 4 }, cost: [0.5, 0, 2], top: [4.5, 0, 3] },
    ])
    expect(stackSpend({ series: [], other: null })).toEqual([])
  })

  it('reads error rates and percentile lines, with gaps on days without requests', () => {
    const days = [
      day({ start: 1_000_000, requests: 4, errors: 1, latency: { p50: 10, p90: 20, p99: 30, sampled: 4 } }),
      day({ start: 87_400_000 }),
      day({ start: 173_800_000, requests: 2, errors: 2, latency: { p50: 5, p90: 6, p99: 7, sampled: 2 } }),
    ]
    expect(errorRates(days)).toEqual([25, null, 100])
    expect(latencyLines(days)).toEqual({ p50: [10, null, 5], p90: [20, null, 6], p99: [30, null, 7] })
    expect(daySeconds(days)).toEqual([1000, 87_400, 173_800])
    expect(rangeTotals(days)).toEqual({ requests: 6, errors: 3, cost: 0 })
  })

  it('gives each key its share of the spending, the rest summed last', () => {
    const rows = keyShares({ keys: [key({ cost: 3, requests: 5 }), key({ keyId: null, cost: 1 })], otherKeys: { count: 3, requests: 9, cost: 4 } })
    expect(rows.map((r) => [r.cost, r.requests, r.share])).toEqual([[3, 5, 0.375], [1, 1, 0.125], [4, 9, 0.5]])
    expect(rows[2].key).toEqual({ other: 3 })
    expect(keyShares({ keys: [key({ cost: 0 })], otherKeys: null })[0].share).toBe(0)
  })

  it('draws no bar on an empty day, keeps both end bars whole, and labels money ticks as finely as they step', () => {
    expect(barsOf([0, 2, 0.5])).toEqual([null, 2, 0.5])
    expect(dayRange(86_400, 172_800)).toEqual([43_200, 216_000])
    expect([0, 0.005, 0.01, 0.015].map((v) => usdTick(v, 0.005))).toEqual(['$0.000', '$0.005', '$0.010', '$0.015'])
    expect([0, 10, 20].map((v) => usdTick(v, 10))).toEqual(['$0.00', '$10.00', '$20.00'])
    expect(usdTick(0.25, 0.05)).toBe('$0.25')
  })
})
