/**
 * How far a link may reach an IP address, after the IANA IPv4 and IPv6 Special-Purpose Address Registries (and
 * the IPv6 Address Space registry: only 2000::/3 is global unicast). Three answers:
 * - `public`: anyone's server on the internet;
 * - `private`: this machine or the LAN (loopback, RFC 1918, unique local fc00::/7), reachable only with
 *   `network.allowPrivateAddresses`, for a vendor-compatible server of one's own;
 * - `refused`: never, whatever the settings (link-local, cloud metadata, unspecified, "this network", carrier-grade
 *   NAT, multicast, broadcast, reserved, documentation, benchmarking, site-local, discard, protocol assignments).
 *
 * An address takes the answer of the most specific range that holds it. An IPv6 address that carries an IPv4
 * address (mapped, compatible, translated, NAT64, 6to4, Teredo) is judged by what it carries too: the stricter
 * answer wins, so no spelling of 169.254.169.254 or 127.0.0.1 gets further than the address itself.
 */
import { isIPv4, isIPv6 } from 'node:net'

export type AddressReach = 'public' | 'private' | 'refused'

const STRICTNESS: Record<AddressReach, number> = { public: 0, private: 1, refused: 2 }
const stricter = (a: AddressReach, b: AddressReach): AddressReach => (STRICTNESS[b] > STRICTNESS[a] ? b : a)

/** The IPv4 addresses (as 32-bit numbers) an IPv6 address carries, read from its 128-bit value. */
type Carried = (value: bigint) => number[]

interface Range {
  prefix: bigint
  bits: number
  reach: AddressReach
  carries?: Carried
}

const low32 = (value: bigint): number => Number(value & 0xffffffffn)

/** Bits 16–47 (RFC 3056). */
const sixToFour: Carried = (value) => [Number((value >> 80n) & 0xffffffffn)]
/** The server in bits 32–63, the client in the last 32 bits, inverted (RFC 4380). */
const teredo: Carried = (value) => [Number((value >> 64n) & 0xffffffffn), (~low32(value)) >>> 0]
const lastBits: Carried = (value) => [low32(value)]

/**
 * IPv4, most specific range wins; an address in none of them is public. Public entries of the registry (AS112
 * 192.31.196.0/24 and 192.175.48.0/24, AMT 192.52.193.0/24) are not listed.
 */
const IPV4: Array<[cidr: string, reach: AddressReach]> = [
  ['0.0.0.0/8', 'refused'], // "this network" (RFC 791); a connection to 0.0.0.0 reaches this machine
  ['10.0.0.0/8', 'private'], // RFC 1918
  ['100.64.0.0/10', 'refused'], // shared address space, carrier-grade NAT (RFC 6598); Alibaba Cloud metadata 100.100.100.200
  ['127.0.0.0/8', 'private'], // loopback
  ['169.254.0.0/16', 'refused'], // link-local (RFC 3927); metadata 169.254.169.254 (AWS, GCP, Azure, Oracle …)
  ['172.16.0.0/12', 'private'], // RFC 1918
  ['192.0.0.0/24', 'refused'], // IETF protocol assignments (RFC 6890): DS-Lite, NAT64 discovery, PCP and TURN anycast
  ['192.0.2.0/24', 'refused'], // documentation TEST-NET-1 (RFC 5737)
  ['192.88.99.0/24', 'refused'], // 6to4 relay anycast, deprecated (RFC 7526)
  ['192.168.0.0/16', 'private'], // RFC 1918
  ['198.18.0.0/15', 'refused'], // benchmarking (RFC 2544)
  ['198.51.100.0/24', 'refused'], // documentation TEST-NET-2
  ['203.0.113.0/24', 'refused'], // documentation TEST-NET-3
  ['224.0.0.0/4', 'refused'], // multicast (RFC 5771)
  ['240.0.0.0/4', 'refused'], // reserved (RFC 1112), and the limited broadcast 255.255.255.255 (RFC 919)
]

/**
 * IPv6, most specific range wins; outside 2000::/3 (global unicast) only the ranges listed are anything but
 * refused. A range with `carries` is also judged by the IPv4 addresses it carries.
 */
