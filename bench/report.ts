// Turns the raw measurements into the comparisons the project cares about, and prints them. The ratios and the
// goals are computed in goals.ts, which also says which floor each kind of row is held to.
import { difference, multiple, share, type Goal } from './goals.js'
import { IMAGE_PATH_LABELS, IMAGE_PATHS, type ImagesSummary } from './images.js'
import type { LoadResult } from './load.js'
import { median, type SeqResult } from './measure.js'
import { CHAT_PATHS, MESSAGES_PATHS, PATH_LABELS, type ProtocolSummary } from './protocols.js'
import { TEAM_LABELS, TEAM_OPTS, TEAM_SERIES, type TeamRound } from './team.js'

/** `bare` is the streaming bare proxy, `buffered` the buffering one (bare-proxy.ts), `portkey` the peer gateway. */
export const TARGETS = ['direct', 'bare', 'buffered', 'portkey', 'gatehouse'] as const
export type TargetName = (typeof TARGETS)[number]
export const LABELS: Record<TargetName, string> = { direct: 'direct (fake upstream)', bare: 'streaming proxy', buffered: 'buffering proxy', portkey: 'Portkey', gatehouse: 'Gatehouse' }
/** What Gatehouse is compared with: its two floors and its peer. */
export const OTHERS = ['buffered', 'bare', 'portkey'] as const
type Other = (typeof OTHERS)[number]
/** The floor each kind of row is held to (see goals.ts). */
export const FLOORS = { json: 'buffered', stream: 'bare', memory: 'buffered' } as const satisfies Record<string, Other>

export const STREAM_CONNECTIONS = [1, 16]

/** A target's memory in MB (10^6 bytes), from /proc/<pid>/status: VmRSS before any load, VmRSS after the chat and stream load, VmHWM then. */
export interface TargetMemory { idleMb: number; afterLoadMb: number; peakMb: number }

export interface Measurements {
  /** per (target, connections): the median over the rounds (counts summed); empty for a target not measured */
  load: Record<TargetName, LoadResult[]>
  /** per (target, STREAM_CONNECTIONS); empty for a target not measured */
  streams: Record<TargetName, SeqResult[]>
  memory: Record<TargetName, TargetMemory>
  /** each round as measured */
  loadRounds: Array<Record<TargetName, LoadResult[]>>
  streamRounds: Array<Record<TargetName, SeqResult[]>>
  /** targets that were not measured, each with why */
  notRun: Partial<Record<TargetName, string>>
}

/** An earlier project goal, kept: Gatehouse adds ≤ 0.1 ms at p50 alone over its JSON floor. */
const GOAL_P50_DELTA_MS = 0.1

const at = <T extends { connections: number }>(rows: T[], connections: number) => rows.find((r) => r.connections === connections)

