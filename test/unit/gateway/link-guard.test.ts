import http from 'node:http'
import type { Socket } from 'node:net'
import { buildConnector } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { baseUrlProblem, guardedLookup, isRefusedAddress, LinkRefusedError, linkProblem, refuseConnectedAddress } from '../../../electron/gateway/guards/link-guard.js'
import { listenLocal } from '../../fakes/listen-local.js'
import { fakeResolver } from '../../helpers/fake-resolver.js'
import { until } from '../../helpers/until.js'

type Reach = 'public' | 'private' | 'refused'

/** [refused by default, refused with allowPrivateAddresses] for each answer */
const REFUSED: Record<Reach, [boolean, boolean]> = { public: [false, false], private: [true, false], refused: [true, true] }
const judged = (address: string): [boolean, boolean] => [isRefusedAddress(address, false), isRefusedAddress(address, true)]

// The IANA special-purpose registries, as this gateway reads them (the table documented in special-addresses.ts).
const IPV4_RANGES: Array<[string, Reach]> = [
  ['0.0.0.0/8', 'refused'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'refused'],
  ['100.100.100.200/32', 'refused'],
  ['127.0.0.0/8', 'private'],
  ['169.254.0.0/16', 'refused'],
  ['169.254.169.254/32', 'refused'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'refused'],
  ['192.0.2.0/24', 'refused'],
  ['192.88.99.0/24', 'refused'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'refused'],
  ['198.51.100.0/24', 'refused'],
  ['203.0.113.0/24', 'refused'],
  ['224.0.0.0/4', 'refused'],
  ['240.0.0.0/4', 'refused'],
  ['255.255.255.255/32', 'refused'],
]

const IPV6_RANGES: Array<[string, Reach]> = [
  ['::/128', 'refused'],
  ['::1/128', 'private'],
  ['100::/64', 'refused'],
  ['100::/8', 'refused'],
  ['200::/7', 'refused'],
  ['400::/6', 'refused'],
  ['800::/5', 'refused'],
  ['1000::/4', 'refused'],
  ['2001:2::/48', 'refused'],
  ['2001:10::/28', 'refused'],
  ['2001:20::/28', 'refused'],
  ['2001:db8::/32', 'refused'],
  ['3fff::/20', 'refused'],
  ['4000::/2', 'refused'],
  ['5f00::/16', 'refused'],
  ['8000::/2', 'refused'],
  ['c000::/3', 'refused'],
  ['e000::/4', 'refused'],
  ['f000::/5', 'refused'],
  ['f800::/6', 'refused'],
  ['fc00::/7', 'private'],
  ['fd00:ec2::254/128', 'refused'],
  ['fd20:ce::254/128', 'refused'],
  ['fe00::/9', 'refused'],
  ['fe80::/10', 'refused'],
  ['fec0::/10', 'refused'],
  ['ff00::/8', 'refused'],
]

const IPV6_SAMPLES: Array<[string, Reach]> = [
  ['2000::', 'public'],
  ['2001:200::', 'public'],
  ['2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', 'public'],
  ['2001:db9::', 'public'],
  ['2003::', 'public'],
  ['2606:4700::1111', 'public'],
  ['2001:4860:4860::8888', 'public'],
  ['3fff:1000::', 'public'],
  ['2001:1::1', 'refused'], // PCP anycast, in the IETF protocol assignments 2001::/23
  ['2001:3::1', 'refused'], // AMT
  ['2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff', 'refused'],
  ['64:ff9b::808:808', 'public'],
  ['64:ff9b:0:0:0:1:808:808', 'refused'], // past the /96 of the NAT64 well-known prefix
  ['64:ff9b:1::808:808', 'private'], // local-use NAT64: not globally reachable
  ['64:ff9b:1:1::808:808', 'refused'], // local-use NAT64 at another prefix length: the IPv4 could sit anywhere
  ['64:ff9b:1:ffff:ffff:ffff:ffff:ffff', 'refused'],
  ['2002:808:808::', 'public'],
  ['2001:0:808:808::f7f7:f7f7', 'public'], // Teredo, server 8.8.8.8, client 8.8.8.8
]

