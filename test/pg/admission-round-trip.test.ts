// Team mode's admission in one round trip (issue 27): a request's concurrency lease and its hold in one statement
// (admit_request alone, take_leases_and_holds for several), atomically: a full cap takes no hold, a refused hold
// keeps no lease.
import type pg from 'pg'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { takeLeasesAndHolds, type Admitted, type HoldAsked } from '../../electron/gateway/store/holds.js'
import type { LeaseRequest } from '../../electron/gateway/store/pg-leases.js'
import { migratePg } from '../../electron/gateway/store/pg-schema.js'
import { createPgPool, pgSql } from '../../electron/gateway/store/pg-sql.js'
import type { Sql } from '../../electron/gateway/store/sql.js'
import { freshDatabase } from '../helpers/pg-database.js'

let pool: pg.Pool
let url: string
let sql: Sql
beforeAll(async () => {
  url = await freshDatabase()
  pool = createPgPool({ url, max: 8, log: () => {} })
  await migratePg(pool)
  sql = pgSql(pool)
  await sql.run(`INSERT INTO api_keys (id, hash, hint, group_id, created_at) VALUES ('key-1', 'h1', 'sk-…', 'g', 1)`)
})
afterAll(() => pool.end())
beforeEach(async () => {
  await sql.run('DELETE FROM leases')
  await sql.run('DELETE FROM holds')
  // A budget of 1,000 nano-USD, nothing spent or reserved.
  await sql.run('UPDATE account SET budget_nano = 1000, balance_nano = 1000, reserved_nano = 0 WHERE id = 1')
})

/** One request's admission: a batch of one. */
const takeLeaseAndHold = async (sql: Sql, lease: LeaseRequest, hold: HoldAsked): Promise<Admitted> => (await takeLeasesAndHolds(sql, [{ lease, hold }]))[0]

let next = 0
const request = (amountNano: number, over: Partial<LeaseRequest> = {}) => {
  const id = `req_${++next}`
  const lease: LeaseRequest = { leaseId: id, replica: 'replica-a', keyId: 'key-1', keyCap: null, accountCap: 3, ttlMs: 60_000, ...over }
  return [lease, { id, keyId: 'key-1', amountNano, upstreamIds: [] }] as const
}
const rows = async () => ({
  leases: Number((await sql.get<{ n: number }>('SELECT count(*)::int AS n FROM leases'))!.n),
  holds: Number((await sql.get<{ n: number }>('SELECT count(*)::int AS n FROM holds'))!.n),
  reserved: Number((await sql.get<{ n: number }>('SELECT reserved_nano AS n FROM account WHERE id = 1'))!.n),
})

describe('admission: a request\'s lease and hold in one statement', () => {
  it('takes both: the lease row, the hold row, and the account\'s reservations raised by it', async () => {
    expect(await takeLeaseAndHold(sql, ...request(400))).toEqual({ lease: 'ok', taken: { kind: 'held', unbudgeted: [] } })
    expect(await rows()).toEqual({ leases: 1, holds: 1, reserved: 400 })
  })

  it('a hold that does not fit gives its lease back: a 402 leaves nothing taken, and the slot serves the next request', async () => {
    const [lease, hold] = request(1001, { accountCap: 1 })
    expect(await takeLeaseAndHold(sql, lease, hold)).toEqual({ lease: 'ok', taken: { kind: 'insufficient', limit: 'balance', availableNano: 1000 } })
    expect(await rows()).toEqual({ leases: 0, holds: 0, reserved: 0 })
    expect(await takeLeaseAndHold(sql, ...request(1000, { accountCap: 1 }))).toMatchObject({ lease: 'ok', taken: { kind: 'held' } })
  })

  it('a full cap takes no hold: the account\'s, then the key\'s', async () => {
    expect((await takeLeaseAndHold(sql, ...request(100, { accountCap: 1 }))).lease).toBe('ok')
    expect(await takeLeaseAndHold(sql, ...request(100, { accountCap: 1 }))).toEqual({ lease: 'account' })
    expect(await takeLeaseAndHold(sql, ...request(100, { accountCap: 5, keyCap: 1 }))).toEqual({ lease: 'key' })
    expect(await rows()).toEqual({ leases: 1, holds: 1, reserved: 100 })
  })

  it('12 at once against 3 slots and room for 2 holds: exactly 2 held (with their leases), never more leases than slots', async () => {
    const outcomes = await Promise.all(Array.from({ length: 12 }, () => takeLeaseAndHold(sql, ...request(400))))
    const held = outcomes.filter((o) => o.taken?.kind === 'held')
    expect(held).toHaveLength(2)
    expect(outcomes.every((o) => o.lease === 'ok' ? o.taken !== undefined : o.taken === undefined)).toBe(true)
    expect(await rows()).toEqual({ leases: 2, holds: 2, reserved: 800 })
  })

  it('several asked together: each in turn, in the order asked, answered its own outcome', async () => {
    const held = { lease: 'ok', taken: { kind: 'held', unbudgeted: [] } }
    const asked = [400, 400, 400].map((amount) => request(amount)).map(([lease, hold]) => ({ lease, hold }))
    expect(await takeLeasesAndHolds(sql, asked)).toEqual([held, held, { lease: 'ok', taken: { kind: 'insufficient', limit: 'balance', availableNano: 200 } }])
    expect(await rows()).toEqual({ leases: 2, holds: 2, reserved: 800 })
    // With the slots full, the later ones are refused their lease and hold nothing.
    const full = [100, 100].map((amount) => request(amount, { accountCap: 2 })).map(([lease, hold]) => ({ lease, hold }))
    expect(await takeLeasesAndHolds(sql, full)).toEqual([{ lease: 'account' }, { lease: 'account' }])
    expect(await rows()).toEqual({ leases: 2, holds: 2, reserved: 800 })
  })

  it('batches and single admissions of two replicas at once never deadlock: each takes the account\'s row before any slot', async () => {
    // Small caps, so that batches reach for the same slots; a deadlock would fail a batch (40P01) after a second.
    await sql.run('UPDATE account SET budget_nano = 1000000000, balance_nano = 1000000000 WHERE id = 1')
    const other = createPgPool({ url, max: 8, log: () => {} })
    try {
      const replicas = [sql, pgSql(other)]
      for (let round = 0; round < 20; round++) {
        // Two batches of 6 and two alone (admit_request) from each replica.
        const batches = replicas.flatMap((s, r) => [6, 1, 6, 1].map((size) => takeLeasesAndHolds(s, Array.from({ length: size }, () => {
          const [lease, hold] = request(10, { accountCap: 16, replica: `replica-${r}` })
          return { lease, hold }
        }))))
        const outcomes = (await Promise.all(batches)).flat()
        expect(outcomes.filter((o) => o.taken?.kind === 'held').length).toBeLessThanOrEqual(16)
        await sql.run('DELETE FROM leases')
        await sql.run('DELETE FROM holds')
        await sql.run('UPDATE account SET reserved_nano = 0 WHERE id = 1')
      }
    } finally {
      await other.end()
    }
  }, 60_000)
})
