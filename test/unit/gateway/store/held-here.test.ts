import { describe, expect, it } from 'vitest'
import { HeldHere } from '../../../../electron/gateway/store/held-here.js'

describe('HeldHere: the requests\' holds of one process, with their sums', () => {
  it('sums what is held in all, by key and by upstream account (leaving out the asking hold\'s own)', () => {
    const here = new HeldHere()
    here.add('r1', 'k1', 100)
    here.add('r2', 'k1', 30)
    here.add('r3', 'k2', 5)
    expect([here.total(), here.ofKey('k1'), here.ofKey('k2'), here.ofKey('k3')]).toEqual([135, 130, 5, 0])
    here.move('r1', 'a')
    here.move('r3', 'a')
    expect([here.onUpstream('a', 'none'), here.onUpstream('a', 'r1'), here.onUpstream('a', 'r3'), here.onUpstream('b', 'r1')]).toEqual([105, 5, 100, 0])
    // Moved on: off the first account, onto the next.
    here.move('r1', 'b')
    expect([here.onUpstream('a', 'none'), here.onUpstream('b', 'none')]).toEqual([5, 100])
    here.move('r1', null)
    expect(here.onUpstream('b', 'none')).toBe(0)
  })

  it('gives a hold back once: its amount leaves every sum; a second delete, or one of no hold, changes nothing', () => {
    const here = new HeldHere()
    here.add('r1', 'k1', 100)
    here.move('r1', 'a')
    here.add('r2', 'k1', 7)
    expect(here.delete('r1')).toBe(true)
    expect(here.delete('r1')).toBe(false)
    expect(here.delete('never')).toBe(false)
    expect([here.has('r1'), here.total(), here.ofKey('k1'), here.onUpstream('a', 'none')]).toEqual([false, 7, 7, 0])
    expect(here.get('r2')).toEqual({ keyId: 'k1', upstreamId: null, amountNano: 7 })
  })

  it('a hold taken again under the same id replaces the first (a fallback model holds at its own price)', () => {
    const here = new HeldHere()
    here.add('r1', 'k1', 100)
    here.move('r1', 'a')
    here.add('r1', 'k1', 40)
    expect([here.total(), here.ofKey('k1'), here.onUpstream('a', 'none')]).toEqual([40, 40, 0])
  })
})
