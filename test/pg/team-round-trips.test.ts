// Team mode's round trips to the database per request (issue 27): every statement the replica's pool sends is
// counted by its text, so a request that took a transaction (BEGIN, several statements, COMMIT) would show here.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js'
import { adminClient } from '../integration/admin/admin-helpers.js'
import { chatConfig, type TestGateway } from '../helpers/gateway.js'
import { freshDatabase } from '../helpers/pg-database.js'
import { aroundPgQueries } from '../helpers/pg-queries.js'
import { newSecretKey, startReplica } from '../helpers/team.js'

const CALLS = 32
const body = { model: 'test-gpt', messages: [{ role: 'user', content: 'hello' }] }

let fake: FakeOpenAI
let gw: TestGateway
const sent: string[] = []
let restoreQueries = () => {}

beforeAll(async () => {
  restoreQueries = aroundPgQueries((text, send) => {
    sent.push(text)
    return send()
  })
  fake = await startFakeOpenAI()
  // No budget at first; a long lease, so the heartbeat (every 10 s) stays out of the counts.
  const config = chatConfig([{ id: 'a', baseUrl: fake.url }], { account: { concurrency: 64 }, team: { leaseSeconds: 30 } })
  gw = await startReplica(await freshDatabase(), newSecretKey(), config)
})
afterAll(async () => {
  restoreQueries()
  await gw?.stop()
  await fake?.close()
})
beforeEach(() => fake.reset())

/** `CALLS` chat completions at once, all answered 200; then the statements sent for them, once releases and the ledger are written. */
async function burst(oneAtATime = false): Promise<string[]> {
  sent.length = 0
  const answers: Response[] = []
  if (oneAtATime) for (let i = 0; i < CALLS; i++) answers.push(await gw.post('/v1/chat/completions', body))
  else answers.push(...(await Promise.all(Array.from({ length: CALLS }, () => gw.post('/v1/chat/completions', body)))))
  expect(answers.map((r) => r.status)).toEqual(Array(CALLS).fill(200))
  await gw.services.limiter.settled?.()
  await gw.services.store.ledger.flush()
  return [...sent]
}

