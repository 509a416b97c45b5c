// Team mode's group commit (pg-schema.ts write_ledger): a batch's rows inserted and their holds settled in one
// statement each. Each row charges once (a repeated id, in the batch or already stored, charges nothing), each hold
// named by a row is released whether or not its row was new, the account's and keys' rows change once a commit, and
// an upstream account is charged by what went through it.
import type pg from 'pg'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { migratePg } from '../../electron/gateway/store/pg-schema.js'
import { createPgPool } from '../../electron/gateway/store/pg-sql.js'
import { freshDatabase } from '../helpers/pg-database.js'

let pool: pg.Pool
beforeAll(async () => {
  pool = createPgPool({ url: await freshDatabase(), max: 2, log: () => {} })
  await migratePg(pool)
})
afterAll(() => pool.end())
beforeEach(async () => {
  await pool.query('DELETE FROM requests')
  await pool.query('DELETE FROM holds')
  await pool.query('DELETE FROM leases')
  await pool.query('DELETE FROM pending_requests')
  // Spend never falls (a trigger): each test starts with new keys and a new upstream account.
  await pool.query('DELETE FROM api_keys')
  await pool.query('DELETE FROM upstreams')
  await pool.query(`INSERT INTO api_keys (id, hash, hint, group_id, created_at) VALUES ('key-1', 'h1', 'sk-…', 'g', 1), ('key-2', 'h2', 'sk-…', 'g', 1)`)
  await pool.query(`INSERT INTO upstreams (id, vendor, base_url, api_key_enc) VALUES ('up-1', 'openai', 'http://a', 'e')`)
  await pool.query('UPDATE account SET balance_nano = 100000, reserved_nano = 0 WHERE id = 1')
})

const row = (id: string, over: Record<string, unknown> = {}) => ({
  id, key_id: 'key-1', group_id: 'g', model: 'm', endpoint: 'chat.completions', status: 200, error_code: null, upstream_id: null,
  input_tokens: 1, output_tokens: 1, usage: null, cost_nano: 100, latency_ms: 1.5, created_at: 1, attempts: null, usage_source: null,
  breakdown: null, held: null, ...over,
})
async function hold(id: string, keyId: string, amount: number): Promise<void> {
  await pool.query("INSERT INTO holds (id, replica, key_id, upstream_id, amount_nano, created_at) VALUES ($1, 'r', $2, NULL, $3, 1)", [id, keyId, amount])
  await pool.query('UPDATE account SET reserved_nano = reserved_nano + $1 WHERE id = 1', [amount])
}
const writeLedger = (rows: unknown[], opts: { replaced?: string[]; leases?: string[] } = {}) =>
  pool.query("SELECT write_ledger(CAST($1 AS JSONB), '[]'::jsonb, CAST($2 AS TEXT[]), 'r', CAST($3 AS TEXT[]))", [JSON.stringify(rows), opts.replaced ?? [], opts.leases ?? []])
async function figures() {
  const q = async (text: string) => (await pool.query(text)).rows
  return {
    account: (await q('SELECT balance_nano, reserved_nano FROM account WHERE id = 1'))[0],
    keys: Object.fromEntries((await q('SELECT id, used_nano FROM api_keys ORDER BY id')).map((r) => [r.id, Number(r.used_nano)])),
    upstream: Number((await q("SELECT spent_nano FROM upstreams WHERE id = 'up-1'"))[0].spent_nano),
    rows: (await q('SELECT id, cost_nano, reserved_nano FROM requests ORDER BY id')).map((r) => [r.id, Number(r.cost_nano), r.reserved_nano === null ? null : Number(r.reserved_nano)]),
    holds: Number((await q('SELECT count(*)::int AS n FROM holds'))[0].n),
  }
}

