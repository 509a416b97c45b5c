// `npm run bench:profile`: where Gatehouse's CPU goes under load. Gatehouse runs as the bench runs it (alone on the
// target core, the load generator and the fake upstream on the other), with V8's sampling profiler on (`--cpu-prof`),
// under one load of chat completions; then the profile of the measured seconds (the start and the warm-up left out) is
// printed by source and by function, and kept in bench/results/gatehouse.cpuprofile for a flame graph (Chrome
// DevTools: Performance, "Load profile"; or speedscope). The CPU a request it prints includes the profiler's own cost.
// Environment: PROFILE_LOAD `chat` (JSON answers, the default) or `stream`; PROFILE_CONNECTIONS (16);
// PROFILE_SECONDS (10); PROFILE_INTERVAL_US, the sampling interval (250).
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { placeProcesses } from './cores.js'
import { summarizeProfile, type CpuProfile, type ProfileRow } from './cpu-profile.js'
import { loadTest } from './load.js'
import { chatBody, CHAT_PATH, probe } from './measure.js'
import { readProcCpuMs } from './proc-tree.js'
import { BENCH_KEY, fakeOrigins, OWN_KEYS, ROOT, startFakeUpstream, startGatehouse, stopAll } from './targets.js'

const RESULT = join(ROOT, 'bench', 'results', 'gatehouse.cpuprofile')
const WARMUP_S = 2

function whole(name: string, fallback: number, max: number): number {
  const raw = process.env[name] ?? String(fallback)
  const n = Number(raw)
  if (!Number.isInteger(n) || n < 1 || n > max) throw new Error(`${name} must be a whole number from 1 to ${max}, not ${JSON.stringify(raw)}`)
  return n
}

const load = process.env.PROFILE_LOAD ?? 'chat'
if (load !== 'chat' && load !== 'stream') throw new Error(`PROFILE_LOAD must be "chat" or "stream", not ${JSON.stringify(load)}`)
const connections = whole('PROFILE_CONNECTIONS', 16, 256)
const seconds = whole('PROFILE_SECONDS', 10, 120)
const intervalUs = whole('PROFILE_INTERVAL_US', 250, 100_000)

const log = (line: string) => process.stderr.write(`${line}\n`)
const table = (title: string, rows: ProfileRow[]) => {
  console.log(`\n${title}`)
  for (const r of rows) console.log(`${r.share.toFixed(1).padStart(6)}%  ${r.name}`)
}

const profileDir = mkdtempSync(join(tmpdir(), 'gatehouse-profile-'))
try {
  const placement = placeProcesses()
  log(placement.describe)
  const fakes = fakeOrigins(await startFakeUpstream())
  const spawnedAt = performance.now()
  const gatehouse = await startGatehouse(fakes, placement, OWN_KEYS, ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-interval=${intervalUs}`])
  const problem = await probe(gatehouse.url, BENCH_KEY)
  if (problem) throw new Error(`Gatehouse (${gatehouse.url}) does not answer chat completions: ${problem}`)
  log(`profiling ${load} completions on ${connections} connections: ${WARMUP_S} s warm-up + ${seconds} s measured…`)
  // The samples before the measured load (the start, the probe, the warm-up) are left out of the tables.
  const skipUs = (performance.now() - spawnedAt + WARMUP_S * 1000) * 1000
  const result = await loadTest(`${gatehouse.url}${CHAT_PATH}`, BENCH_KEY, chatBody({ stream: load === 'stream' }), connections, { durationS: seconds, warmupS: WARMUP_S }, {}, { target: () => readProcCpuMs(gatehouse.pid) })
  // The profile is written as the process exits.
  await gatehouse.stop()
  const file = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'))
  if (file === undefined) throw new Error(`Gatehouse wrote no profile to ${profileDir}`)
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true })
  copyFileSync(join(profileDir, file), RESULT)
  const summary = summarizeProfile(JSON.parse(readFileSync(RESULT, 'utf8')) as CpuProfile, { skipUs, top: 30, gatewayFile: 'cli.js' })
  console.log(`${load} completions, ${connections} connections, ${seconds} s: ${result.requestsPerSec.toFixed(0)} req/s, p50 ${result.p50.toFixed(3)} ms, p99 ${result.p99.toFixed(3)} ms, ${result.cpuUsPerRequest.toFixed(0)} µs of CPU a request with the profiler on, ${result.errors + result.non2xx} errors`)
  console.log(`${(summary.countedUs / 1e6).toFixed(2)} s of samples counted, every ${intervalUs} µs`)
  table('by source (gateway: its bundle; other: the libraries it loads from node_modules)', summary.sources)
  table('own time, by function', summary.self)
  table('with what it called, by function', summary.total)
  console.log(`\nthe whole profile: ${RESULT} (a flame graph: Chrome DevTools, Performance, "Load profile"; or speedscope)`)
} finally {
  await stopAll()
  rmSync(profileDir, { recursive: true, force: true })
}
