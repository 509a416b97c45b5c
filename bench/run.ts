// `npm run bench`: the fake upstreams, a bare proxy and Gatehouse, each in a child process, measured from here in
// one run, in rounds (BENCH_ROUNDS, default 3) whose medians are reported: chat under load at 1, 16 and 64
// connections, streams at 1 and 16, each target's memory, the protocol paths, how the cost grows with the prompt and
// the config, and a 40 MB images edit with Gatehouse's peak memory growth (before the cost growth, as the
// last phase measured after the chat load only). Each target runs alone on one core, the
// load generator and the fakes on the other (cores.ts). Prints tables and writes bench/results/latest.json; exits
// non-zero when a target, a protocol path or an images path answered with errors, or a 2xx answer has no ledger row.
// Last, team mode (team.ts): Gatehouse on PostgreSQL with one replica and with two, beside it on SQLite; run only
// that phase with `BENCH_ONLY=team npm run bench` (results in bench/results/team.json).
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { answeredAt } from './answered.js'
import { placeProcesses, type Placement } from './cores.js'
import { GROWTH_OPTS, growthRound, startKeysGateways, summarizeGrowth, type GrowthRound } from './growth.js'
import { IMAGES_OPTS, imageBodies, imageFailures, measureImages, probeImagePath, summarizeImages, type ImagesSummary } from './images.js'
import { LOAD_GENERATOR, loadTest, type LoadResult } from './load.js'
import { chatBody, CHAT_PATH, medianLoad, medianSeq, probe, rotate, streams, type SeqResult } from './measure.js'
import { readProcMemory } from './proc-memory.js'
import { measureProtocols, probeProtocols, PROTOCOL_OPTS, protocolFailures, protocolRequests, summarizeProtocols, type ProtocolRound, type ProtocolSummary } from './protocols.js'
import { LABELS, printGoals, printGrowth, printImages, printLedger, printProtocols, printReport, printTeam, STREAM_CONNECTIONS, summarize, TARGETS, type Measurements, type TargetMemory, type TargetName } from './report.js'
import { BENCH_KEY, endedChildren, fakeOrigins, ROOT, startBareProxy, startFakeUpstream, startGatehouse, stopAll, type Child, type FakeOrigins } from './targets.js'
import { describeTeamPlacement, measureTeam, TEAM_OPTS, type TeamRun } from './team.js'

const CONNECTIONS = [1, 16, 64]
const LOAD = { durationS: 4, warmupS: 1 }
const STREAMS = { maxRequests: 2_000, maxMs: 3_000, warmup: 20 }
/** Streams on N > 1 connections: wrk keeps N streaming for the warm-up and `durationS`; one more connection reads TTFB. */
const STREAM_LOAD = { durationS: 3, warmupS: 1 }
// Lets the previous run's sockets close and its garbage be collected before the next one starts.
const SETTLE_MS = 250
const RESULTS_FILE = join(ROOT, 'bench', 'results', 'latest.json')
/** `BENCH_ONLY=team`: only the team-mode phase (and the SQLite Gatehouse it is compared with), results in team.json. */
const TEAM_RESULTS_FILE = join(ROOT, 'bench', 'results', 'team.json')

function onlyFromEnv(): 'team' | undefined {
  const raw = process.env.BENCH_ONLY
  if (raw === undefined || raw === '') return undefined
  if (raw !== 'team') throw new Error(`BENCH_ONLY must be "team" or unset, not ${JSON.stringify(raw)}`)
  return raw
}

function roundsFromEnv(): number {
  const raw = process.env.BENCH_ROUNDS ?? '3'
  const n = Number(raw)
  if (!Number.isInteger(n) || n < 1 || n > 20) throw new Error(`BENCH_ROUNDS must be a whole number from 1 to 20, not ${JSON.stringify(raw)}`)
  return n
}

const log = (line: string) => process.stderr.write(`${line}\n`)

let cleaning: Promise<void> | undefined
const cleanup = () => (cleaning ??= stopAll())
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
  process.on(signal, () => {
    log(`\n${signal}: stopping the targets…`)
    cleanup().finally(() => process.exit(code))
  })
}

