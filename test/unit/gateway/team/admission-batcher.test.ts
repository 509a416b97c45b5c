// Team mode's admissions in round trips of their own (team/lease-limiter.ts admissionBatcher): one asked for while
// nothing is in flight goes at once, else those asked for in one turn of the event loop go together at its end, and
// those asked for while one is under way together next, at most ADMISSION_BATCH at a time, each answered its own outcome.
import { describe, expect, it } from 'vitest'
import type { Admitted, HoldAsked } from '../../../../electron/gateway/store/holds.js'
import type { LeaseRequest } from '../../../../electron/gateway/store/pg-leases.js'
import { ADMISSION_BATCH, admissionBatcher } from '../../../../electron/gateway/team/lease-limiter.js'

type Asked = ReadonlyArray<{ lease: LeaseRequest; hold: HoldAsked }>
/** A database call the test answers by hand: each batch sent, and how to answer it. */
function fakeDatabase() {
  const calls: Array<{ ids: string[]; answer: (a: Admitted[] | Error) => void }> = []
  const admit = (asked: Asked) => new Promise<Admitted[]>((resolve, reject) => {
    calls.push({ ids: asked.map((a) => a.lease.leaseId), answer: (a) => (a instanceof Error ? reject(a) : resolve(a)) })
  })
  return { calls, admit }
}
const lease = (id: string): LeaseRequest => ({ leaseId: id, replica: 'r', keyId: 'k', keyCap: null, accountCap: 512, ttlMs: 60_000 })
const hold = (id: string): HoldAsked => ({ id, keyId: 'k', amountNano: 1, upstreamIds: [] })
const held: Admitted = { lease: 'ok', taken: { kind: 'held', unbudgeted: [] } }
const tick = () => new Promise((resolve) => setImmediate(resolve))

describe('admissionBatcher', () => {
  it('sends those asked for in one turn together at its end; those asked for meanwhile go together next, each answered its own outcome', async () => {
    const db = fakeDatabase()
    const take = admissionBatcher(db.admit)
    const first = [take(lease('a'), hold('a')), take(lease('b'), hold('b'))]
    expect(db.calls).toHaveLength(0)
    await tick()
    expect(db.calls.map((c) => c.ids)).toEqual([['a', 'b']])
    const rest = ['c', 'd', 'e'].map((id) => take(lease(id), hold(id)))
    await tick()
    expect(db.calls).toHaveLength(1)
    db.calls[0].answer([held, held])
    expect(await Promise.all(first)).toEqual([held, held])
    await tick()
    expect(db.calls.map((c) => c.ids)).toEqual([['a', 'b'], ['c', 'd', 'e']])
    const refused: Admitted = { lease: 'account' }
    const short: Admitted = { lease: 'ok', taken: { kind: 'insufficient', limit: 'balance', availableNano: 0 } }
    db.calls[1].answer([held, refused, short])
    expect(await Promise.all(rest)).toEqual([held, refused, short])
  })

  it('sends one asked for while nothing is in flight at once; with requests in flight, at the end of the turn', async () => {
    const db = fakeDatabase()
    let inFlight = 0
    const take = admissionBatcher(db.admit, () => inFlight === 0)
    const alone = take(lease('a'), hold('a'))
    expect(db.calls.map((c) => c.ids)).toEqual([['a']])
    db.calls[0].answer([held])
    expect(await alone).toEqual(held)
    inFlight = 1
    const together = [take(lease('b'), hold('b')), take(lease('c'), hold('c'))]
    expect(db.calls).toHaveLength(1)
    await tick()
    expect(db.calls.map((c) => c.ids)).toEqual([['a'], ['b', 'c']])
    db.calls[1].answer([held, held])
    expect(await Promise.all(together)).toEqual([held, held])
  })

  it(`takes at most ${ADMISSION_BATCH} in one call; the rest go in the next`, async () => {
    const db = fakeDatabase()
    const take = admissionBatcher(db.admit)
    const first = take(lease('first'), hold('first'))
    await tick()
    const ids = Array.from({ length: ADMISSION_BATCH + 6 }, (_, i) => `r${i}`)
    const all = ids.map((id) => take(lease(id), hold(id)))
    db.calls[0].answer([held])
    await first
    await tick()
    expect(db.calls[1].ids).toEqual(ids.slice(0, ADMISSION_BATCH))
    db.calls[1].answer(ids.slice(0, ADMISSION_BATCH).map(() => held))
    await tick()
    expect(db.calls[2].ids).toEqual(ids.slice(ADMISSION_BATCH))
    db.calls[2].answer(ids.slice(ADMISSION_BATCH).map(() => held))
    expect(await Promise.all(all)).toHaveLength(ADMISSION_BATCH + 6)
    expect(db.calls).toHaveLength(3)
  })

  it("a call that fails is each of its admissions' error, and the next call still goes out", async () => {
    const db = fakeDatabase()
    const take = admissionBatcher(db.admit)
    const first = take(lease('a'), hold('a'))
    await tick()
    const second = [take(lease('b'), hold('b')), take(lease('c'), hold('c'))]
    db.calls[0].answer(new Error('connection reset'))
    await expect(first).rejects.toThrow('connection reset')
    await tick()
    db.calls[1].answer(new Error('still down'))
    for (const p of second) await expect(p).rejects.toThrow('still down')
    const later = take(lease('d'), hold('d'))
    await tick()
    expect(db.calls.map((c) => c.ids)).toEqual([['a'], ['b', 'c'], ['d']])
    db.calls[2].answer([held])
    expect(await later).toEqual(held)
  })
})
