// Team mode's admission takes its usual case in a few statements (pg-schema.ts: take_lease and take_hold try a fast
// way first, then the thorough one, the functions as they were). Whatever the rows, the answer must be the thorough
// one's: the same outcome, the same refusal with the same amount left, the same accounts without a budget, the
// same rows afterwards, and never a cap exceeded.
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
  await pool.query(`INSERT INTO upstreams (id, vendor, base_url, api_key_enc) VALUES ('up-1', 'openai', 'http://a', 'e'), ('up-2', 'openai', 'http://b', 'e'), ('up-3', 'openai', 'http://c', 'e')`)
})
afterAll(() => pool.end())

/** Runs `fn` on one connection inside a transaction that is rolled back: every case starts from the same rows. */
async function rolledBack<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    return await fn(client)
  } finally {
    await client.query('ROLLBACK')
    client.release()
  }
}

const money = fc.integer({ min: 0, max: 5_000 })
const holdState = fc.record({
  accountBudget: fc.option(money, { nil: null }),
  balance: money,
  reserved: fc.integer({ min: 0, max: 1_000 }),
  quota: fc.option(money, { nil: null }),
  used: fc.integer({ min: 0, max: 2_000 }),
  // Other requests' holds: on key-1 or key-2, on an upstream account or none.
  others: fc.array(fc.record({ key: fc.constantFrom('key-1', 'key-2'), upstream: fc.constantFrom(null, 'up-1', 'up-2', 'up-3'), amount: fc.integer({ min: 1, max: 800 }) }), { maxLength: 5 }),
  upstreamBudgets: fc.tuple(...['up-1', 'up-2', 'up-3'].map(() => fc.option(money, { nil: null }))),
  spent: fc.tuple(money, money, money),
  // The accounts that may serve it: known, unknown, repeated, or none.
  candidates: fc.array(fc.constantFrom('up-1', 'up-2', 'up-3', 'gone'), { maxLength: 4 }),
  amount: fc.integer({ min: 0, max: 3_000 }),
})
type HoldState = typeof holdState extends fc.Arbitrary<infer T> ? T : never

async function setHoldState(client: pg.PoolClient, s: HoldState): Promise<void> {
  await client.query('UPDATE account SET budget_nano = $1, balance_nano = $2, reserved_nano = $3 WHERE id = 1', [s.accountBudget, s.balance, s.reserved])
  await client.query("UPDATE api_keys SET quota_nano = $1, used_nano = $2 WHERE id = 'key-1'", [s.quota, s.used])
  for (const [i, id] of ['up-1', 'up-2', 'up-3'].entries()) {
    await client.query('UPDATE upstreams SET budget_nano = $1, spent_nano = $2 WHERE id = $3', [s.upstreamBudgets[i], s.spent[i], id])
  }
  for (const [i, o] of s.others.entries()) {
    await client.query("INSERT INTO holds (id, replica, key_id, upstream_id, amount_nano, created_at) VALUES ($1, 'r', $2, $3, $4, 1)", [`other_${i}`, o.key, o.upstream, o.amount])
  }
}

/** What a take_hold function answered and left behind. */
async function takeHoldWith(fn: string, s: HoldState) {
  return rolledBack(async (client) => {
    await setHoldState(client, s)
    const answer = (await client.query(`SELECT refused, available_nano, unbudgeted FROM ${fn}('req', 'r', 'key-1', $1, CAST($2 AS TEXT[]), 7)`, [s.amount, s.candidates])).rows[0]
    const account = (await client.query('SELECT reserved_nano FROM account WHERE id = 1')).rows[0]
    const hold = (await client.query("SELECT key_id, upstream_id, amount_nano, replica, created_at FROM holds WHERE id = 'req'")).rows[0] ?? null
    return {
      refused: answer.refused,
      available: answer.available_nano === null ? null : Number(answer.available_nano),
      unbudgeted: answer.unbudgeted === null ? null : [...answer.unbudgeted].sort(),
      reserved: Number(account.reserved_nano),
      hold,
    }
  })
}