function failuresOf(m: Measurements, p: ProtocolSummary, i: ImagesSummary, children: Record<TargetName, Child>): string[] {
  const tail = (c: Child) => (c.stderrTail() ? `\n  its stderr:\n${c.stderrTail()}` : '')
  const targets = TARGETS.flatMap((t) => {
    const errors = m.load[t].reduce((n, r) => n + r.errors, 0)
    const non2xx = m.load[t].reduce((n, r) => n + r.non2xx, 0)
    const failed = m.streams[t].reduce((n, r) => n + r.failures, 0)
    if (errors + non2xx + failed === 0) return []
    return [`${LABELS[t]}: ${errors} errors, ${non2xx} non-2xx under load, ${failed} failed streams${tail(children[t])}`]
  })
  const paths = protocolFailures(p).map(({ id, text }) => `protocol path ${id}: ${text}${tail(id.includes('Direct') ? children.direct : children.gatehouse)}`)
  const images = imageFailures(i).map(({ id, text }) => `images path ${id}: ${text}${tail(id === 'imagesDirect' ? children.direct : children.gatehouse)}`)
  return [...targets, ...paths, ...images]
}

function growthFailures(g: GrowthRound): string[] {
  return Object.entries(g).flatMap(([id, rows]) => rows.filter((r) => r.errors + r.non2xx > 0).map((r) => `growth ${id} @${r.connections}: ${r.errors} errors, ${r.non2xx} non-2xx`))
}

/** Each round visits every connection count, and within it the three targets, in an order rotated every round. */
async function loadRounds(rounds: number, children: Record<TargetName, Child>): Promise<Array<Record<TargetName, LoadResult[]>>> {
  const all: Array<Record<TargetName, LoadResult[]>> = []
  for (let round = 0; round < rounds; round++) {
    const results: Record<TargetName, LoadResult[]> = { direct: [], bare: [], gatehouse: [] }
    for (const connections of CONNECTIONS) {
      for (const t of rotate(TARGETS, round)) {
        log(`  round ${round + 1}/${rounds}, ${LABELS[t]}: ${connections} connections, ${LOAD.warmupS} s warm-up + ${LOAD.durationS} s`)
        results[t].push(await loadTest(`${children[t].url}${CHAT_PATH}`, BENCH_KEY, chatBody(), connections, LOAD))
        await sleep(SETTLE_MS)
      }
    }
    all.push(results)
  }
  return all
}

async function streamRounds(rounds: number, children: Record<TargetName, Child>): Promise<Array<Record<TargetName, SeqResult[]>>> {
  const all: Array<Record<TargetName, SeqResult[]>> = []
  for (let round = 0; round < rounds; round++) {
    const results: Record<TargetName, SeqResult[]> = { direct: [], bare: [], gatehouse: [] }
    for (const connections of STREAM_CONNECTIONS) {
      for (const t of rotate(TARGETS, round)) {
        log(`  round ${round + 1}/${rounds}, ${LABELS[t]}: streams on ${connections} connection${connections === 1 ? '' : `s (${LOAD_GENERATOR.name}) and TTFB on one more`}`)
        results[t].push(connections === 1 ? await streams(children[t].url, BENCH_KEY, STREAMS) : await streamsUnderLoad(children[t].url, connections))
        await sleep(SETTLE_MS)
      }
    }
    all.push(results)
  }
  return all
}

/**
 * Streams at `connections`: the rate from the load generator (the runner's own client would set the pace), the time
 * to first byte from one extra sequential connection while they run, so that it is the target's latency under that
 * load and not the client's queueing.
 */
async function streamsUnderLoad(origin: string, connections: number): Promise<SeqResult> {
  const [load, ttfb] = await Promise.all([
    loadTest(`${origin}${CHAT_PATH}`, BENCH_KEY, chatBody({ stream: true }), connections, STREAM_LOAD),
    // Starts after the generator's warm-up and ends before its measured run does.
    sleep(STREAM_LOAD.warmupS * 1000 + SETTLE_MS).then(() => streams(origin, BENCH_KEY, { ...STREAMS, maxMs: STREAM_LOAD.durationS * 1000 - 2 * SETTLE_MS })),
  ])
  return { ...ttfb, requests: ttfb.requests + load.requests, failures: ttfb.failures + load.errors + load.non2xx, perSec: load.requestsPerSec }
}

const mbOfKb = (kb: number | undefined) => (kb === undefined ? NaN : (kb * 1024) / 1e6)

