// The chat phase: the measured targets started and probed, then JSON chat completions under load at 1, 16 and 64
// connections and streamed ones at 1 and 16, each target in turn (the order rotated every round), and each target's
// memory before and after. Targets: the fake upstream alone (direct), the two bare proxies (the floors: streaming and
// buffering), Portkey's gateway (the peer; measured when it runs here, else the report says why) and Gatehouse.
import { setTimeout as sleep } from 'node:timers/promises'
import type { Placement } from './cores.js'
import { LOAD_GENERATOR, loadTest, WARMUP_S, type LoadResult } from './load.js'
import { chatBody, CHAT_PATH, medianLoad, medianSeq, probe, rotate, streams, type SeqResult } from './measure.js'
import { readProcCpuMs } from './proc-tree.js'
import { readProcMemory } from './proc-memory.js'
import { LABELS, STREAM_CONNECTIONS, TARGETS, type Measurements, type TargetMemory, type TargetName } from './report.js'
import { BENCH_KEY, startBareProxy, startFakeUpstream, startGatehouse, startPortkey, type Child, type FakeOrigins, type GatehouseChild } from './targets.js'

// Five targets in rounds of BENCH_ROUNDS=3: the phases are short enough for the whole run to stay near ten minutes.
export const CHAT_OPTS = {
  connections: [1, 16, 64],
  load: { durationS: 3, warmupS: WARMUP_S },
  streams: { maxRequests: 2_000, maxMs: 2_000, warmup: 20 },
  /** Streams on N > 1 connections: wrk keeps N streaming for the warm-up and `durationS`; one more connection reads TTFB. */
  streamLoad: { durationS: 2, warmupS: WARMUP_S },
}
// Lets the previous run's sockets close and its garbage be collected before the next one starts.
const SETTLE_MS = 250

export type Children = Partial<Record<TargetName, Child>>
type Log = (line: string) => void

export function byTarget<T>(f: (t: TargetName) => T): Record<TargetName, T> {
  return Object.fromEntries(TARGETS.map((t) => [t, f(t)])) as Record<TargetName, T>
}

const measured = (children: Children) => TARGETS.filter((t) => children[t] !== undefined)

/**
 * Every target on the target core, each probed with one JSON and one streamed chat completion. A floor or Gatehouse
 * that does not answer ends the run; the peer that does not start or answer is left out, with why.
 */
export async function startTargets(upstream: string, fakes: FakeOrigins, placement: Placement, log: Log): Promise<{ children: Children; gatehouse: GatehouseChild; notRun: Measurements['notRun'] }> {
  const [direct, bare, buffered, gatehouse] = await Promise.all([
    startFakeUpstream(placement), startBareProxy(upstream, placement, 'streaming'), startBareProxy(upstream, placement, 'buffering'), startGatehouse(fakes, placement),
  ])
  const children: Children = { direct, bare, buffered, gatehouse }
  for (const t of measured(children)) {
    const problem = await probe(children[t]!.url, BENCH_KEY)
    if (problem) throw new Error(`${LABELS[t]} (${children[t]!.url}) does not answer chat completions: ${problem}`)
  }
  const notRun: Measurements['notRun'] = {}
  try {
    const portkey = await startPortkey(upstream, placement)
    const problem = await probe(portkey.url, BENCH_KEY, portkey.requestHeaders)
    if (problem === undefined) children.portkey = portkey
    else {
      notRun.portkey = `${portkey.name} does not answer chat completions: ${problem}${portkey.stderrTail() ? `; its stderr:\n${portkey.stderrTail()}` : ''}`
      await portkey.stop()
    }
  } catch (err) {
    notRun.portkey = (err as Error).message
  }
  if (notRun.portkey) log(`the peer is left out: ${notRun.portkey}`)
  return { children, gatehouse, notRun }
}

