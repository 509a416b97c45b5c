// `npm run bench`: the fake upstreams, a bare proxy and Gatehouse, each in a child process, measured from here in
// one run, in rounds (BENCH_ROUNDS, default 3) whose medians are reported: chat under load, streams, the protocol
// paths, and last a 40 MB images edit with Gatehouse's peak memory growth. Prints tables and writes
// bench/results/latest.json; exits non-zero only when a target, a protocol path or an images path answered with errors.
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { IMAGES_OPTS, imageBodies, imageFailures, measureImages, probeImagePath, summarizeImages, type ImagesSummary } from './images.js'
import { loadTest, medianLoad, medianSeq, probe, rotate, ttfb, type LoadResult, type SeqResult } from './measure.js'
import { measureProtocols, probeProtocols, PROTOCOL_OPTS, protocolFailures, protocolRequests, summarizeProtocols, type ProtocolRound, type ProtocolSummary } from './protocols.js'
import { LABELS, printGoals, printImages, printProtocols, printReport, summarize, TARGETS, type Measurements, type TargetName } from './report.js'
import { BENCH_KEY, fakeOrigins, ROOT, startBareProxy, startFakeUpstream, startGatehouse, stopAll, type Child } from './targets.js'

const CONNECTIONS = [1, 16, 64]
const LOAD = { durationS: 3, warmupS: 1 }
const TTFB = { maxRequests: 200, maxMs: 3_000, warmup: 20 }
// Lets the previous run's sockets close and its garbage be collected before the next one starts.
const SETTLE_MS = 250
const RESULTS_FILE = join(ROOT, 'bench', 'results', 'latest.json')

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
    const streams = m.ttfb[t].failures
    if (errors + non2xx + streams === 0) return []
    return [`${LABELS[t]}: ${errors} errors, ${non2xx} non-2xx under load, ${streams} failed streams${tail(children[t])}`]
  })
  const paths = protocolFailures(p).map(({ id, text }) => `protocol path ${id}: ${text}${tail(id.includes('Direct') ? children.direct : children.gatehouse)}`)
  const images = imageFailures(i).map(({ id, text }) => `images path ${id}: ${text}${tail(id === 'imagesDirect' ? children.direct : children.gatehouse)}`)
  return [...targets, ...paths, ...images]
}

/** Each round visits every connection count, and within it the three targets, in an order rotated every round. */
async function loadRounds(rounds: number, children: Record<TargetName, Child>): Promise<Array<Record<TargetName, LoadResult[]>>> {
  const all: Array<Record<TargetName, LoadResult[]>> = []
  for (let round = 0; round < rounds; round++) {
    const results: Record<TargetName, LoadResult[]> = { direct: [], bare: [], gatehouse: [] }
    for (const connections of CONNECTIONS) {
      for (const t of rotate(TARGETS, round)) {
        log(`  round ${round + 1}/${rounds}, ${LABELS[t]}: ${connections} connections, ${LOAD.warmupS} s warm-up + ${LOAD.durationS} s`)
        results[t].push(await loadTest(children[t].url, BENCH_KEY, connections, LOAD))
        await sleep(SETTLE_MS)
      }
    }
    all.push(results)
  }
  return all
}

async function ttfbRounds(rounds: number, children: Record<TargetName, Child>): Promise<Array<Record<TargetName, SeqResult>>> {
  const all: Array<Record<TargetName, SeqResult>> = []
  for (let round = 0; round < rounds; round++) {
    const results = {} as Record<TargetName, SeqResult>
    for (const t of rotate(TARGETS, round)) {
      log(`  round ${round + 1}/${rounds}, ${LABELS[t]}: up to ${TTFB.maxRequests} sequential streams or ${TTFB.maxMs / 1000} s`)
      results[t] = await ttfb(children[t].url, BENCH_KEY, TTFB)
    }
    all.push(results)
  }
  return all
}

