import { EventEmitter } from 'node:events'
import type { Socket } from 'node:net'
import { describe, expect, it } from 'vitest'
import { addressKey, createConnectionTable } from '../../../electron/gateway/client/connection-table.js'

/** What the table uses of a socket: its peer's address, destroy(), and 'close' (which destroy emits, as a socket's does). */
class FakeSocket extends EventEmitter {
  destroyed = false
  constructor(readonly remoteAddress: string) {
    super()
  }
  destroy(): this {
    if (!this.destroyed) {
      this.destroyed = true
      queueMicrotask(() => this.emit('close'))
    }
    return this
  }
}

const socketFrom = (address: string) => new FakeSocket(address) as unknown as Socket & FakeSocket

describe('addressKey', () => {
  it.each([
    ['192.0.2.7', '192.0.2.7'],
    ['::ffff:192.0.2.7', '192.0.2.7'],
    ['127.0.0.1', undefined],
    ['127.3.2.1', undefined],
    ['::ffff:127.0.0.1', undefined],
    ['::1', undefined],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::9', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2::A', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:db8:0:0:1::1', '2001:db8:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::', '0:0:0:0::/64'],
    ['64:ff9b::192.0.2.1', '64:ff9b:0:0::/64'],
    [undefined, undefined],
  ])('%s counts against %s', (address, key) => {
    expect(addressKey(address)).toBe(key)
  })
})

describe('the connection table', () => {
  it('at the cap, a newcomer takes the place of the oldest connection being served nothing', () => {
    const table = createConnectionTable({ maxConnections: 3, maxConnectionsPerAddress: 3 })
    const [a, b, c, d] = ['127.0.0.1', '127.0.0.1', '127.0.0.1', '127.0.0.1'].map(socketFrom)
    for (const s of [a, b, c]) expect(table.admit(s)).toBe(true)
    table.requestStarted(a)
    expect(table.admit(d)).toBe(true)
    expect([a.destroyed, b.destroyed, c.destroyed, d.destroyed]).toEqual([false, true, false, false])
    expect(table.size()).toBe(3)
  })

  it('connections answered with an error go first; a connection idle again counts as the newest', () => {
    const table = createConnectionTable({ maxConnections: 3, maxConnectionsPerAddress: 3 })
    const [a, b, c, d, e] = Array.from({ length: 5 }, () => socketFrom('127.0.0.1'))
    for (const s of [a, b, c]) table.admit(s)
    table.closing(c)
    table.admit(d)
    expect(c.destroyed).toBe(true)
    // a served a request and waits again: b has waited longest.
    table.requestStarted(a)
    table.requestEnded(a)
    table.admit(e)
    expect([a.destroyed, b.destroyed, d.destroyed, e.destroyed]).toEqual([false, true, false, false])
  })

  it('pipelined requests: the connection is served until the last answer ends', () => {
    const table = createConnectionTable({ maxConnections: 1, maxConnectionsPerAddress: 1 })
    const [a, b, c] = Array.from({ length: 3 }, () => socketFrom('127.0.0.1'))
    table.admit(a)
    table.requestStarted(a)
    table.requestStarted(a)
    table.requestEnded(a)
    expect(table.admit(b)).toBe(false)
    table.requestEnded(a)
    expect(table.admit(c)).toBe(true)
    expect([a.destroyed, b.destroyed, c.destroyed]).toEqual([true, true, false])
  })

  it('when every connection is being served, the newcomer is closed at once', () => {
    const table = createConnectionTable({ maxConnections: 2, maxConnectionsPerAddress: 2 })
    const [a, b, c] = Array.from({ length: 3 }, () => socketFrom('127.0.0.1'))
    for (const s of [a, b]) {
      table.admit(s)
      table.requestStarted(s)
    }
    expect(table.admit(c)).toBe(false)
    expect([a.destroyed, b.destroyed, c.destroyed]).toEqual([false, false, true])
    expect(table.size()).toBe(2)
  })

  it('a request that completes on a connection answered with an error does not make it served', () => {
    const table = createConnectionTable({ maxConnections: 1, maxConnectionsPerAddress: 1 })
    const [a, b] = [socketFrom('127.0.0.1'), socketFrom('127.0.0.1')]
    table.admit(a)
    table.closing(a)
    table.requestStarted(a)
    expect(table.isClosing(a)).toBe(true)
    expect(table.admit(b)).toBe(true)
    expect(a.destroyed).toBe(true)
  })

  it('one address holds at most maxConnectionsPerAddress; its own oldest idle connection makes room, never another address\'s', () => {
    const table = createConnectionTable({ maxConnections: 10, maxConnectionsPerAddress: 2 })
    const other = socketFrom('198.51.100.1')
    const [a, b, c] = Array.from({ length: 3 }, () => socketFrom('192.0.2.7'))
    table.admit(other)
    table.admit(a)
    table.admit(b)
    expect(table.admit(c)).toBe(true)
    expect([other.destroyed, a.destroyed, b.destroyed, c.destroyed]).toEqual([false, true, false, false])
    table.requestStarted(b)
    table.requestStarted(c)
    const d = socketFrom('::ffff:192.0.2.7')
    expect(table.admit(d)).toBe(false)
    expect(other.destroyed).toBe(false)
  })

  it('an IPv6 client counts by its /64', () => {
    const table = createConnectionTable({ maxConnections: 10, maxConnectionsPerAddress: 2 })
    const mine = ['2001:db8:1:2::1', '2001:db8:1:2::2', '2001:db8:1:2:ffff::3'].map(socketFrom)
    for (const s of mine) {
      table.admit(s)
      table.requestStarted(s)
    }
    expect(mine.map((s) => s.destroyed)).toEqual([false, false, true])
    expect(table.admit(socketFrom('2001:db8:1:3::1'))).toBe(true)
  })

  it('loopback clients share 127.0.0.1: only maxConnections applies to them', () => {
    const table = createConnectionTable({ maxConnections: 5, maxConnectionsPerAddress: 1 })
    const local = ['127.0.0.1', '127.0.0.1', '::1', '::ffff:127.0.0.1', '127.0.0.2'].map(socketFrom)
    for (const s of local) {
      expect(table.admit(s)).toBe(true)
      table.requestStarted(s)
    }
    expect(table.size()).toBe(5)
  })

  it('a closed connection leaves the table and its address\'s count', async () => {
    const table = createConnectionTable({ maxConnections: 10, maxConnectionsPerAddress: 1 })
    const a = socketFrom('192.0.2.7')
    table.admit(a)
    table.requestStarted(a)
    a.destroy()
    await new Promise((resolve) => setImmediate(resolve))
    expect(table.size()).toBe(0)
    const b = socketFrom('192.0.2.7')
    table.admit(b)
    table.requestStarted(b)
    expect(b.destroyed).toBe(false)
  })
})
