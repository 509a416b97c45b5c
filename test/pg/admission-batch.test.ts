// Team mode's batch of admissions (pg-schema.ts take_leases_and_holds) takes its usual case for the whole batch at
// once, and anything else each in turn. Whatever the rows, it must answer and leave what taking each request in turn
// (take_lease_and_hold, in the order asked) answers and leaves: the same outcomes, refusals, amounts left and accounts
// without a budget; the same holds, reservations and leases; never a cap exceeded.
import fc from 'fast-check'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migratePg } from '../../electron/gateway/store/pg-schema.js'
import { createPgPool } from '../../electron/gateway/store/pg-sql.js'
import { freshDatabase } from '../helpers/pg-database.js'

let pool: pg.Pool
beforeAll(async () => {
  pool = createPgPool({ url: await freshDatabase(), max: 2, log: () => {} })
  await migratePg(pool)
  await pool.query(`INSERT INTO api_keys (id, hash, hint, group_id, created_at) VALUES ('key-1', 'h1', 'sk-…', 'g', 1), ('key-2', 'h2', 'sk-…', 'g', 1)`)
  await pool.query(`INSERT INTO upstreams (id, vendor, base_url, api_key_enc) VALUES ('up-1', 'openai', 'http://a', 'e'), ('up-2', 'openai', 'http://b', 'e')`)
})
afterAll(() => pool.end())

const money = fc.integer({ min: 0, max: 5_000 })
const state = fc.record({
  accountBudget: fc.option(money, { nil: null }),
  balance: money,
  reserved: fc.integer({ min: 0, max: 1_000 }),
  quota: fc.option(money, { nil: null }),
  upstreamBudgets: fc.tuple(fc.option(money, { nil: null }), fc.option(money, { nil: null })),
  accountCap: fc.integer({ min: 0, max: 8 }),
  keyCap: fc.option(fc.integer({ min: 0, max: 8 }), { nil: null }),
  // Leases already there: in a slot or (taken before slots existed) none, lapsed or live.
  leases: fc.array(fc.record({ key: fc.constantFrom('key-1', 'key-2'), slot: fc.option(fc.integer({ min: 0, max: 9 }), { nil: null }), lapsed: fc.boolean() }), { maxLength: 6 }),
  batch: fc.array(fc.record({
    key: fc.constantFrom('key-1', 'key-2'),
    amount: fc.integer({ min: 0, max: 2_000 }),
    candidates: fc.array(fc.constantFrom('up-1', 'up-2', 'gone'), { maxLength: 3 }),
  }), { minLength: 1, maxLength: 6 }),
})
type State = typeof state extends fc.Arbitrary<infer T> ? T : never

/** The batch as team/lease-limiter.ts sends it: key-1 has the cap drawn, key-2 none. */
const requests = (s: State) => s.batch.map((r, n) => ({
  n, id: `req_${n}`, replica: 'r', key_id: r.key, key_cap: r.key === 'key-1' ? s.keyCap : null, account_cap: s.accountCap,
  ttl_ms: 60_000, amount: r.amount, upstream_ids: r.candidates, created_at: 7,
}))