const IPV6: Array<[cidr: string, reach: AddressReach, carries?: Carried]> = [
  ['::/0', 'refused'], // reserved by the IETF or unassigned, fe80::/10 link-local, 5f00::/16 SRv6 (RFC 9602) among them
  ['::/128', 'refused'], // unspecified
  ['::1/128', 'private'], // loopback
  ['::/96', 'public', lastBits], // IPv4-compatible, deprecated (RFC 4291), e.g. ::7f00:1
  ['::ffff:0:0/96', 'public', lastBits], // IPv4-mapped (RFC 4291)
  ['::ffff:0:0:0/96', 'public', lastBits], // IPv4-translated (RFC 2765)
  ['64:ff9b::/96', 'public', lastBits], // NAT64 well-known prefix (RFC 6052)
  // Local-use NAT64 (RFC 8215), not globally reachable. Used as a /96 the IPv4 is the last 32 bits; at another
  // prefix length it sits elsewhere (a local choice), so the rest of the /48 is refused.
  ['64:ff9b:1::/48', 'refused'],
  ['64:ff9b:1::/96', 'private', lastBits],
  ['100::/64', 'refused'], // discard-only (RFC 6666)
  ['2000::/3', 'public'], // global unicast
  ['2001::/23', 'refused'], // IETF protocol assignments (RFC 2928): benchmarking 2001:2::/48, ORCHID, AMT, anycast
  ['2001::/32', 'public', teredo], // Teredo (RFC 4380)
  ['2001:db8::/32', 'refused'], // documentation (RFC 3849)
  ['2002::/16', 'public', sixToFour], // 6to4 (RFC 3056)
  ['3fff::/20', 'refused'], // documentation (RFC 9637)
  ['fc00::/7', 'private'], // unique local (RFC 4193)
  ['fd00:ec2::254/128', 'refused'], // AWS metadata over IPv6
  ['fd20:ce::254/128', 'refused'], // Google Cloud metadata over IPv6
  ['fe80::/10', 'refused'], // link-local
  ['fec0::/10', 'refused'], // site-local, deprecated (RFC 3879)
  ['ff00::/8', 'refused'], // multicast
]

function ipv4Value(text: string): bigint | undefined {
  if (!isIPv4(text)) return undefined
  return text.split('.').reduce((value, octet) => (value << 8n) | BigInt(octet), 0n)
}

/** The 128-bit value of any valid spelling: upper case, leading zeros, `::`, a dotted IPv4 tail, a zone. */
function ipv6Value(text: string): bigint | undefined {
  const address = text.replace(/%.*$/, '') // the zone names an interface, not another address
  if (!isIPv6(address)) return undefined
  // The WHATWG URL parser writes every valid spelling in one form: lower-case hex groups, `::`, no dotted tail.
  let host: string
  try {
    host = new URL(`http://[${address}]/`).hostname
  } catch {
    return undefined
  }
  const [head, tail = ''] = host.slice(1, -1).split('::')
  const headGroups = head === '' ? [] : head.split(':')
  const tailGroups = tail === '' ? [] : tail.split(':')
  const zeros: string[] = new Array(8 - headGroups.length - tailGroups.length).fill('0')
  return [...headGroups, ...zeros, ...tailGroups].reduce((value, group) => (value << 16n) | BigInt(`0x${group}`), 0n)
}

function table(width: number, parse: (text: string) => bigint | undefined, rows: Array<[string, AddressReach, Carried?]>): Range[] {
  return rows.map(([cidr, reach, carries]) => {
    const [address, bits] = cidr.split('/')
    const prefix = parse(address)
    if (prefix === undefined) throw new Error(`bad range ${cidr}`)
    return { prefix: prefix >> BigInt(width - Number(bits)), bits: Number(bits), reach, carries }
  })
}

const IPV4_RANGES = table(32, ipv4Value, IPV4)
const IPV6_RANGES = table(128, ipv6Value, IPV6)

function mostSpecific(ranges: Range[], width: number, value: bigint): Range | undefined {
  let best: Range | undefined
  for (const range of ranges) {
    if (value >> BigInt(width - range.bits) === range.prefix && (best === undefined || range.bits > best.bits)) best = range
  }
  return best
}

const ipv4Reach = (value: bigint): AddressReach => mostSpecific(IPV4_RANGES, 32, value)?.reach ?? 'public'

/** How far a link may reach `address` (an IPv4 or IPv6 literal); anything else is `refused`. */
export function addressReach(address: string): AddressReach {
  const v4 = ipv4Value(address)
  if (v4 !== undefined) return ipv4Reach(v4)
  const v6 = ipv6Value(address)
  if (v6 === undefined) return 'refused'
  const range = mostSpecific(IPV6_RANGES, 128, v6)!
  return (range.carries?.(v6) ?? []).reduce((reach, carried) => stricter(reach, ipv4Reach(BigInt(carried))), range.reach)
}

/**
 * Link-local and cloud metadata addresses: the part of `refused` that no call of the gateway's may reach, not even
 * one to an address the user typed ("Test connection" of an upstream base URL, which may well be a CGNAT or
 * other non-public address of the user's own network).
 */
const METADATA_V4 = table(32, ipv4Value, [['169.254.0.0/16', 'refused'], ['100.100.100.200/32', 'refused']])
const METADATA_V6 = table(128, ipv6Value, [['fe80::/10', 'refused'], ['fd00:ec2::254/128', 'refused'], ['fd20:ce::254/128', 'refused']])

/** True for a link-local or metadata address in any spelling (IPv4 carried inside IPv6 included); anything else that is not an IP address too. */
export function isLinkLocalOrMetadata(address: string): boolean {
  const v4 = ipv4Value(address)
  if (v4 !== undefined) return mostSpecific(METADATA_V4, 32, v4) !== undefined
  const v6 = ipv6Value(address)
  if (v6 === undefined) return true
  if (mostSpecific(METADATA_V6, 128, v6) !== undefined) return true
  const carried = mostSpecific(IPV6_RANGES, 128, v6)!.carries?.(v6) ?? []
  return carried.some((v) => mostSpecific(METADATA_V4, 32, BigInt(v)) !== undefined)
}
