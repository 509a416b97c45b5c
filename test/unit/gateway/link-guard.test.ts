import { describe, expect, it } from 'vitest'
import { guardedLookup, isRefusedAddress, LinkRefusedError, linkProblem } from '../../../electron/gateway/link-guard.js'

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
    ['100.64.0.1', true, false],
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

describe('linkProblem', () => {
  it.each([
    ['https://cdn.example.com/a.png', undefined],
    ['ftp://cdn.example.com/a.png', 'is not an http(s) link'],
    ['file:///etc/passwd', 'is not an http(s) link'],
    ['http://127.0.0.1:8080/a.png', 'points to a private or reserved address (127.0.0.1), which the gateway does not fetch'],
    ['http://[::1]/a.png', 'points to a private or reserved address (::1), which the gateway does not fetch'],
    ['http://[::ffff:a00:1]/a.png', 'points to a private or reserved address (::ffff:a00:1), which the gateway does not fetch'],
    ['http://169.254.169.254/latest/meta-data', 'points to a private or reserved address (169.254.169.254), which the gateway does not fetch'],
    // A name is judged by what it resolves to, at connect time.
    ['http://localhost/a.png', undefined],
  ])('%s → %s', (url, problem) => {
    expect(linkProblem(new URL(url), false)).toBe(problem)
  })
})

describe('guardedLookup', () => {
  const lookup = (host: string, allowPrivate: boolean, all: boolean) =>
    new Promise<{ err: Error | null; address: unknown }>((resolve) => guardedLookup(allowPrivate)(host, { all }, (err, address) => resolve({ err, address })))

  it('refuses a name that resolves only to loopback, and allows it when private addresses are allowed', async () => {
    const refused = await lookup('localhost', false, false)
    expect(refused.err).toBeInstanceOf(LinkRefusedError)
    expect(refused.err!.message).toMatch(/^points to a private or reserved address \((127\.0\.0\.1|::1)\), which the gateway does not fetch$/)
    const allowed = await lookup('localhost', true, true)
    expect(allowed.err).toBeNull()
    expect((allowed.address as Array<{ address: string }>).map((a) => a.address)).toEqual(expect.arrayContaining([expect.stringMatching(/^(127\.0\.0\.1|::1)$/)]))
  })
})
