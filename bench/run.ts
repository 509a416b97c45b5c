// `npm run bench`: the fake upstreams, two bare proxies (the floors: one streams every answer back, one buffers JSON
// answers), Portkey's open-source gateway (the peer) and Gatehouse, each in a child process, measured from here in
// one run, in rounds (BENCH_ROUNDS, default 3) whose medians are reported: chat under load at 1, 16 and 64
// connections, streams at 1 and 16, each target's memory (chat.ts), the protocol paths, how the cost grows with the
// prompt and the config, and a 40 MB images edit with Gatehouse's peak memory growth (before the cost growth, as the
// last phase measured after the chat load only). Each target runs alone on one core, the
// load generator and the fakes on the other (cores.ts). Prints tables, Gatehouse's ratios to the floors and the peer
// and issue 27's goals (goals.ts), and writes bench/results/latest.json; exits non-zero when a target, a protocol
// path or an images path answered with errors, or a 2xx answer has no ledger row.
// Last, team mode (team.ts): Gatehouse on PostgreSQL with one replica and with two, beside it on SQLite; run only
// that phase with `BENCH_ONLY=team npm run bench` (results in bench/results/team.json), or only the chat phase, every
// target, with `BENCH_ONLY=chat` (results in bench/results/chat.json).
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import { answeredAt } from './answered.js'
import { CHAT_OPTS, chatFailures, measureChat, startTargets, type Children } from './chat.js'
import { placeProcesses, type Placement } from './cores.js'
import { oneCoreGoals } from './goals.js'
import { GROWTH_OPTS, growthRound, startKeysGateways, summarizeGrowth, type GrowthRound } from './growth.js'
import { IMAGES_OPTS, imageBodies, imageFailures, measureImages, probeImagePath, summarizeImages, type ImagesSummary } from './images.js'
import { LOAD_GENERATOR } from './load.js'
import { probe } from './measure.js'
import { measureProtocols, probeProtocols, PROTOCOL_OPTS, protocolFailures, protocolRequests, summarizeProtocols, type ProtocolRound, type ProtocolSummary } from './protocols.js'
import { FLOORS, LABELS, printGoals, printGrowth, printImages, printLedger, printProtocols, printReport, printTeam, STREAM_CONNECTIONS, summarize, type Measurements, type Summary } from './report.js'
import { BENCH_KEY, endedChildren, fakeOrigins, portkeyPackage, ROOT, startFakeUpstream, startGatehouse, stopAll, type FakeOrigins, type GatehouseChild } from './targets.js'
import { describeTeamPlacement, measureTeam, TEAM_OPTS, type TeamRun } from './team.js'

const RESULTS_DIR = join(ROOT, 'bench', 'results')
/** `BENCH_ONLY=team`: only the team-mode phase (and the SQLite Gatehouse it is compared with), results in team.json. */
const TEAM_RESULTS_FILE = join(RESULTS_DIR, 'team.json')
/** `BENCH_ONLY=chat`: only the chat phase, every target, results in chat.json. */
const CHAT_RESULTS_FILE = join(RESULTS_DIR, 'chat.json')
const RESULTS_FILE = join(RESULTS_DIR, 'latest.json')
const ONLY = ['chat', 'team'] as const
type Only = (typeof ONLY)[number]

