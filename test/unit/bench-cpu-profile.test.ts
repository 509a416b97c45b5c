// `npm run bench:profile`'s reading of a V8 CPU profile (bench/cpu-profile.ts): own time, time with callees, and
// where the code comes from, over the samples after the warm-up.
import { describe, expect, it } from 'vitest'
import { frameName, sourceOf, summarizeProfile, type CpuProfile } from '../../bench/cpu-profile.js'

const frame = (functionName: string, url = '', lineNumber = 0) => ({ functionName, url, lineNumber })

/**
 * (root) → handle (gateway) → parse (native JSON) and → write (node:net) → writev (native); and (idle), (garbage
 * collector) beside them. handle also calls itself once: a function on the stack twice counts once in `total`.
 */
const PROFILE: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)'), children: [2, 6, 7] },
    { id: 2, callFrame: frame('handle', 'file:///app/dist/gateway/cli.js', 99), children: [3, 4, 8] },
    { id: 3, callFrame: frame('parse') },
    { id: 4, callFrame: frame('write', 'node:net', 9), children: [5] },
    { id: 5, callFrame: frame('writev') },
    { id: 6, callFrame: frame('(idle)') },
    { id: 7, callFrame: frame('(garbage collector)') },
    { id: 8, callFrame: frame('handle', 'file:///app/dist/gateway/cli.js', 99) },
  ],
  // The first sample (1000 µs, in the start-up) is skipped below.
  samples: [3, 2, 3, 5, 5, 6, 7, 8],
  timeDeltas: [1000, 100, 100, 100, 100, 100, 100, 100],
}

describe('summarizeProfile', () => {
  const summary = summarizeProfile(PROFILE, { skipUs: 1000, gatewayFile: 'cli.js' })

  it('counts only the samples after the skipped start', () => {
    expect(summary.countedUs).toBe(700)
  })

  it('own time by function, largest first, as shares of the time counted', () => {
    expect(summary.self.map((r) => [r.name, Math.round(r.share * 10) / 10])).toEqual([
      ['handle cli.js:100', 28.6],
      ['writev (native)', 28.6],
      ['parse (native)', 14.3],
      ['(idle)', 14.3],
      ['(garbage collector)', 14.3],
    ])
  })

  it('time with callees counts a function once per sample, however often it is on the stack', () => {
    const total = Object.fromEntries(summary.total.map((r) => [r.name, Math.round(r.share * 10) / 10]))
    expect(total['handle cli.js:100']).toBe(71.4)
    expect(total['write node:net:10']).toBe(28.6)
    expect(total['(root)']).toBeUndefined()
  })

  it('by source: the gateway bundle, native code, Node, V8', () => {
    expect(Object.fromEntries(summary.sources.map((r) => [r.name, Math.round(r.share * 10) / 10]))).toEqual({
      gateway: 28.6, native: 42.9, '(idle)': 14.3, '(garbage collector)': 14.3,
    })
  })

  it('`top` bounds each table; an empty window has no shares', () => {
    expect(summarizeProfile(PROFILE, { top: 2, gatewayFile: 'cli.js' }).self).toHaveLength(2)
    expect(summarizeProfile(PROFILE, { skipUs: 10_000, gatewayFile: 'cli.js' })).toEqual({ countedUs: 0, self: [], total: [], sources: [] })
  })
})

describe('frameName and sourceOf', () => {
  it('name a function by its file and 1-based line; V8 pseudo-functions by their own name', () => {
    expect(frameName(frame('', 'file:///x/y/z.js', 4))).toBe('(anonymous) z.js:5')
    expect(frameName(frame('(program)'))).toBe('(program)')
    expect(frameName(frame('writev'))).toBe('writev (native)')
  })

  it('sort code into the gateway, undici, Node, native and the rest', () => {
    expect(sourceOf(frame('f', 'file:///app/dist/gateway/cli.js'), 'cli.js')).toBe('gateway')
    expect(sourceOf(frame('f', 'file:///app/node_modules/undici/lib/dispatcher/client-h1.js'), 'cli.js')).toBe('undici')
    expect(sourceOf(frame('f', 'node:internal/streams/writable'), 'cli.js')).toBe('node')
    expect(sourceOf(frame('f', ''), 'cli.js')).toBe('native')
    expect(sourceOf(frame('f', 'file:///app/node_modules/better-sqlite3/lib/database.js'), 'cli.js')).toBe('other')
    expect(sourceOf(frame('(garbage collector)'), 'cli.js')).toBe('(garbage collector)')
  })
})
