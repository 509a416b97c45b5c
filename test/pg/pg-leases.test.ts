import type pg from 'pg'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { acquireLease, releaseLease, releaseLeases, renewLeases, type LeaseRequest } from '../../electron/gateway/store/pg-leases.js'
import type { ApiKey } from '../../electron/gateway/contract/accounts.js'
import type { Registry } from '../../electron/gateway/registry.js'
import { migratePg } from '../../electron/gateway/store/pg-schema.js'
import { createLeaseLimiter, RELEASE_WAIT_MS } from '../../electron/gateway/team/lease-limiter.js'
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

  it('releases the leases of requests that ended together in one statement', async () => {
    const held = [lease({ accountCap: 3 }), lease({ accountCap: 3 }), lease({ accountCap: 3 })]
    for (const l of held) expect(await acquireLease(a, l)).toBe('ok')
    await releaseLeases(b, [held[0].leaseId, held[2].leaseId, 'never-taken'])
    expect(await a.all('SELECT id FROM leases')).toEqual([{ id: held[1].leaseId }])
    expect(await acquireLease(b, lease({ accountCap: 3, replica: 'replica-b' }))).toBe('ok')
    expect(await acquireLease(b, lease({ accountCap: 3, replica: 'replica-b' }))).toBe('ok')
    expect(await acquireLease(a, lease({ accountCap: 3 }))).toBe('account')
  })
})

describe('lease slots: no lock shared by every acquire, caps still exact', () => {
  it('grants exactly both caps when 60 requests of three keys race over two replicas', async () => {
    // key-1 and key-2 have caps of 4 that bind; key-3 has none; the account's cap is 10.
    const keyOf = (i: number) => `key-${(i % 3) + 1}`
    const outcomes = await Promise.all(
      Array.from({ length: 60 }, (_, i) => {
        const keyId = keyOf(i)
        const request = lease({ keyId, keyCap: keyId === 'key-3' ? null : 4, accountCap: 10, replica: i % 2 ? 'replica-b' : 'replica-a' })
        return acquireLease(i % 2 ? b : a, request).then((outcome) => ({ keyId, outcome }))
      }),
    )
    const granted = (keyId: string) => outcomes.filter((o) => o.keyId === keyId && o.outcome === 'ok').length
    expect(granted('key-1')).toBeLessThanOrEqual(4)
    expect(granted('key-2')).toBeLessThanOrEqual(4)
    expect(outcomes.filter((o) => o.outcome === 'ok').length).toBe(10)
    // Each slot is held once: the account's 0-9, and each key's 0-3.
    expect(await a.all('SELECT slot FROM leases ORDER BY slot')).toEqual(Array.from({ length: 10 }, (_, slot) => ({ slot })))
    const keySlots = await a.all<{ key_id: string; n: number; distinct_slots: number; top: number | null }>(
      "SELECT key_id, count(*)::int AS n, count(DISTINCT key_slot)::int AS distinct_slots, max(key_slot) AS top FROM leases WHERE key_id <> 'key-3' GROUP BY key_id",
    )
    for (const k of keySlots) {
      expect(k.distinct_slots).toBe(k.n)
      expect(k.top).toBeLessThan(4)
    }
    expect(await a.get("SELECT count(*)::int AS n FROM leases WHERE key_id = 'key-3' AND key_slot IS NOT NULL")).toEqual({ n: 0 })
  })

  it('a cap lowered below the slots in use admits nothing more until the requests in flight fit it', async () => {
    const held = Array.from({ length: 4 }, () => lease({ accountCap: 4 }))
    for (const l of held) expect(await acquireLease(a, l)).toBe('ok')
    // The cap falls to 2: four in flight, so nothing is admitted until two of them end.
    expect(await acquireLease(b, lease({ accountCap: 2, replica: 'replica-b' }))).toBe('account')
    const bySlot = await a.all<{ id: string }>('SELECT id FROM leases ORDER BY slot')
    await releaseLeases(a, [bySlot[0].id, bySlot[1].id])
    // Two left, in slots 2 and 3, beyond the new cap: still full.
    expect(await acquireLease(b, lease({ accountCap: 2, replica: 'replica-b' }))).toBe('account')
    await releaseLease(a, bySlot[2].id)
    expect(await acquireLease(b, lease({ accountCap: 2, replica: 'replica-b' }))).toBe('ok')
    expect(await acquireLease(b, lease({ accountCap: 2, replica: 'replica-b' }))).toBe('account')
  })

  it("a key's cap lowered below its slots in use is the cap named until its requests fit it", async () => {
    for (let i = 0; i < 3; i++) expect(await acquireLease(a, lease({ keyCap: 3, accountCap: 10 }))).toBe('ok')
    expect(await acquireLease(b, lease({ keyCap: 2, accountCap: 10, replica: 'replica-b' }))).toBe('key')
    // The requests in the key's slots 0 and 1 end; the one in slot 2, beyond the new cap, still counts.
    const byKeySlot = await a.all<{ id: string }>('SELECT id FROM leases ORDER BY key_slot')
    await releaseLeases(a, [byKeySlot[0].id, byKeySlot[1].id])
    expect(await acquireLease(b, lease({ keyCap: 2, accountCap: 10, replica: 'replica-b' }))).toBe('ok')
    expect(await acquireLease(b, lease({ keyCap: 2, accountCap: 10, replica: 'replica-b' }))).toBe('key')
    // Another key is not held back by it.
    expect(await acquireLease(b, lease({ keyId: 'key-2', keyCap: 2, accountCap: 10, replica: 'replica-b' }))).toBe('ok')
  })

  it('counts a lease taken without a slot (before slots existed) against both caps', async () => {
    await a.run("INSERT INTO leases (id, replica, key_id, expires_at) VALUES ('unslotted', 'replica-old', 'key-1', clock_timestamp() + interval '1 minute')")
    expect(await acquireLease(a, lease({ keyCap: 2, accountCap: 2 }))).toBe('ok')
    expect(await acquireLease(b, lease({ keyCap: 2, accountCap: 2, replica: 'replica-b' }))).toBe('key')
    expect(await acquireLease(b, lease({ keyId: 'key-2', accountCap: 2, replica: 'replica-b' }))).toBe('account')
    await releaseLease(a, 'unslotted')
    expect(await acquireLease(b, lease({ keyId: 'key-2', accountCap: 2, replica: 'replica-b' }))).toBe('ok')
  })
})

