// Turns the raw measurements into the comparisons the project cares about, and prints them.
import { IMAGE_PATH_LABELS, IMAGE_PATHS, type ImagesSummary } from './images.js'
import type { LoadResult } from './load.js'
import { median, type SeqResult } from './measure.js'
import { CHAT_PATHS, MESSAGES_PATHS, PATH_LABELS, type ProtocolSummary } from './protocols.js'
import { TEAM_LABELS, TEAM_OPTS, TEAM_SERIES, type TeamRound } from './team.js'

export const TARGETS = ['direct', 'bare', 'gatehouse'] as const
export type TargetName = (typeof TARGETS)[number]
export const LABELS: Record<TargetName, string> = { direct: 'direct (fake upstream)', bare: 'bare proxy', gatehouse: 'Gatehouse' }

export const STREAM_CONNECTIONS = [1, 16]

/** A target's memory in MB (10^6 bytes), from /proc/<pid>/status: VmRSS before any load, VmRSS after the chat and stream load, VmHWM then. */
export interface TargetMemory { idleMb: number; afterLoadMb: number; peakMb: number }

export interface Measurements {
  /** per (target, connections): the median over the rounds (counts summed) */
  load: Record<TargetName, LoadResult[]>
  /** per (target, STREAM_CONNECTIONS) */
  streams: Record<TargetName, SeqResult[]>
  memory: Record<TargetName, TargetMemory>
  /** each round as measured */
  loadRounds: Array<Record<TargetName, LoadResult[]>>
  streamRounds: Array<Record<TargetName, SeqResult[]>>
}

/** The project's goals: Gatehouse keeps ≥ 85% of the bare proxy's throughput at 16 connections, and adds ≤ 0.1 ms at p50 alone. */
const GOAL_THROUGHPUT_PCT = 85
const GOAL_P50_DELTA_MS = 0.1

const at = <T extends { connections: number }>(rows: T[], connections: number) => rows.find((r) => r.connections === connections)
const pct = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined || b === 0 ? NaN : (100 * a) / b)
const minus = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? NaN : a - b)
const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined || b === 0 ? NaN : a / b)

export function summarize(m: Measurements, connections: number[]) {
  const byConn = <T>(cs: number[], f: (c: number) => T) => Object.fromEntries(cs.map((c) => [c, f(c)])) as Record<number, T>
  const rps = (t: TargetName, c: number, load = m.load) => at(load[t], c)?.requestsPerSec
  const lat = (t: TargetName, c: number, f: 'p50' | 'p99') => at(m.load[t], c)?.[f]
  const stream = (t: TargetName, c: number) => m.streams[t][STREAM_CONNECTIONS.indexOf(c)]
  const throughputPct = byConn(connections, (c) => pct(rps('gatehouse', c), rps('bare', c)))
  const perRound = byConn(connections, (c) => m.loadRounds.map((round) => pct(rps('gatehouse', c, round), rps('bare', c, round))))
  const p50DeltaAt1 = minus(lat('gatehouse', 1, 'p50'), lat('bare', 1, 'p50'))
  return {
    rounds: m.loadRounds.length,
    /** ratio of the median rates */
    gatehouseVsBareThroughputPct: throughputPct,
    gatehouseVsBareThroughputPctPerRound: perRound,
    bareVsDirectThroughputPct: byConn(connections, (c) => pct(rps('bare', c), rps('direct', c))),
    /** Gatehouse's latency as a multiple of the bare proxy's */
    gatehouseVsBareLatency: byConn(connections, (c) => ({ p50: ratio(lat('gatehouse', c, 'p50'), lat('bare', c, 'p50')), p99: ratio(lat('gatehouse', c, 'p99'), lat('bare', c, 'p99')) })),
    p50DeltaAt1ConnMs: { gatehouseMinusBare: p50DeltaAt1, bareMinusDirect: minus(lat('bare', 1, 'p50'), lat('direct', 1, 'p50')) },
    gatehouseVsBareStreams: byConn(STREAM_CONNECTIONS, (c) => ({
      ttfbP50: ratio(stream('gatehouse', c).p50, stream('bare', c).p50),
      ttfbP50DeltaMs: minus(stream('gatehouse', c).p50, stream('bare', c).p50),
      perSecPct: pct(stream('gatehouse', c).perSec, stream('bare', c).perSec),
    })),
    gatehouseVsBareRssAfterLoad: ratio(m.memory.gatehouse.afterLoadMb, m.memory.bare.afterLoadMb),
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
const times = (v: number) => (Number.isFinite(v) ? `${v.toFixed(2)}×` : 'n/a')
const mb = (v: number) => (Number.isFinite(v) ? v.toFixed(0) : 'n/a')

export function table(title: string, head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)))
  // First column is a label (left-aligned); the rest are numbers (right-aligned).
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')
  return [title, line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n')
}