describe('write_ledger: one group commit', () => {
  it('charges each new row once, to the account, its key and its upstream account, and settles the holds', async () => {
    await hold('a', 'key-1', 500)
    await hold('b', 'key-2', 300)
    await hold('other', 'key-1', 50)
    await writeLedger([
      row('a', { cost_nano: 400, held: 500, upstream_id: 'up-1' }),
      row('b', { key_id: 'key-2', cost_nano: 350, held: 300 }),
      row('c', { cost_nano: 0 }),
      row('d', { key_id: null, cost_nano: 25 }),
    ])
    expect(await figures()).toEqual({
      account: { balance_nano: 100_000 - 775, reserved_nano: 50 },
      keys: { 'key-1': 400, 'key-2': 350 },
      upstream: 400,
      rows: [['a', 400, 500], ['b', 350, 300], ['c', 0, null], ['d', 25, null]],
      holds: 1,
    })
  })

  it('a repeated id charges nothing, in the batch or already stored, and its hold is still released', async () => {
    await writeLedger([row('a', { cost_nano: 100 })])
    await hold('a', 'key-1', 200)
    await writeLedger([row('a', { cost_nano: 900, held: 200 }), row('b', { cost_nano: 10 }), row('b', { cost_nano: 70 })])
    expect(await figures()).toMatchObject({
      account: { balance_nano: 100_000 - 110, reserved_nano: 0 },
      keys: { 'key-1': 110, 'key-2': 0 },
      rows: [['a', 100, null], ['b', 10, null]],
      holds: 0,
    })
  })

  it('charges each upstream account the sum of its new rows, once per row, however many accounts a batch goes through', async () => {
    await pool.query(`INSERT INTO upstreams (id, vendor, base_url, api_key_enc) VALUES ('up-2', 'openai', 'http://b', 'e')`)
    const spent = async () => Object.fromEntries((await pool.query('SELECT id, spent_nano FROM upstreams ORDER BY id')).rows.map((r) => [r.id, Number(r.spent_nano)]))
    await writeLedger([
      row('a', { cost_nano: 100, upstream_id: 'up-1' }),
      row('b', { cost_nano: 250, upstream_id: 'up-2' }),
      row('c', { cost_nano: 30, upstream_id: 'up-1' }),
      row('d', { cost_nano: 0, upstream_id: 'up-2' }),
      row('e', { cost_nano: 70 }),
      row('a', { cost_nano: 100, upstream_id: 'up-1' }),
    ])
    expect(await spent()).toEqual({ 'up-1': 130, 'up-2': 250 })
    await writeLedger([row('a', { cost_nano: 100, upstream_id: 'up-1' }), row('f', { cost_nano: 5, upstream_id: 'up-2' })])
    expect(await spent()).toEqual({ 'up-1': 130, 'up-2': 255 })
    // A row written by any other statement is charged too (a settled stream's, an import's).
    await pool.query("INSERT INTO requests (id, endpoint, status, upstream_id, cost_nano, latency_ms, created_at) VALUES ('g', 'chat.completions', 499, 'up-1', 7, 1, 1)")
    expect(await spent()).toEqual({ 'up-1': 137, 'up-2': 255 })
  })

  it('never reads the ledger back: a plan kept from when the table was small scans nothing as it grows', async () => {
    // One connection, as a replica's pool keeps it: its plans are made while the ledger is small, then reused.
    const client = await pool.connect()
    try {
      const call = (rows: unknown[]) => client.query("SELECT write_ledger(CAST($1 AS JSONB), '[]'::jsonb, '{}', 'r', '{}')", [JSON.stringify(rows)])
      for (let i = 0; i < 10; i++) await call([row(`small-${i}`)])
      await client.query(`INSERT INTO requests (id, key_id, endpoint, status, cost_nano, latency_ms, created_at)
        SELECT 'old-' || g, 'key-1', 'chat.completions', 200, 0, 1, 1 FROM generate_series(1, 5000) g`)
      const scans = async () => {
        await client.query('SELECT pg_stat_force_next_flush()')
        await client.query('SELECT 1')
        return Number((await pool.query("SELECT seq_scan FROM pg_stat_user_tables WHERE relname = 'requests'")).rows[0].seq_scan)
      }
      const before = await scans()
      for (let i = 0; i < 10; i++) await call([row(`grown-${i}`), row(`grown-${i}-b`, { key_id: 'key-2' })])
      expect(await scans()).toBe(before)
      expect((await figures()).keys).toEqual({ 'key-1': 2000, 'key-2': 1000 })
    } finally {
      client.release()
    }
  })

  it('an empty batch still replaces pending rows and gives leases back', async () => {
    await pool.query(`INSERT INTO pending_requests (id, key_id, group_id, model, endpoint, cost_nano, started_at, checkpointed_at, replica) VALUES ('p', 'key-1', 'g', 'm', 'chat.completions', 0, 1, 1, 'r')`)
    await pool.query("INSERT INTO leases (id, replica, key_id, expires_at, slot) VALUES ('l', 'r', 'key-1', clock_timestamp() + interval '1 minute', 0)")
    await writeLedger([], { replaced: ['p'], leases: ['l'] })
    expect((await pool.query('SELECT (SELECT count(*) FROM pending_requests)::int AS p, (SELECT count(*) FROM leases)::int AS l')).rows[0]).toEqual({ p: 0, l: 0 })
    expect((await figures()).account).toEqual({ balance_nano: 100_000, reserved_nano: 0 })
  })
})