describe("a replica's lease limiter: the next call right after an answer", () => {
  const key = { id: 'key-1', concurrency: 1 } as unknown as ApiKey
  const registry = { account: { concurrency: 10 } } as unknown as Registry
  /** A limiter whose give-backs go out after `delayMs` (never, for Infinity), as a busy ledger commit may. */
  const limiter = (delayMs: number) => createLeaseLimiter({
    sql: a, replica: 'replica-a', registry, ttlMs: 60_000, log: () => {},
    giveBack: async (ids) => {
      if (delayMs === Infinity) return new Promise<void>(() => {})
      await sleep(delayMs)
      await releaseLeases(a, ids)
    },
  })

  it("is not refused for the slot its own last request is still giving back: it waits for the release and takes the slot", async () => {
    const leases = limiter(300)
    const release = await leases.acquire(key, `lease_${++next}`)
    release()
    const started = Date.now()
    const again = await leases.acquire(key, `lease_${++next}`)
    expect(Date.now() - started).toBeGreaterThanOrEqual(250)
    expect(leases.inFlight()).toBe(1)
    again()
    await leases.settled()
    expect(leases.inFlight()).toBe(0)
  })

  it(`waits at most ${RELEASE_WAIT_MS} ms for a release that does not come, then answers 429 apikey_concurrency_limit`, async () => {
    const leases = limiter(Infinity)
    ;(await leases.acquire(key, `lease_${++next}`))()
    const started = Date.now()
    const refused = await leases.acquire(key, `lease_${++next}`).catch((err: unknown) => err)
    expect(Date.now() - started).toBeGreaterThanOrEqual(RELEASE_WAIT_MS - 20)
    expect(refused).toMatchObject({ status: 429, code: 'apikey_concurrency_limit' })
  })

  it('a slot held by a request under way is refused at once', async () => {
    const leases = limiter(0)
    await leases.acquire(key, `lease_${++next}`)
    const started = Date.now()
    const refused = await leases.acquire(key, `lease_${++next}`).catch((err: unknown) => err)
    expect(Date.now() - started).toBeLessThan(RELEASE_WAIT_MS / 2)
    expect(refused).toMatchObject({ status: 429, code: 'apikey_concurrency_limit' })
  })
})
