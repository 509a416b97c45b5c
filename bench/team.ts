// Team mode's cost and scaling: Gatehouse on a private PostgreSQL cluster (test/helpers/pg-cluster.ts) with one
// replica and with two, beside Gatehouse on SQLite, under chat load at 16 and 64 connections, in rounds. One replica
// (and the SQLite Gatehouse) alone on the target core; the second replica on the other core; the load generator and
// PostgreSQL unpinned. Two replicas get two load generators, one per replica with half the connections each, summed.
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import { startPgCluster } from '../test/helpers/pg-cluster.js'
import { answeredAt } from './answered.js'
import { REPLICA_CORES, unpinRunner, type Placement } from './cores.js'
import { loadTest, type LoadResult } from './load.js'
import { chatBody, CHAT_PATH, medianLoad, probe, rotate } from './measure.js'
import { BENCH_KEY, gatewayConfig, startReplica, type Child, type FakeOrigins } from './targets.js'

export const TEAM_OPTS = { connections: [16, 64], durationS: 4, warmupS: 1 }
const SETTLE_MS = 250

export const TEAM_SERIES = ['sqlite', 'pg1', 'pg2'] as const
export type TeamSeries = (typeof TEAM_SERIES)[number]
export const TEAM_LABELS: Record<TeamSeries, string> = {
  sqlite: 'Gatehouse on SQLite',
  pg1: 'Gatehouse on PostgreSQL, 1 replica',
  pg2: 'Gatehouse on PostgreSQL, 2 replicas (summed)',
}

export type TeamRound = Record<TeamSeries, LoadResult[]>

export interface TeamRun {
  rounds: TeamRound[]
  /** per series and connection count: the median of the rounds */
  summary: TeamRound
  /** requests answered 2xx without a ledger row in the PostgreSQL databases, if any */
  failures: string[]
}

/** One line for the report: where the team phase's processes ran. */
export function describeTeamPlacement(placement: Placement): string {
  if (!placement.pinned) return placement.describe
  return `the SQLite Gatehouse and the single replica alone on core ${REPLICA_CORES[0]}, the two replicas on cores ${REPLICA_CORES.join(' and ')} (taskset); the fake upstream on core ${REPLICA_CORES[1]} as before; load generator and PostgreSQL unpinned`
}

/** Two runs side by side, one per replica: rates and counts summed, the latencies the worse of the two. */
function summed(a: LoadResult, b: LoadResult, connections: number): LoadResult {
  return {
    connections,
    requestsPerSec: a.requestsPerSec + b.requestsPerSec,
    p50: Math.max(a.p50, b.p50),
    p99: Math.max(a.p99, b.p99),
    requests: a.requests + b.requests,
    errors: a.errors + b.errors,
    non2xx: a.non2xx + b.non2xx,
  }
}

/** Ledger rows with a 2xx status in a team's database, read once its replicas have stopped. */
async function ledgerOk(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const { rows } = await client.query<{ ok: string }>('SELECT COUNT(*) AS ok FROM requests WHERE status BETWEEN 200 AND 299')
    return Number(rows[0].ok)
  } finally {
    await client.end()
  }
}

/** The team phase: the last one of a run, as it unpins the runner (and so the load generator) for good. */
export async function measureTeam(fakes: FakeOrigins, sqlite: Child, placement: Placement, rounds: number, log: (line: string) => void): Promise<TeamRun> {
  unpinRunner(placement)
  log('  team mode: starting a private PostgreSQL cluster and three replicas (one alone, two on one database)…')
  const cluster = await startPgCluster()
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-team-'))
  const replicas: Child[] = []
  try {
    const configFile = join(dir, 'config.json')
    writeFileSync(configFile, JSON.stringify(gatewayConfig(fakes), null, 2))
    const secretKey = randomBytes(32).toString('base64')
    const [alone, shared] = await Promise.all([cluster.createDatabase(), cluster.createDatabase()])
    const start = async (name: string, database: string, core: string) => {
      const replica = await startReplica(name, configFile, database, secretKey, placement, core)
      replicas.push(replica)
      const problem = await probe(replica.url, BENCH_KEY)
      if (problem) throw new Error(`${name} (${replica.url}) does not answer chat completions: ${problem}`)
      return replica
    }
    const one = await start('replica (alone)', alone, REPLICA_CORES[0])
    const two = [await start('replica 1 of 2', shared, REPLICA_CORES[0]), await start('replica 2 of 2', shared, REPLICA_CORES[1])]

    const measure: Record<TeamSeries, (connections: number) => Promise<LoadResult>> = {
      sqlite: (c) => loadTest(`${sqlite.url}${CHAT_PATH}`, BENCH_KEY, chatBody(), c, TEAM_OPTS),
      pg1: (c) => loadTest(`${one.url}${CHAT_PATH}`, BENCH_KEY, chatBody(), c, TEAM_OPTS),
      pg2: async (c) => {
        const [a, b] = await Promise.all(two.map((r) => loadTest(`${r.url}${CHAT_PATH}`, BENCH_KEY, chatBody(), c / 2, TEAM_OPTS)))
        return summed(a, b, c)
      },
    }
    const all: TeamRound[] = []
    for (let round = 0; round < rounds; round++) {
      const results: TeamRound = { sqlite: [], pg1: [], pg2: [] }
      for (const connections of TEAM_OPTS.connections) {
        for (const s of rotate(TEAM_SERIES, round)) {
          log(`  round ${round + 1}/${rounds}, ${TEAM_LABELS[s]}: ${connections} connections, ${TEAM_OPTS.warmupS} s warm-up + ${TEAM_OPTS.durationS} s`)
          results[s].push(await measure[s](connections))
          await sleep(SETTLE_MS)
        }
      }
      all.push(results)
    }

    // Every 2xx answer of a replica has its row in the team's database (read after the replicas stopped).
    await Promise.all(replicas.splice(0).map((r) => r.stop()))
    const failures: string[] = []
    const teams: Array<{ label: string; database: string; members: Child[] }> = [{ label: '1 replica', database: alone, members: [one] }, { label: '2 replicas', database: shared, members: two }]
    for (const { label, database, members } of teams) {
      const answered = members.reduce((n, r) => n + answeredAt(r.url), 0)
      const rows = await ledgerOk(database)
      log(`  team ledger, ${label}: answered 2xx ${answered}, rows with a 2xx status ${rows}`)
      if (rows < answered) failures.push(`team mode, ${label}: ${answered - rows} requests answered 2xx have no ledger row`)
    }
    const summary = Object.fromEntries(TEAM_SERIES.map((s) => [s, TEAM_OPTS.connections.map((_, i) => medianLoad(all.map((r) => r[s][i])))])) as TeamRound
    for (const s of TEAM_SERIES) {
      for (const r of summary[s]) if (r.errors + r.non2xx > 0) failures.push(`${TEAM_LABELS[s]} @${r.connections}: ${r.errors} errors, ${r.non2xx} non-2xx`)
    }
    return { rounds: all, summary, failures }
  } finally {
    await Promise.all(replicas.map((r) => r.stop()))
    await cluster.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}
