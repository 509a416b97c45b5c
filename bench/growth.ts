// How Gatehouse's cost grows: with the prompt's size (1 KB, 100 KB, 1 MB of text, against the buffering bare proxy,
// the floor for JSON chat, carrying the same body) and with the number of keys and groups in its config (10 and
// 10,000, each a gateway of its own on the target core, started for this phase and stopped after it). Load at 1 and
// 16 connections, in rounds.
import { readProcMemory } from './proc-memory.js'
import { loadTest, WARMUP_S, type LoadResult } from './load.js'
import { chatBody, CHAT_PATH, medianLoad, rotate } from './measure.js'
import type { Placement } from './cores.js'
import { BENCH_KEY, startGatehouse, type Child, type FakeOrigins, type GatehouseChild } from './targets.js'

export const GROWTH_OPTS = { connections: [1, 16], durationS: 2, warmupS: WARMUP_S, promptBytes: [1_000, 100_000, 1_000_000], keys: [10, 10_000] }
const WORDS = 'the quick brown fox jumps over a lazy dog while seven wizards quietly judge boxing matches '

/** English-like text of exactly `bytes` bytes, so that the gateway's token counting sees words, not one long run. */
function prompt(bytes: number): string {
  return WORDS.repeat(Math.ceil(bytes / WORDS.length)).slice(0, bytes)
}

export type GrowthRound = Record<string, LoadResult[]>

export interface KeysGateway { keys: number; startMs: number; idleRssMb: number; gateway: GatehouseChild }

/** The two gateways of the keys series, started one after the other (time to "listening", idle memory). */
export async function startKeysGateways(fakes: FakeOrigins, placement: Placement, log: (line: string) => void): Promise<KeysGateway[]> {
  const out: KeysGateway[] = []
  for (const keys of GROWTH_OPTS.keys) {
    log(`  starting a Gatehouse with ${keys} keys and groups`)
    const started = performance.now()
    const gateway = await startGatehouse(fakes, placement, keys)
    const startMs = performance.now() - started
    const mem = readProcMemory(gateway.pid)
    out.push({ keys, startMs, idleRssMb: mem ? (mem.vmRssKb * 1024) / 1e6 : NaN, gateway })
  }
  return out
}

/** One round: every series at every connection count, the series in an order rotated by `round`. */
export async function growthRound(round: number, buffered: Child, gatehouse: Child, keyed: KeysGateway[], log: (line: string) => void): Promise<GrowthRound> {
  const series: Array<{ id: string; url: string; body: string }> = [
    ...GROWTH_OPTS.promptBytes.flatMap((bytes) => {
      const body = chatBody({ prompt: prompt(bytes) })
      return [{ id: `prompt${bytes}.buffered`, url: buffered.url, body }, { id: `prompt${bytes}.gatehouse`, url: gatehouse.url, body }]
    }),
    ...keyed.map((k) => ({ id: `keys${k.keys}`, url: k.gateway.url, body: chatBody() })),
  ]
  const result: GrowthRound = {}
  for (const s of rotate(series, round)) {
    result[s.id] = []
    for (const connections of GROWTH_OPTS.connections) {
      log(`  round ${round + 1}, growth ${s.id}: ${connections} connections, ${GROWTH_OPTS.warmupS} s warm-up + ${GROWTH_OPTS.durationS} s`)
      result[s.id].push(await loadTest(`${s.url}${CHAT_PATH}`, BENCH_KEY, s.body, connections, GROWTH_OPTS))
    }
  }
  return result
}

export function summarizeGrowth(rounds: GrowthRound[]): GrowthRound {
  const ids = Object.keys(rounds[0] ?? {})
  return Object.fromEntries(ids.map((id) => [id, GROWTH_OPTS.connections.map((_, i) => medianLoad(rounds.map((r) => r[id][i])))]))
}
