// Team mode's releases (team/lease-limiter.ts): the leases of requests that ended go back in the ledger's commits,
// one batch at a time: at once after a quiet moment, else RELEASE_SPACING_MS after the last batch went out, carrying
// every release asked for meanwhile.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ApiKey } from '../../../../electron/gateway/contract/accounts.js'
import type { Registry } from '../../../../electron/gateway/registry.js'
import type { Sql } from '../../../../electron/gateway/store/sql.js'
import { createLeaseLimiter, RELEASE_SPACING_MS } from '../../../../electron/gateway/team/lease-limiter.js'

/** A limiter whose database grants every lease; each batch given back is recorded with when it went out. */
function limiter() {
  const sent: Array<{ ids: readonly string[]; at: number }> = []
  const sql = { get: async () => ({ outcome: 'ok', limited: false }) } as unknown as Sql
  const registry = { account: { concurrency: 64 } } as unknown as Registry
  const leases = createLeaseLimiter({
    sql, replica: 'r', registry, ttlMs: 60_000, log: () => {},
    giveBack: async (ids) => void sent.push({ ids, at: performance.now() }),
  })
  const key = { id: 'k', concurrency: null } as unknown as ApiKey
  return { sent, take: (id: string) => leases.acquire(key, id), leases }
}
// The clock is the test's: `pass(ms)` runs what falls due within `ms` (0: the end of this turn).
const pass = (ms: number) => vi.advanceTimersByTimeAsync(ms)
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'performance'] })
})
afterEach(() => {
  vi.useRealTimers()
})

describe('the releases of team mode', () => {
  it('a release after a quiet moment goes at the end of its turn; those that follow wait for the spacing and go together', async () => {
    const { sent, take } = limiter()
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map(take))
    a()
    await pass(0)
    expect(sent.map((s) => s.ids)).toEqual([['a']])
    await pass(1)
    b()
    await pass(1)
    c()
    // Within the spacing: b and c wait for the next batch, which goes out RELEASE_SPACING_MS after the first.
    await pass(RELEASE_SPACING_MS - 3)
    expect(sent.map((s) => s.ids)).toEqual([['a']])
    await pass(1)
    expect(sent.map((s) => s.ids)).toEqual([['a'], ['b', 'c']])
    expect(sent[1].at - sent[0].at).toBe(RELEASE_SPACING_MS)
  })

  it('after a quiet moment as long as the spacing, the next release goes at once again', async () => {
    const { sent, take } = limiter()
    const [a, b] = await Promise.all(['a', 'b'].map(take))
    a()
    await pass(RELEASE_SPACING_MS)
    b()
    await pass(0)
    expect(sent.map((s) => s.ids)).toEqual([['a'], ['b']])
    expect(sent[1].at - sent[0].at).toBe(RELEASE_SPACING_MS)
  })

  it('settled() waits for a batch still waiting its turn', async () => {
    const { sent, take, leases } = limiter()
    const [a, b] = await Promise.all(['a', 'b'].map(take))
    a()
    b()
    let done = false
    void leases.settled().then(() => (done = true))
    await pass(0)
    expect([sent.map((s) => s.ids), done]).toEqual([[['a', 'b']], true])
    const [c] = await Promise.all(['c'].map(take))
    c()
    done = false
    void leases.settled().then(() => (done = true))
    await pass(RELEASE_SPACING_MS - 1)
    expect([sent.length, done]).toEqual([1, false])
    await pass(1)
    expect([sent.map((s) => s.ids), done]).toEqual([[['a', 'b'], ['c']], true])
  })
})
