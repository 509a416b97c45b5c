// Turns the raw measurements into the comparisons the project cares about, and prints them.
import type { LoadResult, TtfbResult } from './measure.js'

export const TARGETS = ['direct', 'bare', 'gatehouse'] as const
export type TargetName = (typeof TARGETS)[number]
export const LABELS: Record<TargetName, string> = { direct: 'direct (fake upstream)', bare: 'bare proxy', gatehouse: 'Gatehouse' }

export interface Measurements {
  load: Record<TargetName, LoadResult[]>
  ttfb: Record<TargetName, TtfbResult>
}

/** The project's goals: Gatehouse keeps ≥ 85% of the bare proxy's throughput at 16 connections, and adds ≤ 0.1 ms at p50 alone. */
const GOAL_THROUGHPUT_PCT = 85
const GOAL_P50_DELTA_MS = 0.1

const at = (rows: LoadResult[], connections: number) => rows.find((r) => r.connections === connections)
const pct = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined || b === 0 ? NaN : (100 * a) / b)
const minus = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? NaN : a - b)

export function summarize(m: Measurements, connections: number[]) {
  const byConn = <T>(f: (c: number) => T) => Object.fromEntries(connections.map((c) => [c, f(c)])) as Record<number, T>
  const rps = (t: TargetName, c: number) => at(m.load[t], c)?.requestsPerSec
  const p50 = (t: TargetName, c: number) => at(m.load[t], c)?.p50
  const throughputPct = byConn((c) => pct(rps('gatehouse', c), rps('bare', c)))
  const p50DeltaAt1 = minus(p50('gatehouse', 1), p50('bare', 1))
  return {
    gatehouseVsBareThroughputPct: throughputPct,
    bareVsDirectThroughputPct: byConn((c) => pct(rps('bare', c), rps('direct', c))),
    p50DeltaAt1ConnMs: { gatehouseMinusBare: p50DeltaAt1, bareMinusDirect: minus(p50('bare', 1), p50('direct', 1)) },
    ttfbDeltaMs: {
      p50GatehouseMinusBare: minus(m.ttfb.gatehouse.p50, m.ttfb.bare.p50),
      p99GatehouseMinusBare: minus(m.ttfb.gatehouse.p99, m.ttfb.bare.p99),
      p50BareMinusDirect: minus(m.ttfb.bare.p50, m.ttfb.direct.p50),
      p99BareMinusDirect: minus(m.ttfb.bare.p99, m.ttfb.direct.p99),
    },
    goals: {
      throughputAt16: { goal: `>= ${GOAL_THROUGHPUT_PCT}% of bare`, valuePct: throughputPct[16], met: throughputPct[16] >= GOAL_THROUGHPUT_PCT },
      p50At1: { goal: `<= bare + ${GOAL_P50_DELTA_MS} ms`, deltaMs: p50DeltaAt1, met: p50DeltaAt1 <= GOAL_P50_DELTA_MS },
    },
  }
}
export type Summary = ReturnType<typeof summarize>

const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(3) : 'n/a')
const signedMs = (v: number) => (Number.isFinite(v) ? `${v >= 0 ? '+' : ''}${v.toFixed(3)} ms` : 'n/a')
const percent = (v: number) => (Number.isFinite(v) ? `${v.toFixed(1)}%` : 'n/a')

function table(title: string, head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)))
  // First column is a label (left-aligned); the rest are numbers (right-aligned).
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')
  return [title, line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n')
}

export function printReport(m: Measurements, s: Summary, connections: number[]): void {
  const loadRows = connections.flatMap((c) =>
    TARGETS.map((t) => {
      const r = at(m.load[t], c)
      return r
        ? [LABELS[t], String(c), r.requestsPerSec.toFixed(0), ms(r.p50), ms(r.p99), String(r.requests), String(r.errors), String(r.non2xx)]
        : [LABELS[t], String(c), 'n/a', 'n/a', 'n/a', 'n/a', 'n/a', 'n/a']
    }),
  )
  console.log(table('\nNon-streamed chat completions (autocannon)', ['target', 'conns', 'req/s', 'p50 ms', 'p99 ms', 'requests', 'errors', 'non-2xx'], loadRows))

  const ttfbRows = TARGETS.map((t) => {
    const r = m.ttfb[t]
    return [LABELS[t], String(r.requests), ms(r.p50), ms(r.p99), ms(r.totalP50), String(r.failures)]
  })
  console.log(table('\nStreamed chat completions, sequential (undici)', ['target', 'requests', 'TTFB p50 ms', 'TTFB p99 ms', 'whole stream p50 ms', 'failures'], ttfbRows))

  const ratioRows = [
    ...connections.map((c) => [`throughput @${c} conns`, percent(s.gatehouseVsBareThroughputPct[c]), percent(s.bareVsDirectThroughputPct[c])]),
    ['p50 latency @1 conn', signedMs(s.p50DeltaAt1ConnMs.gatehouseMinusBare), signedMs(s.p50DeltaAt1ConnMs.bareMinusDirect)],
    ['TTFB p50', signedMs(s.ttfbDeltaMs.p50GatehouseMinusBare), signedMs(s.ttfbDeltaMs.p50BareMinusDirect)],
    ['TTFB p99', signedMs(s.ttfbDeltaMs.p99GatehouseMinusBare), signedMs(s.ttfbDeltaMs.p99BareMinusDirect)],
  ]
  console.log(table('\nComparisons (throughput as a share, latency as a difference)', ['', 'Gatehouse vs bare', 'bare vs direct'], ratioRows))

  const { throughputAt16, p50At1 } = s.goals
  console.log('\nProject goals (measurements, not assertions)')
  console.log(`  throughput @16 conns ${throughputAt16.goal.padEnd(18)} ${percent(throughputAt16.valuePct).padStart(12)}  ${throughputAt16.met ? 'MET' : 'NOT MET'}`)
  console.log(`  p50 @1 conn          ${p50At1.goal.padEnd(18)} ${signedMs(p50At1.deltaMs).padStart(12)}  ${p50At1.met ? 'MET' : 'NOT MET'}`)
}
