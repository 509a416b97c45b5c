import type pg from 'pg'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { acquireLease, releaseLease, renewLeases, type LeaseRequest } from '../../electron/gateway/store/pg-leases.js'
import { migratePg } from '../../electron/gateway/store/pg-schema.js'
import { createPgPool, pgSql } from '../../electron/gateway/store/pg-sql.js'
import type { Sql } from '../../electron/gateway/store/sql.js'
import { freshDatabase } from '../helpers/pg-database.js'

let pools: pg.Pool[]
/** Two replicas' handles on one database. */
let a: Sql
let b: Sql
beforeAll(async () => {
  const url = await freshDatabase()
  pools = [createPgPool({ url, max: 4, log: () => {} }), createPgPool({ url, max: 4, log: () => {} })]
  await migratePg(pools[0])
  ;[a, b] = pools.map(pgSql)
})
afterAll(() => Promise.all(pools.map((p) => p.end())))
beforeEach(() => a.run('DELETE FROM leases'))

let next = 0
const lease = (over: Partial<LeaseRequest> = {}): LeaseRequest => ({
  leaseId: `lease_${++next}`,
  replica: 'replica-a',
  keyId: 'key-1',
  keyCap: null,
  accountCap: 3,
  ttlMs: 60_000,
  ...over,
})
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('cross-replica concurrency leases', () => {
  it('grants exactly the cap when 8 requests over two replicas race for 3 slots', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 ? acquireLease(b, lease({ replica: 'replica-b' })) : acquireLease(a, lease()))),
    )
    expect(outcomes.filter((o) => o === 'ok').length).toBe(3)
    expect(outcomes.filter((o) => o === 'account').length).toBe(5)
    expect(await a.get('SELECT COUNT(*) AS n FROM leases')).toEqual({ n: 3 })
  })

  it("says which cap is full: the key's when it is not above the account's, else the account's", async () => {
    expect(await acquireLease(a, lease({ keyCap: 2, accountCap: 5 }))).toBe('ok')
    expect(await acquireLease(b, lease({ keyCap: 2, accountCap: 5, replica: 'replica-b' }))).toBe('ok')
    expect(await acquireLease(a, lease({ keyCap: 2, accountCap: 5 }))).toBe('key')
    // Another key still has room under the account's cap.
    expect(await acquireLease(a, lease({ keyId: 'key-2', keyCap: 2, accountCap: 5 }))).toBe('ok')
    expect(await acquireLease(a, lease({ keyId: 'key-2', keyCap: 2, accountCap: 5 }))).toBe('ok')
    expect(await acquireLease(a, lease({ keyId: 'key-3', keyCap: 6, accountCap: 5 }))).toBe('ok')
    // Five in flight: a key whose cap is above the account's is refused by the account's cap, as limits.ts does.
    expect(await acquireLease(a, lease({ keyId: 'key-3', keyCap: 6, accountCap: 5 }))).toBe('account')
    expect(await acquireLease(a, lease({ keyId: 'key-2', keyCap: 5, accountCap: 5 }))).toBe('account')
    // Both full: the key's own cap is named when it binds.
    expect(await acquireLease(a, lease({ keyId: 'key-2', keyCap: 2, accountCap: 5 }))).toBe('key')
    expect(await a.get('SELECT COUNT(*) AS n FROM leases')).toEqual({ n: 5 })
  })

  it('frees the slot of a lease nobody renews once it lapses', async () => {
    expect(await acquireLease(a, lease({ accountCap: 1, ttlMs: 200 }))).toBe('ok')
    expect(await acquireLease(b, lease({ accountCap: 1, replica: 'replica-b' }))).toBe('account')
    await sleep(300)
    expect(await acquireLease(b, lease({ accountCap: 1, replica: 'replica-b' }))).toBe('ok')
    expect(await b.all('SELECT replica FROM leases')).toEqual([{ replica: 'replica-b' }])
  })

  it("keeps a renewed lease past its first expiry; renews only the replica's live leases and records its heartbeat", async () => {
    expect(await acquireLease(a, lease({ accountCap: 2, ttlMs: 400 }))).toBe('ok')
    expect(await acquireLease(b, lease({ accountCap: 2, ttlMs: 400, replica: 'replica-b' }))).toBe('ok')
    expect(await renewLeases(a, 'replica-a', 60_000)).toBe(1)
    await sleep(600)
    // replica-b's lease lapsed; replica-a's holds its slot.
    expect(await acquireLease(b, lease({ accountCap: 2, replica: 'replica-b' }))).toBe('ok')
    expect(await acquireLease(b, lease({ accountCap: 2, replica: 'replica-b' }))).toBe('account')
    expect(
      await a.get<{ left: number }>(`SELECT EXTRACT(EPOCH FROM expires_at - clock_timestamp()) > 50 AS left FROM leases WHERE replica = 'replica-a'`),
    ).toEqual({ left: true })
    expect(await a.get(`SELECT clock_timestamp() - seen_at < interval '5 seconds' AS recent FROM replicas WHERE id = 'replica-a'`)).toEqual({ recent: true })
  })

  it('does not bring back a lease that lapsed before its renewal', async () => {
    expect(await acquireLease(a, lease({ accountCap: 1, ttlMs: 100 }))).toBe('ok')
    await sleep(200)
    expect(await renewLeases(a, 'replica-a', 60_000)).toBe(0)
    expect(await acquireLease(b, lease({ accountCap: 1, replica: 'replica-b' }))).toBe('ok')
  })

  it('releases a slot once; releasing again, or an unknown lease, does nothing', async () => {
    const held = lease({ accountCap: 1 })
    expect(await acquireLease(a, held)).toBe('ok')
    await releaseLease(a, held.leaseId)
    await releaseLease(b, held.leaseId)
    await releaseLease(a, 'never-taken')
    expect(await acquireLease(b, lease({ accountCap: 1, replica: 'replica-b' }))).toBe('ok')
    expect(await acquireLease(a, lease({ accountCap: 1 }))).toBe('account')
  })
})
