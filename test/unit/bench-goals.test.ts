// The benchmark's ratios and issue 27's one-core goals (bench/goals.ts), and the floor each kind of row is held to
// (bench/report.ts summarize): JSON chat and memory to the buffering bare proxy, stream TTFB to the streaming one.
import { describe, expect, it } from 'vitest'
import { difference, multiple, oneCoreGoals, share, type GoalInput } from '../../bench/goals.js'
import type { LoadResult } from '../../bench/load.js'
import type { SeqResult } from '../../bench/measure.js'
import { summarize, type Measurements, type TargetMemory, type TargetName } from '../../bench/report.js'

describe('ratios', () => {
  it('share is a percentage, multiple a quotient, difference a subtraction', () => {
    expect(share(80, 100)).toBe(80)
    expect(share(150, 100)).toBe(150)
    expect(multiple(3, 2)).toBe(1.5)
    expect(difference(3.5, 1)).toBe(2.5)
  })

  it('is NaN when a side is missing or the base is 0', () => {
    expect(share(undefined, 100)).toBeNaN()
    expect(share(5, undefined)).toBeNaN()
    expect(share(5, 0)).toBeNaN()
    expect(multiple(undefined, 2)).toBeNaN()
    expect(multiple(2, 0)).toBeNaN()
    expect(difference(1, undefined)).toBeNaN()
  })
})

const atGoal: GoalInput = {
  throughputPct: { 1: 50, 16: 80, 64: 80 },
  p99Multiple: { 1: 9, 16: 9, 64: 1.5 },
  ttfbMultiple: { 1: 1.2, 16: 1.2 },
  rssAfterLoadMb: 120,
  ledger: { answered: 5000, rows: 5000 },
}

describe('oneCoreGoals', () => {
  it('meets every goal exactly at its bound, and judges only the connection counts the goals name', () => {
    expect(oneCoreGoals(atGoal)).toEqual([
      { name: 'req/s @16', goal: '>= 80% of buffering proxy', value: '80.0%', met: true },
      { name: 'req/s @64', goal: '>= 80% of buffering proxy', value: '80.0%', met: true },
      { name: 'p99 @64', goal: '<= 1.5× buffering proxy', value: '1.50×', met: true },
      { name: 'stream TTFB p50 @1', goal: '<= 1.2× streaming proxy', value: '1.20×', met: true },
      { name: 'stream TTFB p50 @16', goal: '<= 1.2× streaming proxy', value: '1.20×', met: true },
      { name: 'RSS after load', goal: '<= 120 MB', value: '120 MB', met: true },
      { name: 'ledger rows', goal: 'one per 2xx answer', value: '5000 / 5000', met: true },
    ])
  })

  it('misses each goal just past its bound', () => {
    const goals = oneCoreGoals({
      throughputPct: { 16: 79.9, 64: 79.94 },
      p99Multiple: { 64: 1.51 },
      ttfbMultiple: { 1: 1.21, 16: 1.201 },
      rssAfterLoadMb: 120.4,
      ledger: { answered: 5000, rows: 4999 },
    })
    expect(goals.map((g) => [g.name, g.value, g.met])).toEqual([
      ['req/s @16', '79.9%', false],
      ['req/s @64', '79.9%', false],
      ['p99 @64', '1.51×', false],
      ['stream TTFB p50 @1', '1.21×', false],
      ['stream TTFB p50 @16', '1.20×', false],
      ['RSS after load', '120 MB', false],
      ['ledger rows', '4999 / 5000', false],
    ])
  })

  it('counts more ledger rows than answers read as met: requests cut off in flight were recorded', () => {
    const ledger = oneCoreGoals({ ...atGoal, ledger: { answered: 5000, rows: 5012 } }).at(-1)
    expect(ledger).toEqual({ name: 'ledger rows', goal: 'one per 2xx answer', value: '5012 / 5000', met: true })
  })

  it('does not meet a goal whose figure was not measured', () => {
    const goals = oneCoreGoals({ throughputPct: { 16: NaN }, p99Multiple: {}, ttfbMultiple: { 1: NaN }, rssAfterLoadMb: NaN, ledger: undefined })
    expect(goals.map((g) => [g.name, g.value, g.met])).toEqual([
      ['req/s @16', 'n/a', false],
      ['req/s @64', 'n/a', false],
      ['p99 @64', 'n/a', false],
      ['stream TTFB p50 @1', 'n/a', false],
      ['stream TTFB p50 @16', 'n/a', false],
      ['RSS after load', 'n/a', false],
      ['ledger rows', 'n/a', false],
    ])
  })
})