/** What admitting the batch answered and left, from the same rows each time (a transaction rolled back). */
async function admitWith(inTurn: boolean, s: State) {
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    await client.query('UPDATE account SET budget_nano = $1, balance_nano = $2, reserved_nano = $3 WHERE id = 1', [s.accountBudget, s.balance, s.reserved])
    await client.query("UPDATE api_keys SET quota_nano = $1 WHERE id = 'key-1'", [s.quota])
    for (const [i, id] of ['up-1', 'up-2'].entries()) await client.query('UPDATE upstreams SET budget_nano = $1 WHERE id = $2', [s.upstreamBudgets[i], id])
    for (const [i, l] of s.leases.entries()) {
      await client.query(
        `INSERT INTO leases (id, replica, key_id, expires_at, slot) VALUES ($1, 'r', $2, clock_timestamp() + ($3 * interval '1 second'), $4) ON CONFLICT DO NOTHING`,
        [`l_${i}`, l.key, l.lapsed ? -60 : 60, l.slot],
      )
    }
    const asked = requests(s)
    const rows = inTurn
      ? await (async () => {
        const answers = []
        for (const r of asked) {
          const row = (await client.query(
            'SELECT lease, refused, available_nano, unbudgeted FROM take_lease_and_hold($1, $2, $3, $4, $5, $6, $7, CAST($8 AS TEXT[]), $9)',
            [r.id, r.replica, r.key_id, r.key_cap, r.account_cap, r.ttl_ms, r.amount, r.upstream_ids, r.created_at],
          )).rows[0]
          answers.push({ n: r.n, ...row })
        }
        return answers
      })()
      : (await client.query('SELECT n, lease, refused, available_nano, unbudgeted FROM take_leases_and_holds(CAST($1 AS JSONB))', [JSON.stringify(asked)])).rows
    const account = (await client.query('SELECT reserved_nano FROM account WHERE id = 1')).rows[0]
    const holds = (await client.query('SELECT id, key_id, upstream_id, amount_nano, replica, created_at FROM holds ORDER BY id')).rows
    const leases = (await client.query('SELECT id, key_id, slot, expires_at > clock_timestamp() AS live FROM leases ORDER BY id')).rows
    // Every new lease in a slot under the account's cap (the slots are drawn at random, so which ones may differ).
    for (const l of leases.filter((l) => l.id.startsWith('req_'))) expect([l.live, l.slot !== null && l.slot < s.accountCap]).toEqual([true, true])
    return {
      answers: rows.map((r) => ({ n: r.n, lease: r.lease, refused: r.refused, available: r.available_nano === null ? null : Number(r.available_nano), unbudgeted: r.unbudgeted === null ? null : [...r.unbudgeted].sort() })),
      reserved: Number(account.reserved_nano),
      holds,
      leases: leases.map((l) => ({ id: l.id, key: l.key_id, live: l.live })),
    }
  } finally {
    await client.query('ROLLBACK')
    client.release()
  }
}

describe('take_leases_and_holds answers as taking each in turn does', () => {
  it('for any budget, quota, caps, leases already there and batch (300 cases)', async () => {
    await fc.assert(
      fc.asyncProperty(state, async (s) => {
        expect(await admitWith(false, s)).toEqual(await admitWith(true, s))
      }),
      { numRuns: 300 },
    )
  }, 120_000)

  it('the usual case: every request held with its lease in a slot of its own, the reservations raised by the sum', async () => {
    const s: State = {
      accountBudget: 10_000, balance: 10_000, reserved: 0, quota: null, upstreamBudgets: [null, 500], accountCap: 4, keyCap: null, leases: [],
      batch: [{ key: 'key-1', amount: 300, candidates: ['up-1', 'up-2'] }, { key: 'key-2', amount: 200, candidates: [] }, { key: 'key-1', amount: 100, candidates: ['gone'] }],
    }
    const got = await admitWith(false, s)
    expect(got.answers).toEqual([
      { n: 0, lease: 'ok', refused: null, available: null, unbudgeted: ['up-1'] },
      { n: 1, lease: 'ok', refused: null, available: null, unbudgeted: [] },
      { n: 2, lease: 'ok', refused: null, available: null, unbudgeted: [] },
    ])
    expect(got.reserved).toBe(600)
    expect(got.holds.map((h) => [h.id, h.key_id, Number(h.amount_nano)])).toEqual([['req_0', 'key-1', 300], ['req_1', 'key-2', 200], ['req_2', 'key-1', 100]])
    expect(got.leases.map((l) => l.id)).toEqual(['req_0', 'req_1', 'req_2'])
  })

  it('more asked than slots are free: the first in order get the slots, the rest are refused, nothing else is taken', async () => {
    const s: State = {
      accountBudget: null, balance: 0, reserved: 0, quota: null, upstreamBudgets: [null, null], accountCap: 3, keyCap: null,
      leases: [{ key: 'key-2', slot: 1, lapsed: false }],
      batch: [0, 1, 2].map(() => ({ key: 'key-1', amount: 50, candidates: [] })),
    }
    const got = await admitWith(false, s)
    expect(got.answers.map((a) => a.lease)).toEqual(['ok', 'ok', 'account'])
    expect([got.reserved, got.holds.map((h) => h.id), got.leases.map((l) => l.id)]).toEqual([100, ['req_0', 'req_1'], ['l_0', 'req_0', 'req_1']])
  })
})
