import { describe, expect, it } from 'vitest'
import { LATENCY_FLOOR_MS, latencyTick, onLogAxis } from '../../../../../renderer/panels/usage/usage-charts'

describe('latency log axis', () => {
  it('labels each power of ten whole, in ms below a second, s below 100 s, minutes above', () => {
    expect([0.1, 1, 10, 100, 1_000, 10_000, 100_000, 1_000_000].map(latencyTick)).toEqual(['0.1 ms', '1 ms', '10 ms', '100 ms', '1 s', '10 s', '1.7 min', '17 min'])
  })

  it('leaves the ticks between powers of ten unlabelled', () => {
    expect([2, 5, 20, 300, 2_000, 50_000, null, 0].map(latencyTick)).toEqual(['', '', '', '', '', '', '', ''])
  })

  it('keeps gaps, and draws figures below the floor on it', () => {
    expect(onLogAxis([null, 0, 0.05, 7, 95_000])).toEqual([null, LATENCY_FLOOR_MS, LATENCY_FLOOR_MS, 7, 95_000])
  })
})