async function main(): Promise<number> {
  const startedAt = new Date().toISOString()
  const rounds = roundsFromEnv()
  const only = onlyFromEnv()
  // Other work on this small machine skews the numbers; the load average before starting makes such a run recognisable.
  const loadBefore = loadavg()
  const placement = placeProcesses()
  log(`${placement.describe}; load generator: ${LOAD_GENERATOR.describe}`)
  log('starting the fake upstreams, the bare proxy and Gatehouse…')
  const fake = await startFakeUpstream()
  const fakes = fakeOrigins(fake)
  if (only === 'team') return teamOnly(fakes, placement, rounds, startedAt)
  const [direct, bare, gatehouse] = await Promise.all([startFakeUpstream(placement), startBareProxy(fake.url, placement), startGatehouse(fakes, placement)])
  const children: Record<TargetName, Child> = { direct, bare, gatehouse }
  for (const t of TARGETS) {
    const problem = await probe(children[t].url, BENCH_KEY)
    if (problem) throw new Error(`${LABELS[t]} (${children[t].url}) does not answer chat completions: ${problem}`)
  }
  const requests = protocolRequests(gatehouse.url, fakes)
  await probeProtocols(requests)
  log('building the images edit body…')
  const images = imageBodies(gatehouse.url, fakes.images)
  // Only the direct path now: a 40 MB edit through Gatehouse before the chat measurements would leave its mark on them
  // and on the memory read before the images phase. The Gatehouse path is probed at the start of that phase.
  await probeImagePath(images.requests, 'imagesDirect')

  const idle = Object.fromEntries(TARGETS.map((t) => [t, readProcMemory(children[t].pid)]))
  const loadByRound = await loadRounds(rounds, children)
  const streamsByRound = await streamRounds(rounds, children)
  const memory = Object.fromEntries(TARGETS.map((t) => {
    const after = readProcMemory(children[t].pid)
    return [t, { idleMb: mbOfKb(idle[t]?.vmRssKb), afterLoadMb: mbOfKb(after?.vmRssKb), peakMb: mbOfKb(after?.vmHwmKb) }]
  })) as Record<TargetName, TargetMemory>

  const protocolByRound: ProtocolRound[] = []
  for (let round = 0; round < rounds; round++) {
    log(`  round ${round + 1}/${rounds} of the protocol paths`)
    protocolByRound.push(await measureProtocols(requests, round, log))
  }

  log(`  images edits of ${(images.bodyBytes.imagesGatehouse / 1e6).toFixed(1)} MB, after the chat measurements (Gatehouse pid ${gatehouse.pid ?? '?'})`)
  const imagesRun = await measureImages(images.requests, gatehouse.pid, rounds, log)
  // After the images phase, so that the 1 MB prompts leave no mark on the memory read before it.
  const keyed = await startKeysGateways(fakes, placement, log)
  const growthByRound: GrowthRound[] = []
  try {
    for (let round = 0; round < rounds; round++) growthByRound.push(await growthRound(round, bare, gatehouse, keyed, log))
  } finally {
    await Promise.all(keyed.map((k) => k.gateway.stop()))
  }

  // The last phase: it unpins the runner, and so every load generator after it.
  const team = await measureTeam(fakes, gatehouse, placement, rounds, log)

  const loadAfter = loadavg()
  await gatehouse.stop()
  const answered = answeredAt(gatehouse.url)

  const m: Measurements = {
    load: Object.fromEntries(TARGETS.map((t) => [t, CONNECTIONS.map((_, i) => medianLoad(loadByRound.map((r) => r[t][i])))])) as Record<TargetName, LoadResult[]>,
    streams: Object.fromEntries(TARGETS.map((t) => [t, STREAM_CONNECTIONS.map((_, i) => medianSeq(streamsByRound.map((r) => r[t][i])))])) as Record<TargetName, SeqResult[]>,
    memory,
    loadRounds: loadByRound,
    streamRounds: streamsByRound,
  }
  const summary = summarize(m, CONNECTIONS)
  const protocols = summarizeProtocols(protocolByRound)
  const growth = summarizeGrowth(growthByRound)
  const imagesSummary = summarizeImages(imagesRun.rounds, imagesRun.memory, images)
  const cpu = cpus()
  const avg = (l: number[]) => l.map((v) => v.toFixed(2)).join(' ')
  console.log(`Gatehouse benchmark — Node ${process.version}, ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${rounds} rounds`)
  console.log(`  ${placement.describe}`)
  console.log(`  load generator: ${LOAD_GENERATOR.describe}`)
  console.log(`  load average (1, 5, 15 min) before the run: ${avg(loadBefore)}, after: ${avg(loadAfter)} (other work on the machine skews the figures)`)
  printReport(m, summary, CONNECTIONS, LOAD_GENERATOR.name)
  printProtocols(protocols, rounds)
  printGrowth(growth, keyed, GROWTH_OPTS.promptBytes, rounds)
  printImages(imagesSummary, rounds)
  printTeam(team.summary, rounds, describeTeamPlacement(placement))
  printGoals(summary, protocols, imagesSummary)
  const ledgerProblem = printLedger(answered, gatehouse.ledger())

  const failures = [...failuresOf(m, protocols, imagesSummary, children), ...growthFailures(growth), ...team.failures, ...(ledgerProblem ? [ledgerProblem] : [])]
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true })
  const report = {
    startedAt,
    finishedAt: new Date().toISOString(),
    machine: { node: process.version, platform: process.platform, cpus: cpu.length, cpuModel: cpu[0]?.model.trim(), loadAverageBefore: loadBefore, loadAverageAfter: loadAfter },
    settings: { rounds, placement: placement.describe, generator: LOAD_GENERATOR.describe, connections: CONNECTIONS, streamConnections: STREAM_CONNECTIONS, load: LOAD, streams: STREAMS, protocols: PROTOCOL_OPTS, growth: GROWTH_OPTS, images: IMAGES_OPTS, units: 'requestsPerSec in req/s, latencies in ms, memory in MB (10^6 bytes); medians of the rounds, counts summed' },
    load: m.load,
    streams: m.streams,
    memory: m.memory,
    growth: { series: growth, keyedGateways: keyed.map(({ keys, startMs, idleRssMb }) => ({ keys, startMs, idleRssMb })) },
    ledger: { answered2xx: answered, rows: gatehouse.ledger() },
    rounds: { load: m.loadRounds, streams: m.streamRounds, protocols: protocolByRound, growth: growthByRound, images: imagesRun.rounds },
    protocols: { requests: Object.fromEntries(Object.entries(requests).map(([id, r]) => [id, r.url])), ...protocols },
    images: { requests: Object.fromEntries(Object.entries(images.requests).map(([id, r]) => [id, r.url])), ...imagesSummary },
    team: teamReport(team, placement),
    summary: { ...summary, goals: { ...summary.goals, translationUnder1Ms: protocols.goal, imagesPeakGrowthUnder150Mb: imagesSummary.goal } },
    failures,
  }
  writeFileSync(RESULTS_FILE, `${JSON.stringify(report, null, 2)}\n`)
  console.log(`\nresults written to ${RESULTS_FILE}`)

  if (failures.length === 0) return 0
  console.error(`\nFAILED:\n${failures.map((f) => `- ${f}`).join('\n')}`)
  return 1
}