const v4Number = (text: string) => text.split('.').reduce((n, octet) => n * 256 + Number(octet), 0)
const v4Text = (n: number) => [24, 16, 8, 0].map((shift) => (n >>> shift) & 255).join('.')
/** The two low groups of an IPv6 address holding `n`, e.g. 169.254.169.254 → a9fe:a9fe. */
const v4Hex = (n: number) => `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`

function v6Value(text: string): bigint {
  const [head, tail = ''] = text.split('::')
  const groups = [head.split(':').filter(Boolean), tail.split(':').filter(Boolean)]
  const all = [...groups[0], ...Array(8 - groups[0].length - groups[1].length).fill('0'), ...groups[1]]
  return all.reduce((value, group) => (value << 16n) | BigInt(`0x${group}`), 0n)
}
const v6Groups = (value: bigint) => Array.from({ length: 8 }, (_, i) => Number((value >> BigInt(112 - 16 * i)) & 0xffffn).toString(16))

/** First, middle and last address of a range. */
function v4Samples(cidr: string): number[] {
  const [base, bits] = cidr.split('/')
  const first = v4Number(base)
  const last = first + 2 ** (32 - Number(bits)) - 1
  return [...new Set([first, first + Math.floor((last - first) / 2), last])]
}
function v6Samples(cidr: string): bigint[] {
  const [base, bits] = cidr.split('/')
  const first = v6Value(base)
  const last = first + (1n << BigInt(128 - Number(bits))) - 1n
  return [...new Set([first, first + (last - first) / 2n, last])]
}

/** The spellings of one IPv6 address: short, every group written out, upper case, leading zeros. */
function v6Spellings(value: bigint): string[] {
  const groups = v6Groups(value)
  const expanded = groups.join(':')
  return [new URL(`http://[${expanded}]/`).hostname.slice(1, -1), expanded, expanded.toUpperCase(), groups.map((g) => g.padStart(4, '0')).join(':')]
}

const inV4Range = (n: number) => IPV4_RANGES.some(([cidr]) => {
  const samples = v4Samples(cidr)
  return n >= samples[0] && n <= samples[samples.length - 1]
})
const reachOfV4 = (n: number): Reach => {
  // the most specific listed range
  const ranges = IPV4_RANGES.filter(([cidr]) => {
    const s = v4Samples(cidr)
    return n >= s[0] && n <= s[s.length - 1]
  }).sort((a, b) => Number(b[0].split('/')[1]) - Number(a[0].split('/')[1]))
  return ranges[0]?.[1] ?? 'public'
}

/** Just outside each range, where not inside another one: public. */
const V4_NEIGHBOURS = [...new Set(IPV4_RANGES.flatMap(([cidr]) => {
  const s = v4Samples(cidr)
  return [s[0] - 1, s[s.length - 1] + 1]
}))].filter((n) => n >= 0 && n < 2 ** 32 && !inV4Range(n))

const V4_SAMPLES: number[] = [
  ...new Set([...IPV4_RANGES.flatMap(([cidr]) => v4Samples(cidr)), ...V4_NEIGHBOURS, ...['8.8.8.8', '1.1.1.1', '192.31.196.1', '192.52.193.1', '192.175.48.1'].map(v4Number)]),
]

