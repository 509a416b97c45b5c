/**
 * Links the gateway fetches on someone's behalf (reference images, vendors' result links) must not reach the
 * machine itself, the LAN or a cloud metadata service. The RESOLVED address is checked (a DNS name that
 * resolves to 127.0.0.1 is refused like 127.0.0.1), on every redirect hop. Upstream API base URLs the user
 * configured are not links and are never checked here.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns'
import { BlockList, isIP } from 'node:net'

/** Refused whatever the settings say: link-local, metadata services, unspecified, multicast and broadcast. */
const ALWAYS_REFUSED = new BlockList()
ALWAYS_REFUSED.addSubnet('169.254.0.0', 16, 'ipv4') // link-local, including 169.254.169.254 (AWS, GCP, Azure)
ALWAYS_REFUSED.addAddress('100.100.100.200', 'ipv4') // Alibaba Cloud metadata
ALWAYS_REFUSED.addSubnet('0.0.0.0', 8, 'ipv4')
ALWAYS_REFUSED.addSubnet('224.0.0.0', 4, 'ipv4')
ALWAYS_REFUSED.addSubnet('240.0.0.0', 4, 'ipv4') // reserved, and 255.255.255.255
ALWAYS_REFUSED.addSubnet('fe80::', 10, 'ipv6')
ALWAYS_REFUSED.addAddress('fd00:ec2::254', 'ipv6') // AWS metadata over IPv6
ALWAYS_REFUSED.addAddress('::', 'ipv6')
ALWAYS_REFUSED.addSubnet('ff00::', 8, 'ipv6')

/** Refused unless `network.allowPrivateAddresses` (a vendor-compatible server on the LAN or this machine). */
const PRIVATE = new BlockList()
PRIVATE.addSubnet('127.0.0.0', 8, 'ipv4')
PRIVATE.addSubnet('10.0.0.0', 8, 'ipv4')
PRIVATE.addSubnet('172.16.0.0', 12, 'ipv4')
PRIVATE.addSubnet('192.168.0.0', 16, 'ipv4')
PRIVATE.addSubnet('100.64.0.0', 10, 'ipv4') // carrier-grade NAT
PRIVATE.addAddress('::1', 'ipv6')
PRIVATE.addSubnet('fc00::', 7, 'ipv6')

/** True when a link may not reach `address` (IPv4-mapped IPv6 addresses are judged as their IPv4). */
export function isRefusedAddress(address: string, allowPrivate: boolean): boolean {
  const family = isIP(address)
  if (family === 0) return true
  const type = family === 4 ? 'ipv4' : 'ipv6'
  return ALWAYS_REFUSED.check(address, type) || (!allowPrivate && PRIVATE.check(address, type))
}

/** A link whose host is, or resolves to, an address links may not reach. */
export class LinkRefusedError extends Error {
  constructor(readonly address: string) {
    super(`points to a private or reserved address (${address}), which the gateway does not fetch`)
  }
}

/** Why a link may not be fetched before any connection (scheme, IP-literal host), or undefined. */
export function linkProblem(url: URL, allowPrivate: boolean): string | undefined {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'is not an http(s) link'
  const host = url.hostname.replace(/^\[|\]$/g, '')
  // IP literals never go through the lookup below, so they are judged here.
  if (isIP(host) !== 0 && isRefusedAddress(host, allowPrivate)) return new LinkRefusedError(host).message
  return undefined
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void

/**
 * A `lookup` for the link agent's sockets: resolves as usual, drops the addresses links may not reach, and
 * fails the connection when none is left. Checking here (not before the request) leaves no window for a
 * name to resolve differently between the check and the connection.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '')
      const allowed = addresses.filter((a) => !isRefusedAddress(a.address, allowPrivate))
      if (allowed.length === 0) return callback(new LinkRefusedError(addresses[0]?.address ?? hostname), '')
      if (options.all) return callback(null, allowed)
      callback(null, allowed[0].address, allowed[0].family)
    })
  }
}