async function main(): Promise<number> {
  const startedAt = new Date().toISOString()
  const rounds = roundsFromEnv()
  // Other work on this small machine skews the numbers; the load average before starting makes such a run recognisable.
  const loadBefore = loadavg()[0]
  log('starting the fake upstreams, the bare proxy and Gatehouse…')
  const fake = await startFakeUpstream()
  const fakes = fakeOrigins(fake)
  const [bare, gatehouse] = await Promise.all([startBareProxy(fake.url), startGatehouse(fakes)])
  const children: Record<TargetName, Child> = { direct: fake, bare, gatehouse }
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

  const loadByRound = await loadRounds(rounds, children)
  const ttfbByRound = await ttfbRounds(rounds, children)
  const protocolByRound: ProtocolRound[] = []
  for (let round = 0; round < rounds; round++) {
    log(`  round ${round + 1}/${rounds} of the protocol paths`)
    protocolByRound.push(await measureProtocols(requests, round, log))
  }
  log(`  images edits of ${(images.bodyBytes.imagesGatehouse / 1e6).toFixed(1)} MB, after the chat measurements (Gatehouse pid ${gatehouse.pid ?? '?'})`)
  const imagesRun = await measureImages(images.requests, gatehouse.pid, rounds, log)

  const m: Measurements = {
    load: Object.fromEntries(TARGETS.map((t) => [t, CONNECTIONS.map((_, i) => medianLoad(loadByRound.map((r) => r[t][i])))])) as Record<TargetName, LoadResult[]>,
    ttfb: Object.fromEntries(TARGETS.map((t) => [t, medianSeq(ttfbByRound.map((r) => r[t]))])) as Record<TargetName, SeqResult>,
    loadRounds: loadByRound,
    ttfbRounds: ttfbByRound,
  }
  const summary = summarize(m, CONNECTIONS)
  const protocols = summarizeProtocols(protocolByRound)
  const imagesSummary = summarizeImages(imagesRun.rounds, imagesRun.memory, images)
  const cpu = cpus()
  console.log(`Gatehouse benchmark — Node ${process.version}, ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${rounds} rounds`)
  console.log(`(the load generator, the target and the fake upstream share these cores; 1-min load average before the run: ${loadBefore.toFixed(2)}, after: ${loadavg()[0].toFixed(2)})`)
  printReport(m, summary, CONNECTIONS)
  printProtocols(protocols, rounds)
  printImages(imagesSummary, rounds)
  printGoals(summary, protocols, imagesSummary)

  const failures = failuresOf(m, protocols, imagesSummary, children)
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true })
  const report = {
    startedAt,
    finishedAt: new Date().toISOString(),
    machine: { node: process.version, platform: process.platform, cpus: cpu.length, cpuModel: cpu[0]?.model.trim(), loadAverageBefore: loadBefore, loadAverageAfter: loadavg()[0] },
    settings: { rounds, connections: CONNECTIONS, load: LOAD, ttfb: TTFB, protocols: PROTOCOL_OPTS, images: IMAGES_OPTS, units: 'requestsPerSec in req/s, latencies in ms; load/ttfb are medians of the rounds, counts summed' },
    load: m.load,
    ttfb: m.ttfb,
    rounds: { load: m.loadRounds, ttfb: m.ttfbRounds, protocols: protocolByRound, images: imagesRun.rounds },
    protocols: { requests: Object.fromEntries(Object.entries(requests).map(([id, r]) => [id, r.url])), ...protocols },
    images: { requests: Object.fromEntries(Object.entries(images.requests).map(([id, r]) => [id, r.url])), ...imagesSummary },
    summary: { ...summary, goals: { ...summary.goals, translationUnder1Ms: protocols.goal, imagesPeakGrowthUnder150Mb: imagesSummary.goal } },
    failures,
  }
  writeFileSync(RESULTS_FILE, `${JSON.stringify(report, null, 2)}\n`)
  console.log(`\nresults written to ${RESULTS_FILE}`)

  if (failures.length === 0) return 0
  console.error(`\nFAILED: targets, protocol paths or images paths answered with errors:\n${failures.map((f) => `- ${f}`).join('\n')}`)
  return 1
}

let exitCode = 1
try {
  exitCode = await main()
} catch (err) {
  console.error(`bench failed: ${(err as Error).message}`)
} finally {
  await cleanup()
}
process.exit(exitCode)