export function summarize(m: Measurements, connections: number[]) {
  const byConn = <T>(cs: number[], f: (c: number) => T) => Object.fromEntries(cs.map((c) => [c, f(c)])) as Record<number, T>
  const rps = (t: TargetName, c: number, load = m.load) => at(load[t], c)?.requestsPerSec
  const lat = (t: TargetName, c: number, f: 'p50' | 'p99') => at(m.load[t], c)?.[f]
  const stream = (t: TargetName, c: number): SeqResult | undefined => m.streams[t][STREAM_CONNECTIONS.indexOf(c)]
  const vs = (o: Other) => ({
    /** req/s as a share (%) of the other's */
    throughputPct: byConn(connections, (c) => share(rps('gatehouse', c), rps(o, c))),
    /** latencies as multiples of the other's */
    p50: byConn(connections, (c) => multiple(lat('gatehouse', c, 'p50'), lat(o, c, 'p50'))),
    p99: byConn(connections, (c) => multiple(lat('gatehouse', c, 'p99'), lat(o, c, 'p99'))),
    /** CPU time per request as a multiple of the other's: the code's own cost, steadier than req/s on a shared machine */
    cpuPerRequest: byConn(connections, (c) => multiple(at(m.load.gatehouse, c)?.cpuUsPerRequest, at(m.load[o], c)?.cpuUsPerRequest)),
    ttfbP50: byConn(STREAM_CONNECTIONS, (c) => multiple(stream('gatehouse', c)?.p50, stream(o, c)?.p50)),
    streamsPerSecPct: byConn(STREAM_CONNECTIONS, (c) => share(stream('gatehouse', c)?.perSec, stream(o, c)?.perSec)),
    rss: { idle: multiple(m.memory.gatehouse.idleMb, m.memory[o].idleMb), afterLoad: multiple(m.memory.gatehouse.afterLoadMb, m.memory[o].afterLoadMb), peak: multiple(m.memory.gatehouse.peakMb, m.memory[o].peakMb) },
  })
  const gatehouseVs = Object.fromEntries(OTHERS.map((o) => [o, vs(o)])) as Record<Other, ReturnType<typeof vs>>
  const p50DeltaAt1 = difference(lat('gatehouse', 1, 'p50'), lat(FLOORS.json, 1, 'p50'))
  return {
    rounds: m.loadRounds.length,
    floors: FLOORS,
    /** Gatehouse against each floor and the peer, from the medians */
    gatehouseVs,
    /** Gatehouse's req/s as a share of its JSON floor's, round by round */
    throughputPctPerRound: byConn(connections, (c) => m.loadRounds.map((round) => share(rps('gatehouse', c, round), rps(FLOORS.json, c, round)))),
    /** each floor's req/s as a share of the fake upstream's alone */
    floorsVsDirectThroughputPct: { buffered: byConn(connections, (c) => share(rps('buffered', c), rps('direct', c))), bare: byConn(connections, (c) => share(rps('bare', c), rps('direct', c))) },
    p50DeltaAt1ConnMs: { gatehouseMinusFloor: p50DeltaAt1, floorMinusDirect: difference(lat(FLOORS.json, 1, 'p50'), lat('direct', 1, 'p50')) },
    /** what issue 27's one-core goals are judged on (goals.ts), less the ledger, which is counted after Gatehouse stops */
    oneCore: {
      throughputPct: gatehouseVs[FLOORS.json].throughputPct,
      p99Multiple: gatehouseVs[FLOORS.json].p99,
      ttfbMultiple: gatehouseVs[FLOORS.stream].ttfbP50,
      rssAfterLoadMb: m.memory.gatehouse.afterLoadMb,
    },
    p50At1: { goal: `<= ${LABELS[FLOORS.json]} + ${GOAL_P50_DELTA_MS} ms`, deltaMs: p50DeltaAt1, met: p50DeltaAt1 <= GOAL_P50_DELTA_MS },
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
  // Each row: the targets' values, its floor, then Gatehouse against that floor, the other bare proxy and Portkey.
  const row = (label: string, floor: Other, f: (t: TargetName) => number, fmt: (v: number) => string, compare: (g: number, o: number) => string) => {
    const other: Other = floor === 'buffered' ? 'bare' : 'buffered'
    return [label, ...TARGETS.map((t) => fmt(f(t))), LABELS[floor].replace(' proxy', ''), ...[floor, other, 'portkey' as const].map((o) => compare(f('gatehouse'), f(o)))]
  }
  const rate = (g: number, o: number) => percent(share(g, o))
  const slower = (g: number, o: number) => times(multiple(g, o))
  const load = (t: TargetName, c: number) => at(m.load[t], c)
  const stream = (t: TargetName, i: number): SeqResult | undefined => m.streams[t][i]
  const rows = [
    ...connections.flatMap((c) => [
      row(`chat req/s @${c}`, FLOORS.json, (t) => load(t, c)?.requestsPerSec ?? NaN, (v) => v.toFixed(0), rate),
      row(`chat p50 ms @${c}`, FLOORS.json, (t) => load(t, c)?.p50 ?? NaN, ms, slower),
      row(`chat p99 ms @${c}`, FLOORS.json, (t) => load(t, c)?.p99 ?? NaN, ms, slower),
      row(`chat CPU µs/req @${c}`, FLOORS.json, (t) => load(t, c)?.cpuUsPerRequest ?? NaN, (v) => (Number.isFinite(v) ? v.toFixed(0) : 'n/a'), slower),
    ]),
    ...STREAM_CONNECTIONS.flatMap((c, i) => [
      row(`stream TTFB p50 ms @${c}`, FLOORS.stream, (t) => stream(t, i)?.p50 ?? NaN, ms, slower),
      row(`streams/s @${c}`, FLOORS.stream, (t) => stream(t, i)?.perSec ?? NaN, (v) => v.toFixed(0), rate),
    ]),
    row('RSS idle MB', FLOORS.memory, (t) => m.memory[t].idleMb, mb, slower),
    row('RSS after load MB', FLOORS.memory, (t) => m.memory[t].afterLoadMb, mb, slower),
    row('RSS peak MB', FLOORS.memory, (t) => m.memory[t].peakMb, mb, slower),
  ]
  const head = ['measurement', ...TARGETS.map((t) => LABELS[t]), 'floor', 'GH vs floor', 'vs other proxy', 'vs Portkey']
  console.log(table(`\nChat completions (JSON and streams/s @16: ${generator}; TTFB: sequential on one connection (undici), @16 beside the ${generator} load; ${of})`, head, rows))
  console.log('  GH = Gatehouse. Floors: JSON chat and memory rows are held to the buffering bare proxy (it reads the answer whole and')
  console.log('  sends it in one write, as Gatehouse must to read the usage); stream rows to the streaming one (a stream cannot be buffered).')
  console.log('  req/s and streams/s as a share of the other\'s, latency, CPU and memory as a multiple of it; @N = N connections')
  console.log('  CPU µs/req: the target process\'s user + system time over the measured run (all its threads), per request answered')
  for (const [t, why] of Object.entries(m.notRun)) console.log(`  ${LABELS[t as TargetName]}: not measured: ${why}`)

  const measured = TARGETS.filter((t) => m.notRun[t] === undefined)
  const counts = connections.flatMap((c) => measured.map((t) => {
    const r = at(m.load[t], c)
    return [`${LABELS[t]} @${c}`, String(r?.requests ?? 'n/a'), String(r?.errors ?? 'n/a'), String(r?.non2xx ?? 'n/a')]
  }))
  const streamCounts = STREAM_CONNECTIONS.flatMap((c, i) => measured.map((t) => [`${LABELS[t]} streams @${c}`, String(stream(t, i)?.requests ?? 'n/a'), '', String(stream(t, i)?.failures ?? 'n/a')]))
  console.log(table('\nCounts, totals over the rounds (warm-ups not counted)', ['run', 'requests', 'errors', 'non-2xx / failed'], [...counts, ...streamCounts]))

  const roundHeads = m.loadRounds.map((_, i) => `round ${i + 1}`)
  const spreadRows = connections.map((c) => [
    `@${c} conns`, ...s.throughputPctPerRound[c].map(percent),
    percent(median(s.throughputPctPerRound[c])), percent(s.gatehouseVs[FLOORS.json].throughputPct[c]),
  ])
  console.log(table(`\nGatehouse / ${LABELS[FLOORS.json]} throughput, per round`, ['', ...roundHeads, 'median of rounds', 'of the medians'], spreadRows))
  console.log(`  p50 @1 conn: Gatehouse − ${LABELS[FLOORS.json]} ${signedMs(s.p50DeltaAt1ConnMs.gatehouseMinusFloor)}, ${LABELS[FLOORS.json]} − direct ${signedMs(s.p50DeltaAt1ConnMs.floorMinusDirect)}`)
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

/** Issue 27's one-core goals (goals.ts), then the project's other goals this run measured. */
export function printGoals(oneCore: Goal[], s: Summary, p?: ProtocolSummary, i?: ImagesSummary): void {
  const row = (g: Goal) => console.log(`  ${g.name.padEnd(22)} ${g.goal.padEnd(32)} ${g.value.padStart(16)}  ${g.met ? 'MET' : 'NOT MET'}`)
  console.log('\nIssue 27\'s one-core goals: Gatehouse alone on one core, from the medians (measurements, not assertions)')
  for (const g of oneCore) row(g)
  console.log('Other project goals')
  row({ name: 'p50 @1 conn', goal: s.p50At1.goal, value: signedMs(s.p50At1.deltaMs), met: s.p50At1.met })
  if (p) row({ name: 'Gemini translation', goal: p.goal.goal, value: signedMs(p.goal.deltaMs), met: p.goal.met })
  if (i) row({ name: 'images edit memory', goal: i.goal.goal, value: signedMb(i.goal.growthMb), met: i.goal.met })
}

export function printGrowth(g: Record<string, LoadResult[]>, keyed: Array<{ keys: number; startMs: number; idleRssMb: number }>, promptBytes: number[], rounds: number): void {
  const cell = (id: string, c: number) => at(g[id] ?? [], c)
  const promptRows = promptBytes.flatMap((bytes) => ([FLOORS.json, 'gatehouse'] as const).map((t) => {
    const [one, sixteen] = [cell(`prompt${bytes}.${t}`, 1), cell(`prompt${bytes}.${t}`, 16)]
    return [`${(bytes / 1000).toLocaleString('en')} KB, ${LABELS[t]}`, ms(one?.p50 ?? NaN), (sixteen?.requestsPerSec ?? NaN).toFixed(0), ms(sixteen?.p50 ?? NaN), ms(sixteen?.p99 ?? NaN),
      t === 'gatehouse' ? percent(share(sixteen?.requestsPerSec, cell(`prompt${bytes}.${FLOORS.json}`, 16)?.requestsPerSec)) : '']
  }))
  const of = `median of ${rounds} round${rounds === 1 ? '' : 's'}`
  console.log(table(`\nCost growth with the prompt's size (one user message of that many bytes of text; ${of})`, ['prompt, target', 'p50 ms @1', 'req/s @16', 'p50 ms @16', 'p99 ms @16', 'vs floor @16'], promptRows))
  const base = keyed[0] ? cell(`keys${keyed[0].keys}`, 16)?.requestsPerSec : undefined
  const keyRows = keyed.map((k) => {
    const [one, sixteen] = [cell(`keys${k.keys}`, 1), cell(`keys${k.keys}`, 16)]
    return [`${k.keys.toLocaleString('en')} keys and groups`, ms(one?.p50 ?? NaN), (sixteen?.requestsPerSec ?? NaN).toFixed(0), ms(sixteen?.p50 ?? NaN), ms(sixteen?.p99 ?? NaN), percent(share(sixteen?.requestsPerSec, base)), k.startMs.toFixed(0), mb(k.idleRssMb)]
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
  const us = (v: number | undefined) => (v !== undefined && Number.isFinite(v) ? v.toFixed(0) : 'n/a')
  const rows = TEAM_SERIES.map((s) => [TEAM_LABELS[s], ...TEAM_OPTS.connections.flatMap((c) => {
    const r = at(summary[s], c)
    return [(rps(s, c) ?? NaN).toFixed(0), ms(r?.p99 ?? NaN), us(r?.cpuUsPerRequest), us(r?.databaseCpuUsPerRequest)]
  })])
  const of = `median of ${rounds} round${rounds === 1 ? '' : 's'}`
  console.log(table(`\nTeam mode: chat under load (${of}; ${placement})`, ['store', ...TEAM_OPTS.connections.flatMap((c) => [`req/s @${c}`, `p99 ms @${c}`, `GH µs/req @${c}`, `PG µs/req @${c}`])], rows))
  console.log('  µs/req: CPU time per request answered over the measured run, of the Gatehouse process(es) (GH) and of the PostgreSQL cluster (PG)')
  for (const c of TEAM_OPTS.connections) {
    const pgShare = share(rps('pg1', c), rps('sqlite', c))
    console.log(`  @${c}: PostgreSQL with 1 replica does ${percent(pgShare)} of SQLite's throughput (the shared store costs ${percent(100 - pgShare)}); 2 replicas vs 1: ×${multiple(rps('pg2', c), rps('pg1', c)).toFixed(2)}`)
  }
}
