import type pg from 'pg'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { renewLeases } from '../../electron/gateway/store/pg-leases.js'
import { migratePg } from '../../electron/gateway/store/pg-schema.js'
import { createPgPool, pgSql } from '../../electron/gateway/store/pg-sql.js'
import type { Sql } from '../../electron/gateway/store/sql.js'
import { tasksRepo, type TaskRow } from '../../electron/gateway/store/tasks.js'
import { freshDatabase } from '../helpers/pg-database.js'

// Team mode's video claims on PostgreSQL: a claim names its replica, and the sweep (resumeOrphaned) hands back only
// the claims of replicas no longer seen. Replicas are "seen" through their heartbeat rows; a kill is an old heartbeat.
const TTL_MS = 60_000
const LEASE_MS = 5 * 60_000

let pools: pg.Pool[]
/** Two replicas' handles on one database. */
let a: Sql
let b: Sql
beforeAll(async () => {
  const url = await freshDatabase()
  pools = [createPgPool({ url, max: 2, log: () => {} }), createPgPool({ url, max: 2, log: () => {} })]
  await migratePg(pools[0])
  ;[a, b] = pools.map(pgSql)
})
afterAll(() => Promise.all(pools.map((p) => p.end())))
beforeEach(async () => {
  await a.run('DELETE FROM tasks')
  await a.run('DELETE FROM replicas')
  await renewLeases(a, 'replica-a', TTL_MS)
  await renewLeases(b, 'replica-b', TTL_MS)
})

let next = 0
/** A video task the vendor accepted, submitted through replica A, due at `dueAt`. */
async function acceptedTask(dueAt: number, over: Partial<TaskRow> = {}): Promise<string> {
  const now = Date.now()
  const id = `vtask_${++next}`
  await tasksRepo(a, 'replica-a').insert({
    id, kind: 'video', key_id: 'key-1', group_id: 'video', model: 'doubao-seedance', endpoint: 'video.generate',
    upstream_id: 'ark', vendor_task_id: `cgt-${next}`, status: 'running', progress: null, request: null, result: null,
    error: null, reserved_nano: 252_000_000, cost_nano: 0, settled: 0, idempotency_key: null, created_at: now, updated_at: now,
    ...over,
  })
  await tasksRepo(a, 'replica-a').video.schedule(id, dueAt, 0)
  return id
}
const row = async (id: string) => (await a.get<{ replica: string; next_poll_at: number }>('SELECT replica, next_poll_at FROM tasks WHERE id = ?', [id]))!
const killed = (replica: string) => a.run("UPDATE replicas SET seen_at = clock_timestamp() - interval '1 hour' WHERE id = ?", [replica])

describe('video claims across replicas (PostgreSQL)', () => {
  it("a live replica's claim is never swept; once that replica is no longer seen, the sweep makes the task due and another replica claims it", async () => {
    const now = Date.now()
    const id = await acceptedTask(now - 1)
    const leaseUntil = now + LEASE_MS
    expect(await tasksRepo(a, 'replica-a').video.claimDue(now, 5, leaseUntil)).toEqual([id])
    expect(await row(id)).toEqual({ replica: 'replica-a', next_poll_at: leaseUntil })

    // Replica A lives (its heartbeat is fresh): B's sweep leaves the claim alone, and B cannot claim the task.
    expect(await tasksRepo(b, 'replica-b').video.resumeOrphaned(Date.now(), TTL_MS)).toBe(0)
    expect(await tasksRepo(b, 'replica-b').video.claimDue(Date.now(), 5, Date.now() + LEASE_MS)).toEqual([])
    expect(await row(id)).toEqual({ replica: 'replica-a', next_poll_at: leaseUntil })

    await killed('replica-a')
    const sweptAt = Date.now()
    expect(await tasksRepo(b, 'replica-b').video.resumeOrphaned(sweptAt, TTL_MS)).toBe(1)
    expect(await row(id)).toEqual({ replica: 'replica-a', next_poll_at: sweptAt })
    const claimedAt = sweptAt + 1
    expect(await tasksRepo(b, 'replica-b').video.claimDue(claimedAt, 5, claimedAt + LEASE_MS)).toEqual([id])
    expect(await row(id)).toEqual({ replica: 'replica-b', next_poll_at: claimedAt + LEASE_MS })
    // B's claim is a live replica's now: a later sweep, by either, leaves it alone.
    expect(await tasksRepo(b, 'replica-b').video.resumeOrphaned(Date.now(), TTL_MS)).toBe(0)
    expect(await tasksRepo(a, 'replica-a').video.resumeOrphaned(Date.now(), TTL_MS)).toBe(0)
    expect(await row(id)).toEqual({ replica: 'replica-b', next_poll_at: claimedAt + LEASE_MS })
  })

  it("a live replica's download under way (a settled task's claim) stays its own; a dead one's is handed back", async () => {
    const now = Date.now()
    const id = await acceptedTask(now - 1, { status: 'succeeded', settled: 1, cost_nano: 252_000_000 })
    expect(await tasksRepo(a, 'replica-a').video.claimDue(now, 5, now + LEASE_MS)).toEqual([id])
    expect(await tasksRepo(b, 'replica-b').video.resumeOrphaned(Date.now(), TTL_MS)).toBe(0)
    expect(await row(id)).toEqual({ replica: 'replica-a', next_poll_at: now + LEASE_MS })
    await killed('replica-a')
    const sweptAt = Date.now()
    expect(await tasksRepo(b, 'replica-b').video.resumeOrphaned(sweptAt, TTL_MS)).toBe(1)
    expect(await row(id)).toEqual({ replica: 'replica-a', next_poll_at: sweptAt })
  })

  it('a renewal extends only claims still as their poll left them: not a task rescheduled since, nor one the sweep handed back', async () => {
    const now = Date.now()
    const [running, ended, handedBack] = [await acceptedTask(now - 3), await acceptedTask(now - 2), await acceptedTask(now - 1)]
    const lease = now + LEASE_MS
    const repo = tasksRepo(a, 'replica-a').video
    expect((await repo.claimDue(now, 5, lease)).sort()).toEqual([running, ended, handedBack].sort())
    await repo.schedule(ended, now + 2_000, 1) // its poll answered "running": next poll in 2 s
    await a.run('UPDATE tasks SET next_poll_at = ? WHERE id = ?', [now, handedBack]) // as the sweep does
    const renewedUntil = lease + 100_000
    expect(await repo.renewClaims(new Map([[running, lease], [ended, lease], [handedBack, lease]]), renewedUntil)).toEqual([running])
    expect(await row(running)).toEqual({ replica: 'replica-a', next_poll_at: renewedUntil })
    expect(await row(ended)).toEqual({ replica: 'replica-a', next_poll_at: now + 2_000 })
    expect(await row(handedBack)).toEqual({ replica: 'replica-a', next_poll_at: now })
  })

  it('the sweep leaves alone what has nothing to do (a finished task) and what is due already', async () => {
    const now = Date.now()
    const finished = await acceptedTask(now - 1, { status: 'succeeded', settled: 1 })
    await tasksRepo(a, 'replica-a').video.schedule(finished, null, 0)
    const due = await acceptedTask(now - 5_000)
    await killed('replica-a')
    expect(await tasksRepo(b, 'replica-b').video.resumeOrphaned(now, TTL_MS)).toBe(0)
    expect(await a.get('SELECT next_poll_at FROM tasks WHERE id = ?', [finished])).toEqual({ next_poll_at: null })
    expect(await row(due)).toEqual({ replica: 'replica-a', next_poll_at: now - 5_000 })
  })
})