const count = (statements: string[], pattern: RegExp) => statements.filter((s) => pattern.test(s)).length
const LEASE = /take_lease\(/
const HOLD = /take_hold\(/
// The lease and the hold in one statement (admission with a spending limit): the requests asked together, or one alone.
const ADMIT_TOGETHER = /take_leases_and_holds\(/
const ADMIT_ALONE = /admit_request\(/
const ADMIT = new RegExp(`${ADMIT_TOGETHER.source}|${ADMIT_ALONE.source}`)
const MOVE = /move_hold\(/
// A lease given back on its own (the ledger's commit gives them back with the rows).
const RELEASE = /DELETE FROM leases/
const LEDGER = /write_ledger\(/

describe('team mode: database round trips per request', () => {
  it('with no limit anywhere: one statement before the upstream call (the lease, which also says no limit is set), the ends batched', async () => {
    const statements = await burst()
    expect(count(statements, LEASE)).toBe(CALLS)
    expect(count(statements, HOLD)).toBe(0)
    expect(count(statements, MOVE)).toBe(0)
    expect(count(statements, /^\s*BEGIN/)).toBe(0)
    // The end: the ledger's commits, each giving back the leases of the requests that ended with it; no statement of its own.
    expect(count(statements, RELEASE)).toBe(0)
    expect(count(statements, LEDGER)).toBeGreaterThanOrEqual(1)
    expect(count(statements, LEDGER)).toBeLessThanOrEqual(CALLS)
    expect(await gw.services.store.sql.get('SELECT count(*)::int AS n FROM requests WHERE status = 200')).toEqual({ n: CALLS })
    expect(await gw.services.store.sql.get('SELECT count(*)::int AS n FROM leases')).toEqual({ n: 0 })
  })

  it('one request at a time: one statement before the upstream call and one at the end', async () => {
    const statements = await burst(true)
    expect(count(statements, LEASE)).toBe(CALLS)
    expect(count(statements, RELEASE)).toBe(0)
    // One commit per request at most: a request that ends while the last one's commit is under way shares the next.
    expect(count(statements, LEDGER)).toBeGreaterThanOrEqual(1)
    expect(count(statements, LEDGER)).toBeLessThanOrEqual(CALLS)
    expect(count(statements, HOLD) + count(statements, MOVE)).toBe(0)
    expect(count(statements, /^\s*BEGIN/)).toBe(0)
    expect(await gw.services.store.sql.get('SELECT count(*)::int AS n FROM leases')).toEqual({ n: 0 })
  })

  it('with an account budget: the lease and the hold in one statement (the upstream account has no budget: nothing to place); no transaction', async () => {
    expect((await adminClient(gw).patch('/admin/v1/account', { budget: 100 })).status).toBe(200)
    const statements = await burst()
    // 32 at once: the admissions asked for while one is under way go together in the next statement.
    expect(count(statements, ADMIT)).toBeGreaterThanOrEqual(1)
    expect(count(statements, ADMIT)).toBeLessThan(CALLS)
    expect(count(statements, LEASE) + count(statements, HOLD)).toBe(0)
    expect(count(statements, MOVE)).toBe(0)
    expect(count(statements, /^\s*BEGIN/)).toBe(0)
    // The end: the ledger's commits, each giving back the leases of the requests that ended with it; no statement of its own.
    expect(count(statements, RELEASE)).toBe(0)
    expect(count(statements, LEDGER)).toBeGreaterThanOrEqual(1)
    expect(count(statements, LEDGER)).toBeLessThanOrEqual(CALLS)
    // Every hold settled by its row, and the account charged what the rows cost.
    const sql = gw.services.store.sql
    expect(await sql.get('SELECT count(*)::int AS n FROM holds')).toEqual({ n: 0 })
    const account = await sql.get<{ reserved_nano: number; spent: number; charged: number }>(
      `SELECT reserved_nano, budget_nano - balance_nano AS spent,
         (SELECT SUM(cost_nano) FROM requests WHERE created_at >= 0 AND reserved_nano IS NOT NULL) AS charged FROM account`,
    )
    expect(account!.reserved_nano).toBe(0)
    expect(account!.spent).toBe(account!.charged)
    expect(account!.charged).toBeGreaterThan(0)
    expect(await sql.get('SELECT count(*)::int AS n FROM requests WHERE reserved_nano IS NOT NULL AND status = 200')).toEqual({ n: CALLS })
  })

  it('with a budget on the upstream account too: one more statement places each hold on it (its budget checked, locked)', async () => {
    expect((await adminClient(gw).patch('/admin/v1/upstreams/a', { budget: 100 })).status).toBe(200)
    const sql = gw.services.store.sql
    const spend = async () => (await sql.get<{ spent: number; cost: number }>(
      "SELECT spent_nano AS spent, (SELECT SUM(cost_nano) FROM requests WHERE upstream_id = 'a') AS cost FROM upstreams WHERE id = 'a'",
    ))!
    const before = await spend()
    const statements = await burst(true)
    // One at a time: each admission alone, without the batch's wrapping.
    expect(count(statements, ADMIT_ALONE)).toBe(CALLS)
    expect(count(statements, ADMIT_TOGETHER)).toBe(0)
    expect(count(statements, LEASE) + count(statements, HOLD)).toBe(0)
    expect(count(statements, MOVE)).toBe(CALLS)
    expect(count(statements, /^\s*BEGIN/)).toBe(0)
    expect(count(statements, RELEASE)).toBe(0)
    expect(count(statements, LEDGER)).toBeLessThanOrEqual(CALLS)
    expect(await sql.get('SELECT count(*)::int AS n FROM holds')).toEqual({ n: 0 })
    // The upstream account's spend rose by what its new rows cost.
    const after = await spend()
    expect(after.cost - before.cost).toBeGreaterThan(0)
    expect(after.spent - before.spent).toBe(after.cost - before.cost)
  })

  it('a database error while admitting a held request answers 503 shared_store_unavailable, never a 500; nothing is held', async () => {
    // A budget, so the request is admitted with its hold (the batched call).
    expect((await adminClient(gw).patch('/admin/v1/account', { budget: 100 })).status).toBe(200)
    const sql = gw.services.store.sql
    // Gone, whichever way the request is admitted (alone, or with others).
    await sql.run('ALTER FUNCTION take_leases_and_holds(JSONB) RENAME TO take_leases_and_holds_gone')
    await sql.run('ALTER FUNCTION admit_request(TEXT, TEXT, TEXT, INTEGER, INTEGER, BIGINT, BIGINT, TEXT[], BIGINT) RENAME TO admit_request_gone')
    try {
      const res = await gw.post('/v1/chat/completions', body)
      expect(res.status).toBe(503)
      expect(res.headers.get('retry-after')).toBe('1')
      expect(((await res.json()) as { error: { code: string; message: string } }).error).toMatchObject({
        code: 'shared_store_unavailable',
        message: 'The gateway could not reach its shared database to take a concurrency slot; retry in a moment.',
      })
      expect(fake.calls).toHaveLength(0)
      expect(await sql.get('SELECT (SELECT count(*) FROM holds)::int AS holds, (SELECT count(*) FROM leases)::int AS leases')).toEqual({ holds: 0, leases: 0 })
    } finally {
      await sql.run('ALTER FUNCTION take_leases_and_holds_gone(JSONB) RENAME TO take_leases_and_holds')
      await sql.run('ALTER FUNCTION admit_request_gone(TEXT, TEXT, TEXT, INTEGER, INTEGER, BIGINT, BIGINT, TEXT[], BIGINT) RENAME TO admit_request')
    }
    expect((await gw.post('/v1/chat/completions', body)).status).toBe(200)
  })
})