const TEREDO_PUBLIC_HEX = v4Hex(v4Number('8.8.4.4'))
/** An IPv4 address written inside IPv6 in every way the guard decodes, and how each must be judged. */
function carriedSpellings(n: number): Array<[string, string, Reach]> {
  const reach = reachOfV4(n)
  const dotted = v4Text(n)
  const hex = v4Hex(n)
  const padded = hex.split(':').map((g) => g.padStart(4, '0')).join(':')
  return [
    ['IPv4-mapped, dotted', `::ffff:${dotted}`, reach],
    ['IPv4-mapped, upper-case hex', `::FFFF:${hex.toUpperCase()}`, reach],
    ['IPv4-mapped, written out with leading zeros', `0000:0000:0000:0000:0000:ffff:${padded}`, reach],
    ['IPv4-compatible, dotted', `::${dotted}`, reach],
    ['IPv4-compatible, hex', `0:0:0:0:0:0:${hex}`, reach],
    ['IPv4-translated', `::ffff:0:${dotted}`, reach],
    ['NAT64 well-known prefix', `64:ff9b::${dotted}`, reach],
    ['NAT64 well-known prefix, upper case, leading zeros', `0064:FF9B:0000::${padded.toUpperCase()}`, reach],
    ['NAT64 local-use prefix', `64:ff9b:1::${hex}`, reach === 'refused' ? 'refused' : 'private'],
    ['6to4', `2002:${hex}::`, reach],
    ['6to4 with a subnet and host', `2002:${hex}:1:0:0:0:1`, reach],
    ['Teredo server (client 8.8.4.4)', `2001:0:${hex}:0:0:${v4Hex(~v4Number('8.8.4.4') >>> 0)}`, reach],
    ['Teredo client (server 8.8.4.4)', `2001:0:${TEREDO_PUBLIC_HEX}:8000:fffe:${v4Hex(~n >>> 0)}`, reach],
  ]
}

describe('isRefusedAddress', () => {
  it.each([
    // address, refused by default, refused with allowPrivateAddresses
    ['8.8.8.8', false, false],
    ['2606:4700::1111', false, false],
    ['127.0.0.1', true, false],
    ['127.8.9.10', true, false],
    ['::1', true, false],
    ['::ffff:127.0.0.1', true, false],
    ['10.0.0.1', true, false],
    ['172.16.0.1', true, false],
    ['172.31.255.255', true, false],
    ['172.32.0.1', false, false],
    ['192.168.1.1', true, false],
    // carrier-grade NAT is the carrier's network, not the user's LAN: refused either way
    ['100.64.0.1', true, true],
    ['fc00::1', true, false],
    ['fd12:3456::1', true, false],
    ['169.254.169.254', true, true],
    ['169.254.1.1', true, true],
    ['::ffff:169.254.169.254', true, true],
    ['fe80::1', true, true],
    ['fd00:ec2::254', true, true],
    ['100.100.100.200', true, true],
    ['0.0.0.0', true, true],
    ['::', true, true],
    ['224.0.0.1', true, true],
    ['255.255.255.255', true, true],
    ['not-an-ip', true, true],
  ])('%s: refused %s by default, %s when private addresses are allowed', (address, byDefault, allowingPrivate) => {
    expect(isRefusedAddress(address, false)).toBe(byDefault)
    expect(isRefusedAddress(address, true)).toBe(allowingPrivate)
  })
})

describe('isRefusedAddress: IPv4 ranges (first, middle and last address)', () => {
  it.each(IPV4_RANGES)('%s is %s', (cidr, reach) => {
    expect(v4Samples(cidr).map((n) => [v4Text(n), judged(v4Text(n))])).toEqual(v4Samples(cidr).map((n) => [v4Text(n), REFUSED[reach]]))
  })

  it('the addresses just outside each range are public, and so are the registry\'s globally reachable ones', () => {
    const publicOnes = [...V4_NEIGHBOURS.map(v4Text), '8.8.8.8', '1.1.1.1', '192.31.196.1', '192.52.193.1', '192.175.48.1']
    expect(publicOnes).toContain('100.63.255.255')
    expect(publicOnes).toContain('172.32.0.0')
    expect(publicOnes.map((a) => [a, judged(a)])).toEqual(publicOnes.map((a) => [a, REFUSED.public]))
  })
})

describe('isRefusedAddress: IPv6 ranges (first, middle and last address, in four spellings each)', () => {
  it.each(IPV6_RANGES)('%s is %s', (cidr, reach) => {
    const spellings = v6Samples(cidr).flatMap(v6Spellings)
    expect(spellings.map((a) => [a, judged(a)])).toEqual(spellings.map((a) => [a, REFUSED[reach]]))
  })

  it.each(IPV6_SAMPLES)('%s is %s', (address, reach) => {
    const spellings = v6Spellings(v6Value(address))
    expect(spellings.map((a) => [a, judged(a)])).toEqual(spellings.map((a) => [a, REFUSED[reach]]))
  })
})