/** Each round visits every connection count, and within it the targets, in an order rotated every round. */
async function loadRounds(rounds: number, children: Children, log: Log): Promise<Array<Record<TargetName, LoadResult[]>>> {
  const all: Array<Record<TargetName, LoadResult[]>> = []
  const { load } = CHAT_OPTS
  for (let round = 0; round < rounds; round++) {
    const results = byTarget<LoadResult[]>(() => [])
    for (const connections of CHAT_OPTS.connections) {
      for (const t of rotate(measured(children), round)) {
        const child = children[t]!
        log(`  round ${round + 1}/${rounds}, ${LABELS[t]}: ${connections} connections, ${load.warmupS} s warm-up + ${load.durationS} s`)
        results[t].push(await loadTest(`${child.url}${CHAT_PATH}`, BENCH_KEY, chatBody(), connections, load, child.requestHeaders, { target: () => readProcCpuMs(child.pid) }))
        await sleep(SETTLE_MS)
      }
    }
    all.push(results)
  }
  return all
}

async function streamRounds(rounds: number, children: Children, log: Log): Promise<Array<Record<TargetName, SeqResult[]>>> {
  const all: Array<Record<TargetName, SeqResult[]>> = []
  for (let round = 0; round < rounds; round++) {
    const results = byTarget<SeqResult[]>(() => [])
    for (const connections of STREAM_CONNECTIONS) {
      for (const t of rotate(measured(children), round)) {
        const child = children[t]!
        log(`  round ${round + 1}/${rounds}, ${LABELS[t]}: streams on ${connections} connection${connections === 1 ? '' : `s (${LOAD_GENERATOR.name}) and TTFB on one more`}`)
        results[t].push(connections === 1 ? await streams(child.url, BENCH_KEY, CHAT_OPTS.streams, child.requestHeaders) : await streamsUnderLoad(child, connections))
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
async function streamsUnderLoad(child: Child, connections: number): Promise<SeqResult> {
  const { streamLoad } = CHAT_OPTS
  const [load, ttfb] = await Promise.all([
    loadTest(`${child.url}${CHAT_PATH}`, BENCH_KEY, chatBody({ stream: true }), connections, streamLoad, child.requestHeaders),
    // Starts after the generator's warm-up and ends before its measured run does.
    sleep(streamLoad.warmupS * 1000 + SETTLE_MS).then(() => streams(child.url, BENCH_KEY, { ...CHAT_OPTS.streams, maxMs: streamLoad.durationS * 1000 - 2 * SETTLE_MS }, child.requestHeaders)),
  ])
  return { ...ttfb, requests: ttfb.requests + load.requests, failures: ttfb.failures + load.errors + load.non2xx, perSec: load.requestsPerSec }
}

const mbOfKb = (kb: number | undefined) => (kb === undefined ? NaN : (kb * 1024) / 1e6)

/** The chat phase in `rounds` rounds: medians per target (empty for one not measured), each round, and memory. */
export async function measureChat(rounds: number, children: Children, notRun: Measurements['notRun'], log: Log): Promise<Measurements> {
  const idle = byTarget((t) => readProcMemory(children[t]?.pid))
  const loadByRound = await loadRounds(rounds, children, log)
  const streamsByRound = await streamRounds(rounds, children, log)
  const memory = byTarget<TargetMemory>((t) => {
    const after = readProcMemory(children[t]?.pid)
    return { idleMb: mbOfKb(idle[t]?.vmRssKb), afterLoadMb: mbOfKb(after?.vmRssKb), peakMb: mbOfKb(after?.vmHwmKb) }
  })
  const ran = measured(children)
  return {
    load: byTarget((t) => (ran.includes(t) ? CHAT_OPTS.connections.map((_, i) => medianLoad(loadByRound.map((r) => r[t][i]))) : [])),
    streams: byTarget((t) => (ran.includes(t) ? STREAM_CONNECTIONS.map((_, i) => medianSeq(streamsByRound.map((r) => r[t][i]))) : [])),
    memory,
    loadRounds: loadByRound,
    streamRounds: streamsByRound,
    notRun,
  }
}

/** Targets that answered with errors under load or failed streams, each with its stderr. */
export function chatFailures(m: Measurements, children: Children): string[] {
  return measured(children).flatMap((t) => {
    const errors = m.load[t].reduce((n, r) => n + r.errors, 0)
    const non2xx = m.load[t].reduce((n, r) => n + r.non2xx, 0)
    const failed = m.streams[t].reduce((n, r) => n + r.failures, 0)
    if (errors + non2xx + failed === 0) return []
    const tail = children[t]!.stderrTail()
    return [`${LABELS[t]}: ${errors} errors, ${non2xx} non-2xx under load, ${failed} failed streams${tail ? `\n  its stderr:\n${tail}` : ''}`]
  })
}
