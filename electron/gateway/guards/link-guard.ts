/**
 * Links the gateway fetches on someone's behalf (reference images, vendors' result links) must not reach the
 * machine itself, the LAN or a cloud metadata service. Which addresses are which: special-addresses.ts. The
 * RESOLVED address is checked (a DNS name that resolves to 127.0.0.1 is refused like 127.0.0.1), and so is the
 * address each socket actually connected to, on every redirect hop. Upstream API base URLs the user configured are
 * not links and are never checked here.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns'
import { isIP } from 'node:net'
import { buildConnector } from 'undici'
import { addressReach, isLinkLocalOrMetadata } from './special-addresses.js'

/**
 * True when a link may not reach `address`: always for link-local, metadata, reserved … addresses and anything
 * that is not an IP address; for loopback and private ones unless `allowPrivate`. Every spelling of an address
 * (IPv4 inside IPv6 included) gets the same answer.
 */
export function isRefusedAddress(address: string, allowPrivate: boolean): boolean {
  const reach = addressReach(address)
  return reach === 'refused' || (reach === 'private' && !allowPrivate)
}

/** A link whose host is, or resolves to, or connected to, an address links may not reach. */
export class LinkRefusedError extends Error {
  constructor(readonly address: string) {
    super(`points to a private or reserved address (${address}), which the gateway does not fetch`)
  }
}

/** Why a link may not be fetched before any connection (scheme, IP-literal host), or undefined. */
export function linkProblem(url: URL, allowPrivate: boolean): string | undefined {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'is not an http(s) link'
  // The URL parser has already turned 2130706433, 0177.0.0.1, 0x7f.1 and 127.1 into 127.0.0.1.
  const host = url.hostname.replace(/^\[|\]$/g, '')
  // IP literals never go through the lookup below, so they are judged here (and again once connected).
  if (isIP(host) !== 0 && isRefusedAddress(host, allowPrivate)) return new LinkRefusedError(host).message
  return undefined
}

/**
 * Why a base URL the user typed may not be called ("Test connection"), or undefined: like a configured upstream it
 * may be this machine, the LAN or a CGNAT address of one's own network; only link-local and metadata addresses are
 * refused, in every spelling.
 */
export function baseUrlProblem(url: URL): string | undefined {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'is not an http(s) link'
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (isIP(host) !== 0 && isLinkLocalOrMetadata(host)) return new LinkRefusedError(host).message
  return undefined
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void

/** Resolves a host name, as `dns.lookup` with `all: true` does. */
export type ResolveHost = (hostname: string, options: LookupOptions & { all: true }, callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void

/**
 * A `lookup` for the link agent's sockets: resolves with `resolve` (dns.lookup unless a test resolves names of
 * its own), drops the addresses links may not reach, and fails the connection when none is left. Checking here
 * (not before the request) leaves no window for a name to resolve differently between the check and the connection.
 */
export function guardedLookup(allowPrivate: boolean, resolve: ResolveHost = dnsLookup) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '')
      const allowed = addresses.filter((a) => !isRefusedAddress(a.address, allowPrivate))
      if (allowed.length === 0) return callback(new LinkRefusedError(addresses[0]?.address ?? hostname), '')
      if (options.all) return callback(null, allowed)
      callback(null, allowed[0].address, allowed[0].family)
    })
  }
}

/**
 * Wraps an undici connector: the address the socket actually connected to (IP-literal hosts included, which no
 * lookup sees) is judged before the socket is handed over for a request; a refused one is destroyed and the
 * connection fails with a LinkRefusedError. Over TLS this is after the handshake, still before any request byte.
 */
export function refuseConnectedAddress(connect: buildConnector.connector, allowPrivate: boolean): buildConnector.connector {
  return (options, callback) => {
    connect(options, (...args) => {
      const [err, socket] = args
      if (err) return callback(err, null)
      const address = socket.remoteAddress
      if (address !== undefined && !isRefusedAddress(address, allowPrivate)) return callback(null, socket)
      socket.destroy()
      callback(new LinkRefusedError(address ?? options.hostname), null)
    })
  }
}

/** The connector of the link agent: guarded lookup, then the connected address checked again. */
export function guardedConnector(allowPrivate: boolean, timeoutMs: number, resolve?: ResolveHost): buildConnector.connector {
  return refuseConnectedAddress(buildConnector({ timeout: timeoutMs, lookup: guardedLookup(allowPrivate, resolve) }), allowPrivate)
}