describe('isRefusedAddress: IPv4 carried in IPv6 is judged as the IPv4', () => {
  it.each(V4_SAMPLES.map((n) => [v4Text(n), reachOfV4(n)]))('%s (%s) in every form', (address) => {
    const forms = carriedSpellings(v4Number(address))
    expect(forms.map(([form, spelling]) => [form, spelling, judged(spelling)])).toEqual(forms.map(([form, spelling, reach]) => [form, spelling, REFUSED[reach]]))
  })

  it('the spellings measured getting through before: 6to4, NAT64 and site-local forms of loopback and metadata', () => {
    expect(['2002:7f00:1::', '64:ff9b::7f00:1', 'fec0::1', '::7f00:1', '2002:a9fe:a9fe::', '64:ff9b::a9fe:a9fe', '64:FF9B::169.254.169.254'].map((a) => [a, judged(a)]))
      .toEqual([['2002:7f00:1::', [true, false]], ['64:ff9b::7f00:1', [true, false]], ['fec0::1', [true, true]], ['::7f00:1', [true, false]],
        ['2002:a9fe:a9fe::', [true, true]], ['64:ff9b::a9fe:a9fe', [true, true]], ['64:FF9B::169.254.169.254', [true, true]]])
  })
})

describe('isRefusedAddress: what is not one IP address', () => {
  it.each([
    ['a name', 'not-an-ip'],
    ['an IPv4 address with leading zeros (octal to some parsers)', '0177.0.0.1'],
    ['a decimal number', '2130706433'],
    ['an IPv6 address with nine groups', '1:2:3:4:5:6:7:8:9'],
    ['an empty string', ''],
  ])('%s (%s) is refused', (_what, address) => {
    expect(judged(address)).toEqual([true, true])
  })

  it('a zone does not change the address: fe80::1%eth0 is link-local, fd12::1%eth0 private', () => {
    expect([judged('fe80::1%eth0'), judged('fd12::1%eth0')]).toEqual([[true, true], [true, false]])
  })
})

describe('linkProblem', () => {
  const refused = (address: string) => `points to a private or reserved address (${address}), which the gateway does not fetch`
  it.each([
    ['https://cdn.example.com/a.png', undefined],
    ['ftp://cdn.example.com/a.png', 'is not an http(s) link'],
    ['file:///etc/passwd', 'is not an http(s) link'],
    ['http://127.0.0.1:8080/a.png', refused('127.0.0.1')],
    ['http://[::1]/a.png', refused('::1')],
    ['http://[::ffff:a00:1]/a.png', refused('::ffff:a00:1')],
    ['http://169.254.169.254/latest/meta-data', refused('169.254.169.254')],
    // The URL parser turns every IPv4 spelling into the dotted one before the guard sees it.
    ['http://2130706433/a.png', refused('127.0.0.1')],
    ['http://0177.0.0.1/a.png', refused('127.0.0.1')],
    ['http://0x7f.1/a.png', refused('127.0.0.1')],
    ['http://127.1/a.png', refused('127.0.0.1')],
    ['http://0x7F000001/a.png', refused('127.0.0.1')],
    ['http://[2002:7f00:1::]/a.png', refused('2002:7f00:1::')],
    ['http://[64:ff9b::127.0.0.1]/a.png', refused('64:ff9b::7f00:1')],
    ['http://[FEC0::1]/a.png', refused('fec0::1')],
    ['http://[::127.0.0.1]/a.png', refused('::7f00:1')],
    ['http://100.64.0.1/a.png', refused('100.64.0.1')],
    ['http://[2001:db8::1]/a.png', refused('2001:db8::1')],
    ['http://8.8.8.8/a.png', undefined],
    ['http://[2606:4700::1111]/a.png', undefined],
    // A name is judged by what it resolves to, at connect time.
    ['http://localhost/a.png', undefined],
  ])('%s → %s', (url, problem) => {
    expect(linkProblem(new URL(url), false)).toBe(problem)
  })

  it.each([
    ['http://0251.0376.0251.0376/latest/meta-data', '169.254.169.254'],
    ['http://2852039166/latest/meta-data', '169.254.169.254'],
    ['http://[::ffff:169.254.169.254]/', '::ffff:a9fe:a9fe'],
    ['http://[0:0:0:0:0:FFFF:A9FE:A9FE]/', '::ffff:a9fe:a9fe'],
    ['http://[64:ff9b::169.254.169.254]/', '64:ff9b::a9fe:a9fe'],
    ['http://[2002:a9fe:a9fe::1]/', '2002:a9fe:a9fe::1'],
    ['http://[2001:0:808:808::5601:5601]/', '2001:0:808:808::5601:5601'],
    ['http://[::169.254.169.254]/', '::a9fe:a9fe'],
    ['http://[fd00:0ec2:0000::0254]/', 'fd00:ec2::254'],
    ['http://100.100.100.200/', '100.100.100.200'],
  ])('with private addresses allowed, %s stays refused', (url, address) => {
    expect(linkProblem(new URL(url), true)).toBe(refused(address))
  })

  it('with private addresses allowed, loopback and the LAN in their IPv6 forms are fetched', () => {
    expect(['http://127.1/', 'http://[2002:7f00:1::]/', 'http://[::ffff:192.168.1.2]/', 'http://[fd12::1]/'].map((u) => linkProblem(new URL(u), true))).toEqual([undefined, undefined, undefined, undefined])
  })
})

