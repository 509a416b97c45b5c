import { describe, expect, it } from 'vitest'
import { createSessionTable, DEFAULT_SESSION_LIMITS } from '../../../../electron/gateway/admin/session-table.js'

const clock = () => {
  let t = 1_000_000
  return { now: () => t, advance: (ms: number) => void (t += ms) }
}

describe('session table', () => {
  it('defaults to 30 idle minutes, 12 hours and 32 sessions', () => {
    expect(DEFAULT_SESSION_LIMITS).toEqual({ idleMs: 30 * 60_000, lifetimeMs: 12 * 3_600_000, max: 32 })
  })

  it('opens sessions with three distinct 256-bit secrets', () => {
    const s = createSessionTable(DEFAULT_SESSION_LIMITS).open()
    for (const secret of [s.id, s.token, s.mediaToken]) expect(secret).toMatch(/^[\w-]{43}$/)
    expect(new Set([s.id, s.token, s.mediaToken]).size).toBe(3)
  })

  it('forgets a session idle for idleMs; each use starts the idle time again', () => {
    const c = clock()
    const table = createSessionTable({ idleMs: 100, lifetimeMs: 10_000, max: 4 }, c.now)
    const s = table.open()
    for (let i = 0; i < 5; i++) {
      c.advance(99)
      expect(table.find(s.id)).toBe(s)
      table.touch(s)
    }
    c.advance(100)
    expect(table.find(s.id)).toBeUndefined()
    expect(table.size).toBe(0)
  })

  it('forgets a session at the end of its lifetime, however busy', () => {
    const c = clock()
    const table = createSessionTable({ idleMs: 100, lifetimeMs: 250, max: 4 }, c.now)
    const s = table.open()
    c.advance(90)
    table.touch(s)
    c.advance(90)
    table.touch(s)
    c.advance(69)
    expect(table.find(s.id)).toBe(s)
    table.touch(s)
    c.advance(1)
    expect(table.find(s.id)).toBeUndefined()
  })

  it('evicts the oldest session when full, after forgetting the expired ones', () => {
    const c = clock()
    const table = createSessionTable({ idleMs: 100, lifetimeMs: 10_000, max: 3 }, c.now)
    const [a, b, d] = [table.open(), table.open(), table.open()]
    c.advance(10)
    table.touch(a) // a use does not make a session younger: eviction goes by age
    const e = table.open()
    expect([a, b, d, e].map((s) => table.find(s.id) !== undefined)).toEqual([false, true, true, true])
    c.advance(100) // all expire; the next one evicts nothing live
    const f = table.open()
    expect(table.size).toBe(1)
    expect(table.find(f.id)).toBe(f)
  })

  it('closes a session', () => {
    const table = createSessionTable(DEFAULT_SESSION_LIMITS)
    const s = table.open()
    table.close(s.id)
    expect(table.find(s.id)).toBeUndefined()
  })

  it('reports every session it forgets, once (signed out, expired when found or swept, evicted), and when a live one expires', () => {
    const c = clock()
    const forgotten: string[] = []
    const table = createSessionTable({ idleMs: 100, lifetimeMs: 250, max: 2 }, c.now, (id) => forgotten.push(id))
    const [a, b] = [table.open(), table.open()]
    expect([table.endsAt(a.id), table.endsAt(b.id)]).toEqual([1_000_100, 1_000_100])
    c.advance(60)
    table.touch(b)
    // idle: 100 ms after the last use; the lifetime caps it
    expect(table.endsAt(b.id)).toBe(1_000_160)
    const d = table.open() // evicts a, the oldest
    expect(forgotten).toEqual([a.id])
    table.close(b.id)
    table.close(b.id)
    expect(forgotten).toEqual([a.id, b.id])
    c.advance(100)
    expect(table.endsAt(d.id)).toBeUndefined() // idle for 100 ms: it has ended, and is forgotten now
    const e = table.open()
    c.advance(100)
    table.open() // sweeps e, expired
    expect(forgotten).toEqual([a.id, b.id, d.id, e.id])
    expect(table.endsAt('no-such-session')).toBeUndefined()
    expect(forgotten).toHaveLength(4)
  })
})
