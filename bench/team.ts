// Team mode's cost and scaling: Gatehouse on a private PostgreSQL cluster (test/helpers/pg-cluster.ts) with one
// replica and with two, beside Gatehouse on SQLite, under chat load at 16 and 64 connections, in rounds, and the
// latency the shared store adds at 1 connection. Two replicas get two load generators, one per replica with half the
// connections each, summed. With at least 4 cores each replica and PostgreSQL have a core of their own (the load
// generator, the fake upstream and this runner stay on core 0); with fewer, one replica (and the SQLite Gatehouse)
// is alone on the target core, the second replica on the other core, the load generator and PostgreSQL unpinned.
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import { startPgCluster } from '../test/helpers/pg-cluster.js'
import { answeredAt } from './answered.js'
import { REPLICA_CORES, unpinRunner, type Placement } from './cores.js'
import { loadTest, WARMUP_S, type LoadResult } from './load.js'
import { childrenOf, parentOf, readProcCpuMs, readProcFamilyCpuMs } from './proc-tree.js'
import { chatBody, CHAT_PATH, medianLoad, probe, rotate } from './measure.js'
import { BENCH_KEY, gatewayConfig, startReplica, type Child, type FakeOrigins } from './targets.js'

export const TEAM_OPTS = { connections: [16, 64], durationS: 4, warmupS: WARMUP_S }
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
  /** at 1 connection, the median of the rounds: SQLite's and one replica's */
  oneConnection: { sqlite: LoadResult; pg1: LoadResult }
  /** requests answered 2xx without a ledger row in the PostgreSQL databases, if any */
  failures: string[]
}

/** Where the team phase runs its replicas and PostgreSQL. */
interface TeamCores {
  replicas: readonly [string, string]
  /** PostgreSQL's own core, when there are enough; else it runs unpinned */
  database?: string
}

/** Each replica and the database on a core of their own from 4 cores on; else the two cores the runs share. */
function teamCores(placement: Placement): TeamCores {
  if (placement.pinned && availableParallelism() >= 4) return { replicas: ['1', '2'], database: '3' }
  return { replicas: REPLICA_CORES }
}

/** One line for the report: where the team phase's processes ran. */
export function describeTeamPlacement(placement: Placement): string {
  if (!placement.pinned) return placement.describe
  const cores = teamCores(placement)
  if (cores.database !== undefined) {
    return `the SQLite Gatehouse and the single replica alone on core ${cores.replicas[0]}, the two replicas on cores ${cores.replicas.join(' and ')}, PostgreSQL on core ${cores.database} (taskset); load generator, fake upstream and this runner on core 0`
  }
  return `the SQLite Gatehouse and the single replica alone on core ${cores.replicas[0]}, the two replicas on cores ${cores.replicas.join(' and ')} (taskset); the fake upstream on core ${cores.replicas[1]} as before; load generator and PostgreSQL unpinned`
}

/** The cluster's postmaster: the parent of a connection's backend. */
async function postmasterOf(adminUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    // Read while the connection is open: its backend exits when it ends.
    const backend = Number((await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid)
    const postmaster = parentOf(backend)
    if (postmaster === undefined) throw new Error(`no parent process found for PostgreSQL backend ${backend}`)
    return postmaster
  } finally {
    await client.end()
  }
}

/**
 * Pins the cluster to `core`: its postmaster and every process it has started; the backends it starts later inherit
 * the postmaster's core.
 */
export async function pinDatabase(adminUrl: string, core: string): Promise<void> {
  const postmaster = await postmasterOf(adminUrl)
  const children = childrenOf(postmaster)
  execFileSync('/usr/bin/taskset', ['-a', '-p', '-c', core, String(postmaster)], { stdio: 'ignore' })
  for (const pid of children) {
    try {
      execFileSync('/usr/bin/taskset', ['-a', '-p', '-c', core, String(pid)], { stdio: 'ignore' })
    } catch (err) {
      // A backend that ended meanwhile (the connection above's) has nothing left to pin.
      if (existsSync(`/proc/${pid}`)) throw err
    }
  }
}

/** Two runs side by side, one per replica: rates and counts summed, the latencies the worse of the two. */
function summed(a: LoadResult, b: LoadResult, connections: number): LoadResult {
  return {
    connections,
    requestsPerSec: a.requestsPerSec + b.requestsPerSec,
    p50: Math.max(a.p50, b.p50),
    p99: Math.max(a.p99, b.p99),
    cpuUsPerRequest: (a.cpuUsPerRequest * a.requests + b.cpuUsPerRequest * b.requests) / (a.requests + b.requests),
    // Read over `a`'s run only (the two run side by side): the database's time for both replicas' requests.
    databaseCpuUsPerRequest: (a.databaseCpuUsPerRequest * a.requests) / (a.requests + b.requests),
    requests: a.requests + b.requests,
    errors: a.errors + b.errors,
    non2xx: a.non2xx + b.non2xx,
  }
}

/**
 * A team's database, read once its replicas have stopped: its ledger rows with a 2xx status, and the others counted by
 * status and error code (what a non-2xx answer of the load was).
 */
async function ledgerRows(databaseUrl: string): Promise<{ ok: number; others: string[] }> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const ok = await client.query<{ ok: string }>('SELECT COUNT(*) AS ok FROM requests WHERE status BETWEEN 200 AND 299')
    const others = await client.query<{ status: number; error_code: string | null; n: string }>(
      'SELECT status, error_code, COUNT(*) AS n FROM requests WHERE status NOT BETWEEN 200 AND 299 GROUP BY status, error_code ORDER BY status, error_code',
    )
    return { ok: Number(ok.rows[0].ok), others: others.rows.map((r) => `${r.n} × ${r.status} ${r.error_code ?? ''}`.trim()) }
  } finally {
    await client.end()
  }
}