export function printReport(m: Measurements, s: Summary, connections: number[], generator: string): void {
  const of = `median of ${s.rounds} round${s.rounds === 1 ? '' : 's'}`
  const row = (label: string, f: (t: TargetName) => number, fmt: (v: number) => string, vsBare: (g: number, b: number) => string) =>
    [label, ...TARGETS.map((t) => fmt(f(t))), vsBare(f('gatehouse'), f('bare'))]
  const rate = (g: number, b: number) => percent(pct(g, b))
  const slower = (g: number, b: number) => times(ratio(g, b))
  const rows = [
    ...connections.flatMap((c) => [
      row(`chat req/s @${c}`, (t) => at(m.load[t], c)?.requestsPerSec ?? NaN, (v) => v.toFixed(0), rate),
      row(`chat p50 ms @${c}`, (t) => at(m.load[t], c)?.p50 ?? NaN, ms, slower),
      row(`chat p99 ms @${c}`, (t) => at(m.load[t], c)?.p99 ?? NaN, ms, slower),
    ]),
    ...STREAM_CONNECTIONS.flatMap((c, i) => [
      row(`stream TTFB p50 ms @${c}`, (t) => m.streams[t][i].p50, ms, slower),
      row(`streams/s @${c}`, (t) => m.streams[t][i].perSec, (v) => v.toFixed(0), rate),
    ]),
    row('RSS idle MB', (t) => m.memory[t].idleMb, mb, slower),
    row('RSS after load MB', (t) => m.memory[t].afterLoadMb, mb, slower),
    row('RSS peak MB', (t) => m.memory[t].peakMb, mb, slower),
  ]
  console.log(table(`\nChat completions (JSON and streams/s @16: ${generator}; TTFB: sequential on one connection (undici), @16 beside the ${generator} load; ${of})`, ['measurement', ...TARGETS.map((t) => LABELS[t]), 'Gatehouse vs bare'], rows))
  console.log('  vs bare: req/s and streams/s as a share of the bare proxy\'s, latency and memory as a multiple of it; @N = N connections')

  const counts = connections.flatMap((c) => TARGETS.map((t) => {
    const r = at(m.load[t], c)
    return [`${LABELS[t]} @${c}`, String(r?.requests ?? 'n/a'), String(r?.errors ?? 'n/a'), String(r?.non2xx ?? 'n/a')]
  }))
  const streamCounts = STREAM_CONNECTIONS.flatMap((c, i) => TARGETS.map((t) => [`${LABELS[t]} streams @${c}`, String(m.streams[t][i].requests), '', String(m.streams[t][i].failures)]))
  console.log(table('\nCounts, totals over the rounds (warm-ups not counted)', ['run', 'requests', 'errors', 'non-2xx / failed'], [...counts, ...streamCounts]))

  const roundHeads = m.loadRounds.map((_, i) => `round ${i + 1}`)
  const spreadRows = connections.map((c) => [
    `@${c} conns`, ...s.gatehouseVsBareThroughputPctPerRound[c].map(percent),
    percent(median(s.gatehouseVsBareThroughputPctPerRound[c])), percent(s.gatehouseVsBareThroughputPct[c]),
  ])
  console.log(table('\nGatehouse / bare proxy throughput, per round', ['', ...roundHeads, 'median of rounds', 'of the medians'], spreadRows))
  console.log(`  p50 @1 conn: Gatehouse − bare ${signedMs(s.p50DeltaAt1ConnMs.gatehouseMinusBare)}, bare − direct ${signedMs(s.p50DeltaAt1ConnMs.bareMinusDirect)}`)
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

export function printGrowth(g: Record<string, LoadResult[]>, keyed: Array<{ keys: number; startMs: number; idleRssMb: number }>, promptBytes: number[], rounds: number): void {
  const cell = (id: string, c: number) => at(g[id] ?? [], c)
  const promptRows = promptBytes.flatMap((bytes) => (['bare', 'gatehouse'] as const).map((t) => {
    const [one, sixteen] = [cell(`prompt${bytes}.${t}`, 1), cell(`prompt${bytes}.${t}`, 16)]
    return [`${(bytes / 1000).toLocaleString('en')} KB, ${LABELS[t]}`, ms(one?.p50 ?? NaN), (sixteen?.requestsPerSec ?? NaN).toFixed(0), ms(sixteen?.p50 ?? NaN), ms(sixteen?.p99 ?? NaN),
      t === 'gatehouse' ? percent(pct(sixteen?.requestsPerSec, cell(`prompt${bytes}.bare`, 16)?.requestsPerSec)) : '']
  }))
  const of = `median of ${rounds} round${rounds === 1 ? '' : 's'}`
  console.log(table(`\nCost growth with the prompt's size (one user message of that many bytes of text; ${of})`, ['prompt, target', 'p50 ms @1', 'req/s @16', 'p50 ms @16', 'p99 ms @16', 'vs bare @16'], promptRows))
  const base = keyed[0] ? cell(`keys${keyed[0].keys}`, 16)?.requestsPerSec : undefined
  const keyRows = keyed.map((k) => {
    const [one, sixteen] = [cell(`keys${k.keys}`, 1), cell(`keys${k.keys}`, 16)]
    return [`${k.keys.toLocaleString('en')} keys and groups`, ms(one?.p50 ?? NaN), (sixteen?.requestsPerSec ?? NaN).toFixed(0), ms(sixteen?.p50 ?? NaN), ms(sixteen?.p99 ?? NaN), percent(pct(sixteen?.requestsPerSec, base)), k.startMs.toFixed(0), mb(k.idleRssMb)]
  })
  console.log(table(`\nCost growth with the config's size (Gatehouse alone on the target core; ${of})`, ['config', 'p50 ms @1', 'req/s @16', 'p50 ms @16', 'p99 ms @16', `vs ${keyed[0]?.keys ?? '?'} keys`, 'start ms', 'RSS idle MB'], keyRows))
}

/** Whether every request Gatehouse answered with a 2xx left a ledger row; returns a failure text, if any. */
export function printLedger(answered: number, ledger: { ok: number; other: number } | undefined): string | undefined {
  console.log('\nLedger (Gatehouse\'s data dir, read with better-sqlite3 after it stopped)')
  if (!ledger) {
    console.log('  not read: no ledger file')
    return 'the ledger could not be read'
  }
  const lost = Math.max(0, answered - ledger.ok)
  console.log(`  answered 2xx (counted by the clients, warm-ups and probes included): ${answered}; ledger rows with a 2xx status: ${ledger.ok}; other rows: ${ledger.other}`)
  // A load run that ends cuts off the requests then in flight: Gatehouse may have finished (and recorded) some the client never read.
  if (ledger.ok > answered) console.log(`  ${ledger.ok - answered} more rows than answers read: requests in flight when a load run ended`)
  console.log(lost === 0 ? '  none lost: every 2xx answer has its row' : `  LOST: ${lost} 2xx answers have no row`)
  return lost === 0 ? undefined : `${lost} requests answered 2xx have no ledger row`
}

/** Team mode: req/s per series at each connection count, the shared store's overhead and what a second replica adds. */
export function printTeam(summary: TeamRound, rounds: number, placement: string): void {
  const rps = (s: keyof TeamRound, c: number) => at(summary[s], c)?.requestsPerSec
  const rows = TEAM_SERIES.map((s) => [TEAM_LABELS[s], ...TEAM_OPTS.connections.flatMap((c) => [(rps(s, c) ?? NaN).toFixed(0), ms(at(summary[s], c)?.p99 ?? NaN)])])
  const of = `median of ${rounds} round${rounds === 1 ? '' : 's'}`
  console.log(table(`\nTeam mode: chat under load (${of}; ${placement})`, ['store', ...TEAM_OPTS.connections.flatMap((c) => [`req/s @${c}`, `p99 ms @${c}`])], rows))
  for (const c of TEAM_OPTS.connections) {
    const share = pct(rps('pg1', c), rps('sqlite', c))
    console.log(`  @${c}: PostgreSQL with 1 replica does ${percent(share)} of SQLite's throughput (the shared store costs ${percent(100 - share)}); 2 replicas vs 1: ×${ratio(rps('pg2', c), rps('pg1', c)).toFixed(2)}`)
  }
}