function onlyFromEnv(): Only | undefined {
  const raw = process.env.BENCH_ONLY
  if (raw === undefined || raw === '') return undefined
  if (!(ONLY as readonly string[]).includes(raw)) throw new Error(`BENCH_ONLY must be ${ONLY.map((o) => `"${o}"`).join(' or ')} or unset, not ${JSON.stringify(raw)}`)
  return raw as Only
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

function pathFailures(p: ProtocolSummary, i: ImagesSummary, children: Children): string[] {
  const tail = (t: 'direct' | 'gatehouse') => (children[t]?.stderrTail() ? `\n  its stderr:\n${children[t]!.stderrTail()}` : '')
  const paths = protocolFailures(p).map(({ id, text }) => `protocol path ${id}: ${text}${tail(id.includes('Direct') ? 'direct' : 'gatehouse')}`)
  const images = imageFailures(i).map(({ id, text }) => `images path ${id}: ${text}${tail(id === 'imagesDirect' ? 'direct' : 'gatehouse')}`)
  return [...paths, ...images]
}

function growthFailures(g: GrowthRound): string[] {
  return Object.entries(g).flatMap(([id, rows]) => rows.filter((r) => r.errors + r.non2xx > 0).map((r) => `growth ${id} @${r.connections}: ${r.errors} errors, ${r.non2xx} non-2xx`))
}

/** What the run was and where: printed first, and kept in the results file. */
interface RunInfo { startedAt: string; rounds: number; placement: Placement; loadBefore: number[]; loadAfter: number[]; peer: string }

function machine(r: RunInfo) {
  const cpu = cpus()
  return { node: process.version, platform: process.platform, cpus: cpu.length, cpuModel: cpu[0]?.model.trim(), loadAverageBefore: r.loadBefore, loadAverageAfter: r.loadAfter }
}

function printHeader(r: RunInfo): void {
  const cpu = cpus()
  const avg = (l: number[]) => l.map((v) => v.toFixed(2)).join(' ')
  console.log(`Gatehouse benchmark — Node ${process.version}, ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${r.rounds} rounds`)
  console.log(`  ${r.placement.describe}`)
  console.log(`  load generator: ${LOAD_GENERATOR.describe}`)
  console.log(`  floors: the streaming and the buffering bare proxy (bench/bare-proxy.ts); peer: ${r.peer}`)
  console.log(`  load average (1, 5, 15 min) before the run: ${avg(r.loadBefore)}, after: ${avg(r.loadAfter)} (other work on the machine skews the figures)`)
}

function describePeer(m: Measurements): string {
  if (m.notRun.portkey) return `${LABELS.portkey}, not measured (see below)`
  const { version } = portkeyPackage()
  return `${LABELS.portkey} ${version} (@portkey-ai/gateway, its own bin, headless, no Node flags of ours; routed by x-portkey-provider: openai and x-portkey-custom-host)`
}

/** Issue 27's goals and the other project goals, printed, then the ledger check; returns the goals and the ledger's failure, if any. */
function goalsAndLedger(s: Summary, gatehouse: GatehouseChild, p?: ProtocolSummary, i?: ImagesSummary) {
  const answered = answeredAt(gatehouse.url)
  const ledger = gatehouse.ledger()
  const oneCore = oneCoreGoals({ ...s.oneCore, ledger: ledger ? { answered, rows: ledger.ok } : undefined })
  printGoals(oneCore, s, p, i)
  const problem = printLedger(answered, ledger)
  return { goals: { oneCore, p50At1: s.p50At1, ...(p ? { translationUnder1Ms: p.goal } : {}), ...(i ? { imagesPeakGrowthUnder150Mb: i.goal } : {}) }, ledger: { answered2xx: answered, rows: ledger }, problem }
}

const chatSettings = (r: RunInfo) => ({
  rounds: r.rounds, placement: r.placement.describe, generator: LOAD_GENERATOR.describe, floors: FLOORS, ...CHAT_OPTS, streamConnections: STREAM_CONNECTIONS,
  units: 'requestsPerSec in req/s, latencies in ms, memory in MB (10^6 bytes); medians of the rounds, counts summed',
})

function writeResults(file: string, report: object): void {
  mkdirSync(RESULTS_DIR, { recursive: true })
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`)
  console.log(`\nresults written to ${file}`)
}

function exitCodeOf(failures: string[]): number {
  if (failures.length === 0) return 0
  console.error(`\nFAILED:\n${failures.map((f) => `- ${f}`).join('\n')}`)
  return 1
}

async function main(): Promise<number> {
  const startedAt = new Date().toISOString()
  const rounds = roundsFromEnv()
  const only = onlyFromEnv()
  // Other work on this small machine skews the numbers; the load average before starting makes such a run recognisable.
  const loadBefore = loadavg()
  const placement = placeProcesses()
  log(`${placement.describe}; load generator: ${LOAD_GENERATOR.describe}`)
  log('starting the fake upstreams, the bare proxies, Portkey and Gatehouse…')
  const fake = await startFakeUpstream()
  const fakes = fakeOrigins(fake)
  if (only === 'team') return teamOnly(fakes, placement, rounds, startedAt)
  const { children, gatehouse, notRun } = await startTargets(fake.url, fakes, placement, log)
  if (only === 'chat') return chatOnly(children, gatehouse, notRun, { startedAt, rounds, placement, loadBefore })
  const requests = protocolRequests(gatehouse.url, fakes)
  await probeProtocols(requests)
  log('building the images edit body…')
  const images = imageBodies(gatehouse.url, fakes.images)
  // Only the direct path now: a 40 MB edit through Gatehouse before the chat measurements would leave its mark on them
  // and on the memory read before the images phase. The Gatehouse path is probed at the start of that phase.
  await probeImagePath(images.requests, 'imagesDirect')

  const m = await measureChat(rounds, children, notRun, log)

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
    // The prompt series is JSON chat: Gatehouse against its JSON floor, the buffering proxy.
    for (let round = 0; round < rounds; round++) growthByRound.push(await growthRound(round, children[FLOORS.json]!, gatehouse, keyed, log))
  } finally {
    await Promise.all(keyed.map((k) => k.gateway.stop()))
  }

  // The last phase: it unpins the runner, and so every load generator after it.
  const team = await measureTeam(fakes, gatehouse, placement, rounds, log)

  const run: RunInfo = { startedAt, rounds, placement, loadBefore, loadAfter: loadavg(), peer: describePeer(m) }
  await gatehouse.stop()

  const summary = summarize(m, CHAT_OPTS.connections)
  const protocols = summarizeProtocols(protocolByRound)
  const growth = summarizeGrowth(growthByRound)
  const imagesSummary = summarizeImages(imagesRun.rounds, imagesRun.memory, images)
  printHeader(run)
  printReport(m, summary, CHAT_OPTS.connections, LOAD_GENERATOR.name)
  printProtocols(protocols, rounds)
  printGrowth(growth, keyed, GROWTH_OPTS.promptBytes, rounds)
  printImages(imagesSummary, rounds)
  printTeam(team.summary, rounds, describeTeamPlacement(placement))
  const checked = goalsAndLedger(summary, gatehouse, protocols, imagesSummary)

  const failures = [...chatFailures(m, children), ...pathFailures(protocols, imagesSummary, children), ...growthFailures(growth), ...team.failures, ...(checked.problem ? [checked.problem] : [])]
  writeResults(RESULTS_FILE, {
    startedAt,
    finishedAt: new Date().toISOString(),
    machine: machine(run),
    settings: { ...chatSettings(run), peer: run.peer, protocols: PROTOCOL_OPTS, growth: GROWTH_OPTS, images: IMAGES_OPTS },
    load: m.load,
    streams: m.streams,
    memory: m.memory,
    notRun: m.notRun,
    growth: { series: growth, keyedGateways: keyed.map(({ keys, startMs, idleRssMb }) => ({ keys, startMs, idleRssMb })) },
    ledger: checked.ledger,
    rounds: { load: m.loadRounds, streams: m.streamRounds, protocols: protocolByRound, growth: growthByRound, images: imagesRun.rounds },
    protocols: { requests: Object.fromEntries(Object.entries(requests).map(([id, r]) => [id, r.url])), ...protocols },
    images: { requests: Object.fromEntries(Object.entries(images.requests).map(([id, r]) => [id, r.url])), ...imagesSummary },
    team: teamReport(team, placement),
    summary: { ...summary, goals: checked.goals },
    failures,
  })
  return exitCodeOf(failures)
}

/** `BENCH_ONLY=chat`: the chat phase alone, every target; prints its tables, the goals and the ledger check. */
async function chatOnly(children: Children, gatehouse: GatehouseChild, notRun: Measurements['notRun'], started: Omit<RunInfo, 'loadAfter' | 'peer'>): Promise<number> {
  const m = await measureChat(started.rounds, children, notRun, log)
  const run: RunInfo = { ...started, loadAfter: loadavg(), peer: describePeer(m) }
  await gatehouse.stop()
  const summary = summarize(m, CHAT_OPTS.connections)
  printHeader(run)
  printReport(m, summary, CHAT_OPTS.connections, LOAD_GENERATOR.name)
  const checked = goalsAndLedger(summary, gatehouse)
  const failures = [...chatFailures(m, children), ...(checked.problem ? [checked.problem] : [])]
  writeResults(CHAT_RESULTS_FILE, {
    startedAt: run.startedAt,
    finishedAt: new Date().toISOString(),
    machine: machine(run),
    settings: { ...chatSettings(run), peer: run.peer },
    load: m.load,
    streams: m.streams,
    memory: m.memory,
    notRun: m.notRun,
    ledger: checked.ledger,
    rounds: { load: m.loadRounds, streams: m.streamRounds },
    summary: { ...summary, goals: checked.goals },
    failures,
  })
  return exitCodeOf(failures)
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
  writeResults(TEAM_RESULTS_FILE, { startedAt, finishedAt: new Date().toISOString(), rounds, team: teamReport(team, placement), failures: team.failures })
  return exitCodeOf(team.failures)
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
