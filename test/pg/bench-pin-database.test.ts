// The bench's team phase pins a PostgreSQL cluster to a core of its own (bench/team.ts, with 4 cores or more): the
// postmaster and every process it runs, so the backends it starts later inherit the core.
import { readdirSync, readFileSync } from 'node:fs'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pinDatabase } from '../../bench/team.js'
import { startPgCluster } from '../helpers/pg-cluster.js'

let cluster: Awaited<ReturnType<typeof startPgCluster>>
beforeAll(async () => {
  cluster = await startPgCluster()
}, 60_000)
afterAll(() => cluster?.stop())

const coresOf = (pid: number | string): string => /^Cpus_allowed_list:\s*(\S+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]

/** A new connection's backend pid and its parent's (the postmaster). */
async function backend(url: string): Promise<{ pid: number; postmaster: string; cores: string }> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const pid = Number((await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid)
    return { pid, postmaster: /^PPid:\s*(\d+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1], cores: coresOf(pid) }
  } finally {
    await client.end()
  }
}

describe('bench: pinDatabase', () => {
  it('pins the postmaster and its processes to the core, and the backends started later inherit it', async () => {
    const before = await backend(cluster.adminUrl)
    expect(before.cores).not.toBe('0')
    // Several times: the connection it opens to find the postmaster ends as the pinning runs.
    for (let i = 0; i < 5; i++) await pinDatabase(cluster.adminUrl, '0')
    expect(coresOf(before.postmaster)).toBe('0')
    // Its processes already running: the checkpointer, the WAL writer and the others.
    const children = readdirSync('/proc').filter((pid) => {
      try {
        return /^\d+$/.test(pid) && /^PPid:\s*(\d+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] === before.postmaster
      } catch {
        return false
      }
    })
    expect(children.length).toBeGreaterThanOrEqual(3)
    // (one that has ended since, an autovacuum worker, is left out)
    const cores = children.flatMap((pid) => {
      try {
        return [coresOf(pid)]
      } catch {
        return []
      }
    })
    expect(new Set(cores)).toEqual(new Set(['0']))
    const after = await backend(cluster.adminUrl)
    expect(after.postmaster).toBe(before.postmaster)
    expect(after.cores).toBe('0')
  })
})