function teamReport(team: TeamRun, placement: Placement) {
  return { settings: { ...TEAM_OPTS, placement: describeTeamPlacement(placement), twoReplicas: 'one load generator per replica with half the connections, rates summed' }, summary: team.summary, rounds: team.rounds }
}

/** `BENCH_ONLY=team`: the SQLite Gatehouse placed as in a full run, then the team phase; prints its table only. */
async function teamOnly(fakes: FakeOrigins, placement: Placement, rounds: number, startedAt: string): Promise<number> {
  const gatehouse = await startGatehouse(fakes, placement)
  const problem = await probe(gatehouse.url, BENCH_KEY)
  if (problem) throw new Error(`${LABELS.gatehouse} (${gatehouse.url}) does not answer chat completions: ${problem}`)
  const team = await measureTeam(fakes, gatehouse, placement, rounds, log)
  await gatehouse.stop()
  console.log(`Gatehouse team-mode benchmark — Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${rounds} rounds`)
  printTeam(team.summary, rounds, describeTeamPlacement(placement))
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true })
  writeFileSync(TEAM_RESULTS_FILE, `${JSON.stringify({ startedAt, finishedAt: new Date().toISOString(), rounds, team: teamReport(team, placement), failures: team.failures }, null, 2)}\n`)
  console.log(`\nresults written to ${TEAM_RESULTS_FILE}`)
  if (team.failures.length === 0) return 0
  console.error(`\nFAILED:\n${team.failures.map((f) => `- ${f}`).join('\n')}`)
  return 1
}

let exitCode = 1
try {
  exitCode = await main()
} catch (err) {
  console.error(`bench failed: ${(err as Error).message}`)
  for (const line of endedChildren()) console.error(line)
} finally {
  await cleanup()
}
process.exit(exitCode)