describe('take_hold: the fast way answers as the thorough one', () => {
  it('for any budget, quota, spend, holds of others and accounts that may serve it (300 cases)', async () => {
    await fc.assert(
      fc.asyncProperty(holdState, async (s) => {
        expect(await takeHoldWith('take_hold', s)).toEqual(await takeHoldWith('take_hold_thorough', s))
      }),
      { numRuns: 300 },
    )
  })

  it('a hold that fits: written once, the account\'s reservations raised once, the accounts without a budget named', async () => {
    const s: HoldState = { accountBudget: 1_000, balance: 1_000, reserved: 100, quota: null, used: 0, others: [], upstreamBudgets: [null, 500, null], spent: [0, 0, 0], candidates: ['up-2', 'up-1', 'up-1', 'gone'], amount: 900 }
    expect(await takeHoldWith('take_hold', s)).toEqual({
      refused: null, available: null, unbudgeted: ['up-1'], reserved: 1_000,
      hold: { key_id: 'key-1', upstream_id: null, amount_nano: 900, replica: 'r', created_at: 7 },
    })
  })

  it('a refusal leaves the account\'s reservations as they were and writes no hold', async () => {
    const s: HoldState = { accountBudget: 1_000, balance: 1_000, reserved: 0, quota: 300, used: 100, others: [{ key: 'key-1', upstream: null, amount: 50 }], upstreamBudgets: [null, null, null], spent: [0, 0, 0], candidates: [], amount: 200 }
    expect(await takeHoldWith('take_hold', s)).toEqual({ refused: 'key', available: 150, unbudgeted: null, reserved: 0, hold: null })
  })
})

const leaseState = fc.record({
  accountCap: fc.integer({ min: 0, max: 6 }),
  keyCap: fc.option(fc.integer({ min: 0, max: 6 }), { nil: null }),
  // Leases already there: key-1's or key-2's, in a slot or (taken before slots existed) none, lapsed or live.
  leases: fc.array(fc.record({
    key: fc.constantFrom('key-1', 'key-2'),
    slot: fc.option(fc.integer({ min: 0, max: 8 }), { nil: null }),
    keySlot: fc.option(fc.integer({ min: 0, max: 8 }), { nil: null }),
    lapsed: fc.boolean(),
  }), { maxLength: 8 }),
})
type LeaseState = typeof leaseState extends fc.Arbitrary<infer T> ? T : never

async function setLeaseState(client: pg.PoolClient, s: LeaseState): Promise<void> {
  for (const [i, l] of s.leases.entries()) {
    // Unique slots, as the indexes keep them: a repeated slot is left out.
    await client.query(
      `INSERT INTO leases (id, replica, key_id, expires_at, slot, key_slot)
       VALUES ($1, 'r', $2, clock_timestamp() + ($3 * interval '1 second'), $4, $5) ON CONFLICT DO NOTHING`,
      [`l_${i}`, l.key, l.lapsed ? -60 : 60, l.slot, l.keySlot],
    )
  }
}

/** What a take_lease function answered, and the live leases it left (all, and key-1's). */
async function takeLeaseWith(fn: string, s: LeaseState) {
  return rolledBack(async (client) => {
    await setLeaseState(client, s)
    const before = await liveLeases(client)
    const outcome = (await client.query(`SELECT ${fn}('req', 'r', 'key-1', $1, $2, 60000) AS outcome`, [s.keyCap, s.accountCap])).rows[0].outcome as string
    return { outcome, before, after: await liveLeases(client) }
  })
}
async function liveLeases(client: pg.PoolClient): Promise<{ all: number; key: number }> {
  const row = (await client.query("SELECT count(*)::int AS all, count(*) FILTER (WHERE key_id = 'key-1')::int AS key FROM leases WHERE expires_at > clock_timestamp()")).rows[0]
  return { all: row.all, key: row.key }
}

describe('take_lease: the fast way answers as the thorough one', () => {
  it('for any caps and leases already there (lapsed, live, outside the slots) (300 cases)', async () => {
    await fc.assert(
      fc.asyncProperty(leaseState, async (s) => {
        const fast = await takeLeaseWith('take_lease', s)
        expect(fast).toEqual(await takeLeaseWith('take_lease_thorough', s))
        // A lease granted never takes a cap past its limit (the key's binds when not above the account's).
        if (fast.outcome === 'ok') {
          expect(fast.after.all).toBeLessThanOrEqual(s.accountCap)
          if (s.keyCap !== null && s.keyCap <= s.accountCap) expect(fast.after.key).toBeLessThanOrEqual(s.keyCap)
          expect(fast.after.all).toBe(fast.before.all + 1)
        }
      }),
      { numRuns: 300 },
    )
  })

  it('a lapsed lease in the only slot: the fast way finds no slot, the thorough way sweeps it and takes the slot', async () => {
    const s: LeaseState = { accountCap: 1, keyCap: null, leases: [{ key: 'key-2', slot: 0, keySlot: null, lapsed: true }] }
    expect(await takeLeaseWith('take_lease', s)).toEqual({ outcome: 'ok', before: { all: 0, key: 0 }, after: { all: 1, key: 1 } })
  })

  it('caps of 0 admit nothing: the account\'s, then the key\'s', async () => {
    expect((await takeLeaseWith('take_lease', { accountCap: 0, keyCap: null, leases: [] })).outcome).toBe('account')
    expect((await takeLeaseWith('take_lease', { accountCap: 3, keyCap: 0, leases: [] })).outcome).toBe('key')
  })
})