describe('summarize', () => {
  const load = (connections: number, requestsPerSec: number, p50: number, p99: number): LoadResult => ({ connections, requestsPerSec, p50, p99, cpuUsPerRequest: 1e6 / requestsPerSec, databaseCpuUsPerRequest: NaN, requests: 1000, errors: 0, non2xx: 0 })
  const stream = (p50: number, perSec: number): SeqResult => ({ requests: 100, p50, p99: p50 * 2, totalP50: p50 + 1, totalP99: p50 * 3, failures: 0, perSec })
  const memory = (afterLoadMb: number): TargetMemory => ({ idleMb: afterLoadMb / 2, afterLoadMb, peakMb: afterLoadMb + 10 })
  // Each target answers at its own rate, so that a ratio taken against the wrong one shows.
  const figures: Record<Exclude<TargetName, 'portkey'>, { rps: number; p99: number; ttfb: number; rss: number }> = {
    direct: { rps: 20_000, p99: 1, ttfb: 0.2, rss: 80 },
    bare: { rps: 6_000, p99: 5, ttfb: 0.5, rss: 90 },
    buffered: { rps: 10_000, p99: 4, ttfb: 0.8, rss: 100 },
    gatehouse: { rps: 8_500, p99: 5, ttfb: 0.55, rss: 110 },
  }
  const byTarget = <T>(f: (t: Exclude<TargetName, 'portkey'>) => T, none: T) =>
    ({ ...Object.fromEntries(Object.entries(figures).map(([t]) => [t, f(t as Exclude<TargetName, 'portkey'>)])), portkey: none }) as Record<TargetName, T>
  const loads = byTarget((t) => [1, 16, 64].map((c) => load(c, figures[t].rps, figures[t].p99 / 4, figures[t].p99)), [])
  const m: Measurements = {
    load: loads,
    streams: byTarget((t) => [stream(figures[t].ttfb, 1000), stream(figures[t].ttfb * 2, 3000)], []),
    memory: byTarget((t) => memory(figures[t].rss), { idleMb: NaN, afterLoadMb: NaN, peakMb: NaN }),
    loadRounds: [loads],
    streamRounds: [],
    notRun: { portkey: 'not installed' },
  }
  const s = summarize(m, [1, 16, 64])

  it('holds JSON chat to the buffering proxy, streams to the streaming one, memory to the buffering one', () => {
    expect(s.oneCore.throughputPct).toEqual({ 1: 85, 16: 85, 64: 85 })
    expect(s.oneCore.p99Multiple).toEqual({ 1: 1.25, 16: 1.25, 64: 1.25 })
    expect(s.oneCore.ttfbMultiple[1]).toBeCloseTo(1.1, 10)
    expect(s.oneCore.ttfbMultiple[16]).toBeCloseTo(1.1, 10)
    expect(s.oneCore.rssAfterLoadMb).toBe(110)
    expect(s.throughputPctPerRound[16]).toEqual([85])
    expect(s.p50DeltaAt1ConnMs.gatehouseMinusFloor).toBeCloseTo(0.25, 10)
    expect(s.p50At1.met).toBe(false)
  })

  it('gives Gatehouse against both floors and the peer, NaN for a peer that was not measured', () => {
    expect(s.gatehouseVs.bare.throughputPct[64]).toBeCloseTo(141.667, 3)
    expect(s.gatehouseVs.bare.p99[64]).toBe(1)
    expect(s.gatehouseVs.buffered.cpuPerRequest[16]).toBeCloseTo(10_000 / 8_500, 10)
    expect(s.gatehouseVs.portkey.cpuPerRequest[16]).toBeNaN()
    expect(s.gatehouseVs.buffered.ttfbP50[1]).toBeCloseTo(0.6875, 10)
    expect(s.gatehouseVs.buffered.rss.afterLoad).toBeCloseTo(1.1, 10)
    expect(s.gatehouseVs.bare.streamsPerSecPct[16]).toBe(100)
    expect(s.gatehouseVs.portkey.throughputPct[16]).toBeNaN()
    expect(s.gatehouseVs.portkey.ttfbP50[1]).toBeNaN()
    expect(s.gatehouseVs.portkey.rss.afterLoad).toBeNaN()
    expect(s.floorsVsDirectThroughputPct.buffered[16]).toBe(50)
  })
})