describe('guardedLookup', () => {
  const lookup = (host: string, allowPrivate: boolean, all: boolean, resolve?: Parameters<typeof guardedLookup>[1]) =>
    new Promise<{ err: Error | null; address: unknown; family?: number }>((resolve_) =>
      guardedLookup(allowPrivate, resolve)(host, { all }, (err, address, family) => resolve_({ err, address, family })))

  it('refuses a name that resolves only to loopback, and allows it when private addresses are allowed', async () => {
    const refused = await lookup('localhost', false, false)
    expect(refused.err).toBeInstanceOf(LinkRefusedError)
    expect(refused.err!.message).toMatch(/^points to a private or reserved address \((127\.0\.0\.1|::1)\), which the gateway does not fetch$/)
    const allowed = await lookup('localhost', true, true)
    expect(allowed.err).toBeNull()
    expect((allowed.address as Array<{ address: string }>).map((a) => a.address)).toEqual(expect.arrayContaining([expect.stringMatching(/^(127\.0\.0\.1|::1)$/)]))
  })

  const names = fakeResolver({
    'six-to-four.test': ['2002:7f00:1::'],
    'nat64-metadata.test': ['64:ff9b::a9fe:a9fe'],
    'site-local.test': ['fec0::1'],
    'mixed.test': ['fec0::1', '::ffff:169.254.169.254', '2606:4700::1111', '8.8.8.8'],
  })

  it.each([
    ['six-to-four.test', false, '2002:7f00:1::'],
    ['nat64-metadata.test', false, '64:ff9b::a9fe:a9fe'],
    ['nat64-metadata.test', true, '64:ff9b::a9fe:a9fe'],
    ['site-local.test', true, 'fec0::1'],
  ])('%s (private allowed: %s) is refused by its address %s', async (host, allowPrivate, address) => {
    const { err } = await lookup(host, allowPrivate, false, names)
    expect([err?.constructor, err?.message]).toEqual([LinkRefusedError, `points to a private or reserved address (${address}), which the gateway does not fetch`])
  })

  it('a name resolving to 6to4 of loopback is allowed with private addresses', async () => {
    expect(await lookup('six-to-four.test', true, false, names)).toEqual({ err: null, address: '2002:7f00:1::', family: 6 })
  })

  it('of a name with refused and public addresses, only the public ones are connected to', async () => {
    expect(await lookup('mixed.test', true, true, names)).toEqual({ err: null, address: [{ address: '2606:4700::1111', family: 6 }, { address: '8.8.8.8', family: 4 }], family: undefined })
    expect(await lookup('mixed.test', false, false, names)).toEqual({ err: null, address: '2606:4700::1111', family: 6 })
  })

  it('a resolver\'s error is passed on', async () => {
    const { err } = await lookup('unknown.test', false, false, names)
    expect([(err as NodeJS.ErrnoException).code, err?.message]).toEqual(['ENOTFOUND', 'getaddrinfo ENOTFOUND unknown.test'])
  })
})

