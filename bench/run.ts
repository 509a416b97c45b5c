// `npm run bench`: the fake upstream, a bare proxy and Gatehouse, each in a child process, measured from here in
// one run. Prints tables and writes bench/results/latest.json; exits non-zero only when a target answered with errors.
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { loadTest, probe, ttfb, type LoadResult, type TtfbResult } from './measure.js'
import { LABELS, printReport, summarize, TARGETS, type Measurements, type TargetName } from './report.js'
import { BENCH_KEY, ROOT, startBareProxy, startFakeUpstream, startGatehouse, stopAll, type Child } from './targets.js'

const CONNECTIONS = [1, 16, 64]
const LOAD = { durationS: 4, warmupS: 1 }
const TTFB = { maxRequests: 300, maxMs: 5_000, warmup: 20 }
// Lets the previous run's sockets close and its garbage be collected before the next one starts.
const SETTLE_MS = 250
const RESULTS_FILE = join(ROOT, 'bench', 'results', 'latest.json')

const log = (line: string) => process.stderr.write(`${line}\n`)

let cleaning: Promise<void> | undefined
const cleanup = () => (cleaning ??= stopAll())
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
  process.on(signal, () => {
    log(`\n${signal}: stopping the targets…`)
    cleanup().finally(() => process.exit(code))
  })
}

function failuresOf(m: Measurements, children: Record<TargetName, Child>): string[] {
  return TARGETS.flatMap((t) => {
    const errors = m.load[t].reduce((n, r) => n + r.errors, 0)
    const non2xx = m.load[t].reduce((n, r) => n + r.non2xx, 0)
    const streams = m.ttfb[t].failures
    if (errors + non2xx + streams === 0) return []
    const stderr = children[t].stderrTail()
    return [`${LABELS[t]}: ${errors} errors, ${non2xx} non-2xx under load, ${streams} failed streams${stderr ? `\n  its stderr:\n${stderr}` : ''}`]
  })
}

async function main(): Promise<number> {
  const startedAt = new Date().toISOString()
  // Other work on this small machine skews the numbers; the load average before starting makes such a run recognisable.
  const loadBefore = loadavg()[0]
  log('starting the fake upstream, the bare proxy and Gatehouse…')
  const fake = await startFakeUpstream()
  const [bare, gatehouse] = await Promise.all([startBareProxy(fake.url), startGatehouse(fake.url)])
  const children: Record<TargetName, Child> = { direct: fake, bare, gatehouse }
  for (const t of TARGETS) {
    const problem = await probe(children[t].url, BENCH_KEY)
    if (problem) throw new Error(`${LABELS[t]} (${children[t].url}) does not answer chat completions: ${problem}`)
  }

  const load: Record<TargetName, LoadResult[]> = { direct: [], bare: [], gatehouse: [] }
  // Targets take turns at each connection count, so that a drift in the machine's load is shared by all three.
  for (const connections of CONNECTIONS) {
    for (const t of TARGETS) {
      log(`  ${LABELS[t]}: ${connections} connections, ${LOAD.warmupS} s warm-up + ${LOAD.durationS} s`)
      load[t].push(await loadTest(children[t].url, BENCH_KEY, connections, LOAD))
      await sleep(SETTLE_MS)
    }
  }
  const streams = {} as Record<TargetName, TtfbResult>
  for (const t of TARGETS) {
    log(`  ${LABELS[t]}: up to ${TTFB.maxRequests} sequential streams or ${TTFB.maxMs / 1000} s`)
    streams[t] = await ttfb(children[t].url, BENCH_KEY, TTFB)
  }

  const m: Measurements = { load, ttfb: streams }
  const summary = summarize(m, CONNECTIONS)
  const cpu = cpus()
  console.log(`Gatehouse benchmark — Node ${process.version}, ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}`)
  console.log(`(the load generator, the target and the fake upstream share these cores; 1-min load average before the run: ${loadBefore.toFixed(2)})`)
  printReport(m, summary, CONNECTIONS)

  const failures = failuresOf(m, children)
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true })
  const report = {
    startedAt,
    finishedAt: new Date().toISOString(),
    machine: { node: process.version, platform: process.platform, cpus: cpu.length, cpuModel: cpu[0]?.model.trim(), loadAverageBefore: loadBefore },
    settings: { connections: CONNECTIONS, load: LOAD, ttfb: TTFB, units: 'requestsPerSec in req/s, latencies in ms' },
    load: m.load,
    ttfb: m.ttfb,
    summary,
    failures,
  }
  writeFileSync(RESULTS_FILE, `${JSON.stringify(report, null, 2)}\n`)
  console.log(`\nresults written to ${RESULTS_FILE}`)

  if (failures.length === 0) return 0
  console.error(`\nFAILED: targets answered with errors:\n${failures.map((f) => `- ${f}`).join('\n')}`)
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
