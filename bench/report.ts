// Turns the raw measurements into the comparisons the project cares about, and prints them.
import { IMAGE_PATH_LABELS, IMAGE_PATHS, type ImagesSummary } from './images.js'
import { median, type LoadResult, type SeqResult } from './measure.js'
import { CHAT_PATHS, MESSAGES_PATHS, PATH_LABELS, type ProtocolSummary } from './protocols.js'

export const TARGETS = ['direct', 'bare', 'gatehouse'] as const
export type TargetName = (typeof TARGETS)[number]
export const LABELS: Record<TargetName, string> = { direct: 'direct (fake upstream)', bare: 'bare proxy', gatehouse: 'Gatehouse' }

export interface Measurements {
  /** per (target, connections): the median over the rounds (counts summed) */
  load: Record<TargetName, LoadResult[]>
  ttfb: Record<TargetName, SeqResult>
  /** each round as measured */
  loadRounds: Array<Record<TargetName, LoadResult[]>>
  ttfbRounds: Array<Record<TargetName, SeqResult>>
}

/** The project's goals: Gatehouse keeps ≥ 85% of the bare proxy's throughput at 16 connections, and adds ≤ 0.1 ms at p50 alone. */
const GOAL_THROUGHPUT_PCT = 85
const GOAL_P50_DELTA_MS = 0.1

const at = (rows: LoadResult[], connections: number) => rows.find((r) => r.connections === connections)
const pct = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined || b === 0 ? NaN : (100 * a) / b)
const minus = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? NaN : a - b)