describe('refuseConnectedAddress: the address the socket connected to', () => {
  /** A server on 127.0.0.1 that records how many bytes each connection sent before it closed. */
  const received: number[] = []
  let port: string
  let close: () => Promise<void>
  beforeAll(async () => {
    const server = http.createServer()
    server.on('connection', (socket: Socket) => {
      let bytes = 0
      socket.on('data', (chunk: Buffer) => (bytes += chunk.length))
      socket.on('close', () => received.push(bytes))
    })
    const listening = await listenLocal(server)
    port = new URL(listening.origin).port
    close = listening.close
  })
  afterAll(() => close())

  // An IP-literal host, which no lookup sees: only the connected address stands between it and the request.
  const connect = (allowPrivate: boolean) =>
    new Promise<[Error | null, Socket | null]>((resolve) => {
      const timer = setTimeout(() => resolve([new Error('no answer within 5 s'), null]), 5_000)
      refuseConnectedAddress(buildConnector({ timeout: 5_000 }), allowPrivate)({ hostname: '127.0.0.1', protocol: 'http:', port }, (err, socket) => {
        clearTimeout(timer)
        resolve([err, socket as Socket | null])
      })
    })
  const closedCount = async (count: number) => {
    await until(`${count} connections closed`, 5_000, () => received.length >= count).catch(() => {})
    return received.length
  }

  it('refused: the socket is destroyed before anything is written, and the error names the address', async () => {
    const [err, socket] = await connect(false)
    expect(socket).toBeNull()
    expect(err).toBeInstanceOf(LinkRefusedError)
    expect(err!.message).toBe('points to a private or reserved address (127.0.0.1), which the gateway does not fetch')
    expect(await closedCount(1)).toBe(1)
    expect(received[0]).toBe(0)
  })

  it('allowed: the connected socket is handed over', async () => {
    const [err, socket] = await connect(true)
    expect(err).toBeNull()
    expect([socket!.destroyed, socket!.remoteAddress]).toEqual([false, '127.0.0.1'])
    socket!.destroy()
  })
})

describe('baseUrlProblem: the base URL a user tests may be any address of their own, never link-local or metadata', () => {
  it.each([
    'http://100.64.0.1/v1', // CGNAT: a tailnet address of one's own machines
    'http://127.0.0.1:11434/v1',
    'http://192.168.1.20/v1',
    'http://[fd12::1]/v1',
    'https://api.example.com/v1',
  ])('%s is called', (url) => {
    expect(baseUrlProblem(new URL(url))).toBeUndefined()
  })
  it.each([
    ['http://169.254.169.254/latest', '169.254.169.254'],
    ['http://100.100.100.200/', '100.100.100.200'],
    ['http://[::ffff:169.254.169.254]/', '::ffff:a9fe:a9fe'],
    ['http://[64:ff9b::a9fe:a9fe]/', '64:ff9b::a9fe:a9fe'],
    ['http://[2002:a9fe:a9fe::]/', '2002:a9fe:a9fe::'],
    ['http://[2001:0:4136:e378:8000:63bf:5601:5601]/', '2001:0:4136:e378:8000:63bf:5601:5601'], // Teredo: the client address, inverted, is 169.254.169.254
    ['http://[fe80::1]/', 'fe80::1'],
    ['http://[fd00:ec2::254]/', 'fd00:ec2::254'],
  ])('%s is refused', (url, shown) => {
    expect(baseUrlProblem(new URL(url))).toBe(new LinkRefusedError(shown).message)
  })
  it('refuses schemes other than http(s)', () => {
    expect(baseUrlProblem(new URL('file:///etc/passwd'))).toBe('is not an http(s) link')
  })
})
