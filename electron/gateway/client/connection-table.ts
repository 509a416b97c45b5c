import { BlockList, isIPv4, type Socket } from 'node:net'

/** The caps of `limits` (config `limits.maxConnections`, `limits.maxConnectionsPerAddress`). */
export interface ConnectionLimits {
  /** open client connections at once */
  maxConnections: number
  /** open connections from one client address (an IPv6 client's /64); loopback clients are not counted by address */
  maxConnectionsPerAddress: number
}

/**
 * Where a connection stands. `waiting`: no request of it is being served (silent, a head still arriving, junk not yet
 * refused, or idle between keep-alive requests). `busy`: a request head arrived and its answer is not finished.
 * `closing`: answered with an error and closing; it takes nothing but a file descriptor until then.
 */
type Stage = 'waiting' | 'busy' | 'closing'

interface Entry {
  /** the address it counts against, or undefined for loopback (every local client shares 127.0.0.1) */
  address: string | undefined
  stage: Stage
  /** requests of it being served (HTTP/1.1 pipelining may queue several) */
  requests: number
}

const LOOPBACK = new BlockList()
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4')
LOOPBACK.addAddress('::1', 'ipv6')

/**
 * The address a connection counts against: the IPv4 address (also when IPv4-mapped), the /64 of an IPv6 one (one host
 * is often given a whole /64), or undefined for loopback. The text is the kernel's (inet_ntop), never a client's.
 */
export function addressKey(remoteAddress: string | undefined): string | undefined {
  if (remoteAddress === undefined) return undefined
  const address = remoteAddress.toLowerCase().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '')
  if (isIPv4(address)) return LOOPBACK.check(address, 'ipv4') ? undefined : address
  const bare = address.split('%')[0]
  if (LOOPBACK.check(bare, 'ipv6')) return undefined
  const [head, tail] = bare.split('::')
  const left = head === '' ? [] : head.split(':')
  const right = tail === undefined || tail === '' ? [] : tail.split(':')
  // A trailing dotted quad is two groups; '::' stands for the zero groups the others leave out of eight.
  const rightGroups = right.length + (right.at(-1)?.includes('.') ? 1 : 0)
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - rightGroups).fill('0'), ...right]
  return `${groups.slice(0, 4).map((g) => parseInt(g, 16).toString(16)).join(':')}::/64`
}

/**
 * The gateway's own connection accounting, in place of Node's `server.maxConnections` (which refuses a newcomer
 * while the cap is full of connections that are served nothing). At the cap, a new connection takes the place of
 * one that is not being served: the oldest answered-and-closing one, else the one that has waited longest without a
 * request being served. Only when every connection is being served is the newcomer closed at once. So silent, junk
 * or slow-head connections never lock clients out; only requests being answered can fill the cap. Per address the
 * same rule applies within `maxConnectionsPerAddress`.
 */
export function createConnectionTable(limits: ConnectionLimits) {
  const entries = new Map<Socket, Entry>()
  /** not being served, in the order they became so (oldest first); closing ones go before waiting ones */
  const closing = new Set<Socket>()
  const waiting = new Set<Socket>()
  const perAddress = new Map<string, number>()

  function forget(socket: Socket): void {
    const entry = entries.get(socket)
    if (!entry) return
    entries.delete(socket)
    closing.delete(socket)
    waiting.delete(socket)
    if (entry.address !== undefined) {
      const left = perAddress.get(entry.address)! - 1
      if (left === 0) perAddress.delete(entry.address)
      else perAddress.set(entry.address, left)
    }
  }

  /** The connection to drop for a newcomer (of `address` only, when given), or undefined when all are being served. */
  function victim(address?: string): Socket | undefined {
    for (const set of [closing, waiting]) {
      for (const socket of set) if (address === undefined || entries.get(socket)!.address === address) return socket
    }
    return undefined
  }

  /** Drops the connection `victim` names when `over`; false when there is none to drop. */
  function makeRoom(over: boolean, address?: string): boolean {
    if (!over) return true
    const old = victim(address)
    if (old === undefined) return false
    forget(old)
    old.destroy()
    return true
  }

  return {
    /** A new connection: true when it is kept; false when it was closed because every connection is being served. */
    admit(socket: Socket): boolean {
      const address = addressKey(socket.remoteAddress)
      const addressFull = address !== undefined && (perAddress.get(address) ?? 0) >= limits.maxConnectionsPerAddress
      if (!makeRoom(addressFull, address) || !makeRoom(entries.size >= limits.maxConnections)) {
        socket.destroy()
        return false
      }
      entries.set(socket, { address, stage: 'waiting', requests: 0 })
      waiting.add(socket)
      if (address !== undefined) perAddress.set(address, (perAddress.get(address) ?? 0) + 1)
      socket.once('close', () => forget(socket))
      return true
    },
    /** A request head arrived: the connection is being served until its answer ends. */
    requestStarted(socket: Socket): void {
      const entry = entries.get(socket)
      if (!entry || entry.stage === 'closing') return
      entry.requests++
      entry.stage = 'busy'
      waiting.delete(socket)
    },
    /** An answer ended (sent, or cut): with no other request of it left, the connection waits again, as the newest. */
    requestEnded(socket: Socket): void {
      const entry = entries.get(socket)
      if (!entry || entry.stage !== 'busy' || --entry.requests > 0) return
      entry.stage = 'waiting'
      waiting.add(socket)
    },
    /** Answered with an error and closing: the first to go when room is needed. */
    closing(socket: Socket): void {
      const entry = entries.get(socket)
      if (!entry) return
      entry.stage = 'closing'
      waiting.delete(socket)
      closing.add(socket)
    },
    isClosing: (socket: Socket) => entries.get(socket)?.stage === 'closing',
    /** Open connections counted (a destroyed one leaves at once, before its 'close'). */
    size: () => entries.size,
  }
}

export type ConnectionTable = ReturnType<typeof createConnectionTable>