/** The team phase: the last one of a run, as it unpins the runner (and so the load generator) for good. */
export async function measureTeam(fakes: FakeOrigins, sqlite: Child, placement: Placement, rounds: number, log: (line: string) => void): Promise<TeamRun> {
  const cores = teamCores(placement)
  // With a core each, the runner (and so the load generator) stays on core 0; else it may run anywhere.
  if (cores.database === undefined) unpinRunner(placement)
  log('  team mode: starting a private PostgreSQL cluster and three replicas (one alone, two on one database)…')
  const cluster = await startPgCluster()
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-team-'))
  const replicas: Child[] = []
  try {
    const configFile = join(dir, 'config.json')
    writeFileSync(configFile, JSON.stringify(gatewayConfig(fakes), null, 2))
    const secretKey = randomBytes(32).toString('base64')
    if (cores.database !== undefined) await pinDatabase(cluster.adminUrl, cores.database)
    const [alone, shared] = await Promise.all([cluster.createDatabase(), cluster.createDatabase()])
    const start = async (name: string, database: string, core: string) => {
      const replica = await startReplica(name, configFile, database, secretKey, placement, core)
      replicas.push(replica)
      const problem = await probe(replica.url, BENCH_KEY)
      if (problem) throw new Error(`${name} (${replica.url}) does not answer chat completions: ${problem}`)
      return replica
    }
    const one = await start('replica (alone)', alone, cores.replicas[0])
    const two = [await start('replica 1 of 2', shared, cores.replicas[0]), await start('replica 2 of 2', shared, cores.replicas[1])]

    // CPU per request: each Gatehouse's own, and the cluster's (its postmaster and backends) behind the replicas.
    const postmaster = await postmasterOf(cluster.adminUrl)
    const cpuOf = (child: Child) => () => readProcCpuMs(child.pid)
    const clusterCpu = () => readProcFamilyCpuMs(postmaster)
    const measure: Record<TeamSeries, (connections: number) => Promise<LoadResult>> = {
      sqlite: (c) => loadTest(`${sqlite.url}${CHAT_PATH}`, BENCH_KEY, chatBody(), c, TEAM_OPTS, {}, { target: cpuOf(sqlite) }),
      pg1: (c) => loadTest(`${one.url}${CHAT_PATH}`, BENCH_KEY, chatBody(), c, TEAM_OPTS, {}, { target: cpuOf(one), database: clusterCpu }),
      pg2: async (c) => {
        const [a, b] = await Promise.all(two.map((r, i) => loadTest(`${r.url}${CHAT_PATH}`, BENCH_KEY, chatBody(), c / 2, TEAM_OPTS, {}, { target: cpuOf(r), ...(i === 0 ? { database: clusterCpu } : {}) })))
        return summed(a, b, c)
      },
    }
    const all: TeamRound[] = []
    const single: Array<{ sqlite: LoadResult; pg1: LoadResult }> = []
    for (let round = 0; round < rounds; round++) {
      // The latency the shared store adds to one request at a time.
      log(`  round ${round + 1}/${rounds}, ${TEAM_LABELS.sqlite} and ${TEAM_LABELS.pg1}: 1 connection, ${TEAM_OPTS.warmupS} s warm-up + ${TEAM_OPTS.durationS} s each`)
      const sqliteAlone = await measure.sqlite(1)
      await sleep(SETTLE_MS)
      single.push({ sqlite: sqliteAlone, pg1: await measure.pg1(1) })
      await sleep(SETTLE_MS)
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
      const { ok: rows, others } = await ledgerRows(database)
      log(`  team ledger, ${label}: answered 2xx ${answered}, rows with a 2xx status ${rows}${others.length > 0 ? `; other rows: ${others.join(', ')}` : ''}`)
      if (rows < answered) failures.push(`team mode, ${label}: ${answered - rows} requests answered 2xx have no ledger row`)
    }
    const summary = Object.fromEntries(TEAM_SERIES.map((s) => [s, TEAM_OPTS.connections.map((_, i) => medianLoad(all.map((r) => r[s][i])))])) as TeamRound
    const oneConnection = { sqlite: medianLoad(single.map((r) => r.sqlite)), pg1: medianLoad(single.map((r) => r.pg1)) }
    for (const s of TEAM_SERIES) {
      for (const r of summary[s]) if (r.errors + r.non2xx > 0) failures.push(`${TEAM_LABELS[s]} @${r.connections}: ${r.errors} errors, ${r.non2xx} non-2xx`)
    }
    for (const s of ['sqlite', 'pg1'] as const) {
      const r = oneConnection[s]
      if (r.errors + r.non2xx > 0) failures.push(`${TEAM_LABELS[s]} @1: ${r.errors} errors, ${r.non2xx} non-2xx`)
    }
    const added = oneConnection.pg1.p50 - oneConnection.sqlite.p50
    log(`  @1: p50 ${oneConnection.sqlite.p50.toFixed(3)} ms on SQLite, ${oneConnection.pg1.p50.toFixed(3)} ms on PostgreSQL with 1 replica: the shared store adds ${added.toFixed(3)} ms`)
    log(`  @1: CPU per request ${oneConnection.sqlite.cpuUsPerRequest.toFixed(0)} µs on SQLite; ${oneConnection.pg1.cpuUsPerRequest.toFixed(0)} µs in the replica and ${oneConnection.pg1.databaseCpuUsPerRequest.toFixed(0)} µs in PostgreSQL`)
    return { rounds: all, summary, oneConnection, failures }
  } finally {
    await Promise.all(replicas.map((r) => r.stop()))
    await cluster.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}