export function summarize(m: Measurements, connections: number[]) {
  const byConn = <T>(f: (c: number) => T) => Object.fromEntries(connections.map((c) => [c, f(c)])) as Record<number, T>
  const rps = (t: TargetName, c: number, load = m.load) => at(load[t], c)?.requestsPerSec
  const p50 = (t: TargetName, c: number) => at(m.load[t], c)?.p50
  const throughputPct = byConn((c) => pct(rps('gatehouse', c), rps('bare', c)))
  const perRound = byConn((c) => m.loadRounds.map((round) => pct(rps('gatehouse', c, round), rps('bare', c, round))))
  const p50DeltaAt1 = minus(p50('gatehouse', 1), p50('bare', 1))
  return {
    rounds: m.loadRounds.length,
    /** ratio of the median rates */
    gatehouseVsBareThroughputPct: throughputPct,
    gatehouseVsBareThroughputPctPerRound: perRound,
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
  const of = `median of ${s.rounds} round${s.rounds === 1 ? '' : 's'}; counts are totals`
  console.log(table(`\nNon-streamed chat completions (autocannon; ${of})`, ['target', 'conns', 'req/s', 'p50 ms', 'p99 ms', 'requests', 'errors', 'non-2xx'], loadRows))

  const roundHeads = m.loadRounds.map((_, i) => `round ${i + 1}`)
  const spreadRows = connections.map((c) => [
    `@${c} conns`, ...s.gatehouseVsBareThroughputPctPerRound[c].map(percent),
    percent(median(s.gatehouseVsBareThroughputPctPerRound[c])), percent(s.gatehouseVsBareThroughputPct[c]),
  ])
  console.log(table('\nGatehouse / bare proxy throughput, per round', ['', ...roundHeads, 'median of rounds', 'of the medians'], spreadRows))

  const ttfbRows = TARGETS.map((t) => {
    const r = m.ttfb[t]
    return [LABELS[t], String(r.requests), ms(r.p50), ms(r.p99), ms(r.totalP50), String(r.failures)]
  })
  console.log(table(`\nStreamed chat completions, sequential (undici; ${of})`, ['target', 'requests', 'TTFB p50 ms', 'TTFB p99 ms', 'whole stream p50 ms', 'failures'], ttfbRows))

  const ratioRows = [
    ...connections.map((c) => [`throughput @${c} conns`, percent(s.gatehouseVsBareThroughputPct[c]), percent(s.bareVsDirectThroughputPct[c])]),
    ['p50 latency @1 conn', signedMs(s.p50DeltaAt1ConnMs.gatehouseMinusBare), signedMs(s.p50DeltaAt1ConnMs.bareMinusDirect)],
    ['TTFB p50', signedMs(s.ttfbDeltaMs.p50GatehouseMinusBare), signedMs(s.ttfbDeltaMs.p50BareMinusDirect)],
    ['TTFB p99', signedMs(s.ttfbDeltaMs.p99GatehouseMinusBare), signedMs(s.ttfbDeltaMs.p99BareMinusDirect)],
  ]
  console.log(table('\nComparisons of the medians (throughput as a share, latency as a difference)', ['', 'Gatehouse vs bare', 'bare vs direct'], ratioRows))
}

export function printProtocols(p: ProtocolSummary, rounds: number): void {
  const of = `sequential on one connection, median of ${rounds} round${rounds === 1 ? '' : 's'}; counts are totals`
  const chatRows = CHAT_PATHS.map((path) => {
    const [json, stream] = [p.medians[`${path}.json`], p.medians[`${path}.stream`]]
    return [PATH_LABELS[path], String(json.requests + stream.requests), ms(json.totalP50), ms(json.totalP99), ms(stream.p50), ms(stream.totalP50), String(json.failures + stream.failures)]
  })
  console.log(table(`\nChat completions by upstream protocol (non-streamed latency, streamed TTFB; ${of})`, ['path', 'requests (both modes)', 'latency p50 ms', 'latency p99 ms', 'TTFB p50 ms', 'whole stream p50 ms', 'failures'], chatRows))

  const t = p.translationOverheadMs
  console.log('  translation overhead = (Gatehouse→Gemini − direct Gemini) − (Gatehouse→relay − direct OpenAI)')
  console.log(`    latency p50: ${signedMs(t.latencyP50)} from the medians; per round ${t.latencyP50PerRound.map(signedMs).join(', ')} (median ${signedMs(t.latencyP50MedianOfRounds)})`)
  console.log(`    TTFB p50:    ${signedMs(t.ttfbP50)} (streamed, for reference)`)
  console.log(`    under ${p.goal.goal.replace(/^< /, '')}: ${p.goal.met ? 'yes' : 'no'}`)

  const msgRows = MESSAGES_PATHS.map((path) => {
    const r = p.medians[`${path}.stream`]
    return [PATH_LABELS[path], String(r.requests), ms(r.p50), ms(r.p99), ms(r.totalP50), String(r.failures)]
  })
  const d = p.messagesGatehouseMinusDirectMs
  msgRows.push(['Gatehouse − direct', '', signedMs(d.ttfbP50), signedMs(d.ttfbP99), signedMs(d.wholeStreamP50), ''])
  console.log(table(`\nStreamed /v1/messages (${of})`, ['path', 'requests', 'TTFB p50 ms', 'TTFB p99 ms', 'whole stream p50 ms', 'failures'], msgRows))
}

const mbOf = (v: number) => (Number.isFinite(v) ? `${v.toFixed(1)} MB` : 'n/a')
const signedMb = (v: number) => (Number.isFinite(v) ? `${v >= 0 ? '+' : ''}${v.toFixed(1)} MB` : 'n/a')

export function printImages(i: ImagesSummary, rounds: number): void {
  const of = `sequential on one connection, median of ${rounds} round${rounds === 1 ? '' : 's'}; counts are totals`
  const rows = IMAGE_PATHS.map((path) => {
    const r = i.medians[path]
    const bytes = path === 'imagesGatehouse' ? i.body.gatehouseBytes : i.body.directBytes
    return [IMAGE_PATH_LABELS[path], mbOf(bytes / 1e6), String(r.requests), ms(r.totalP50), ms(r.totalP99), String(r.failures)]
  })
  const o = i.overheadMs
  rows.push(['Gatehouse − direct', '', '', signedMs(o.latencyP50), signedMs(o.latencyP99), ''])
  console.log(table(`\nImages edit: ${i.body.references} and a mask, multipart (${of})`, ['path', 'body', 'requests', 'latency p50 ms', 'latency p99 ms', 'failures'], rows))
  console.log(`  mask: ${i.body.mask}; MB = 10^6 bytes`)
  console.log(`  overhead p50: ${signedMs(o.latencyP50)} from the medians, ${signedMs(o.latencyP50PerMb)} per MB of body; per round ${o.latencyP50PerRound.map(signedMs).join(', ')} (median ${signedMs(o.latencyP50MedianOfRounds)})`)
  const m = i.memory
  if (!m.before || !m.after) {
    console.log(`  Gatehouse memory: not measured (/proc/${m.pid ?? '?'}/status unreadable)`)
    return
  }
  console.log(`  Gatehouse memory (pid ${m.pid}, /proc/<pid>/status): VmRSS before ${mbOf(m.rssBeforeMb)} (peak so far ${mbOf(m.peakBeforeMb)}), VmHWM after ${mbOf(m.peakAfterMb)}, VmRSS after ${mbOf(m.rssAfterMb)}`)
  console.log(`    ${m.peakReset ? 'the peak was reset to VmRSS at the start of the phase (clear_refs 5): VmHWM after is the phase\'s own' : 'the peak could not be reset: VmHWM after may be one from before the phase, so growth is an upper bound'}`)
  console.log(`    peak growth = VmHWM after − VmRSS before: ${signedMb(m.growthMb)}; under ${i.goal.goal.replace(/^growth < /, '')}: ${i.goal.met ? 'yes' : 'no'}`)
}

export function printGoals(s: Summary, p: ProtocolSummary, i: ImagesSummary): void {
  const { throughputAt16, p50At1 } = s.goals
  const row = (name: string, goal: string, value: string, met: boolean) =>
    console.log(`  ${name.padEnd(20)} ${goal.padEnd(22)} ${value.padStart(12)}  ${met ? 'MET' : 'NOT MET'}`)
  console.log(`\nProject goals, from the medians (measurements, not assertions)`)
  row('throughput @16 conns', throughputAt16.goal, percent(throughputAt16.valuePct), throughputAt16.met)
  row('p50 @1 conn', p50At1.goal, signedMs(p50At1.deltaMs), p50At1.met)
  row('Gemini translation', p.goal.goal, signedMs(p.goal.deltaMs), p.goal.met)
  row('images edit memory', i.goal.goal, signedMb(i.goal.growthMb), i.goal.met)
}
