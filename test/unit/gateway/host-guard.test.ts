import type { IncomingMessage } from 'node:http'
import { describe, expect, it } from 'vitest'
import { GatewayError } from '../../../electron/gateway/errors.js'
import { createHostGuard, parseHost } from '../../../electron/gateway/guards/host-guard.js'

describe('parseHost (RFC 9112 §3.2: uri-host [":" port])', () => {
  it.each([
    ['localhost', { name: 'localhost', ip: false, origin: 'localhost' }],
    ['LocalHost:8787', { name: 'localhost', ip: false, port: 8787, origin: 'localhost:8787' }],
    ['localhost.:8787', { name: 'localhost.', ip: false, port: 8787, origin: 'localhost.:8787' }],
    ['127.0.0.1:8787', { name: '127.0.0.1', ip: true, port: 8787, origin: '127.0.0.1:8787' }],
    ['127.0.0.1:80', { name: '127.0.0.1', ip: true, port: 80, origin: '127.0.0.1' }],
    ['127.0.0.1:008787', { name: '127.0.0.1', ip: true, port: 8787, origin: '127.0.0.1:8787' }],
    ['127.0.0.1:0', { name: '127.0.0.1', ip: true, port: 0, origin: '127.0.0.1:0' }],
    ['127.0.0.1:65535', { name: '127.0.0.1', ip: true, port: 65535, origin: '127.0.0.1:65535' }],
    ['localhost:', { name: 'localhost', ip: false, origin: 'localhost' }],
    ['[::1]', { name: '[::1]', ip: true, origin: '[::1]' }],
    ['[::1]:8787', { name: '[::1]', ip: true, port: 8787, origin: '[::1]:8787' }],
    ['[0:0:0:0:0:0:0:1]:8787', { name: '[::1]', ip: true, port: 8787, origin: '[::1]:8787' }],
    ['[::FFFF:127.0.0.1]', { name: '[::ffff:7f00:1]', ip: true, origin: '[::ffff:7f00:1]' }],
    // reg-names that look like numbers are names, not addresses (RFC 3986 §3.2.2)
    ['127.1', { name: '127.1', ip: false, origin: '127.1' }],
    ['127.0.0.01', { name: '127.0.0.01', ip: false, origin: '127.0.0.01' }],
    ['gateway.lan', { name: 'gateway.lan', ip: false, origin: 'gateway.lan' }],
    ['local%68ost', { name: 'local%68ost', ip: false, origin: 'local%68ost' }],
    ['', { name: '', ip: false, origin: '' }],
  ])('%j → %j', (value, parsed) => {
    expect(parseHost(value)).toEqual(parsed)
  })

  it.each([
    ['localhost:80@evil.example', { problem: 'malformed' }],
    ['evil.example@localhost', { problem: 'malformed' }],
    ['user:pass@localhost', { problem: 'malformed' }],
    ['[::1', { problem: 'malformed' }],
    ['::1', { problem: 'malformed' }],
    ['[::1]x', { problem: 'malformed' }],
    ['[::1]:80:80', { problem: 'malformed' }],
    ['[127.0.0.1]', { problem: 'malformed' }],
    ['[fe80::1%25eth0]', { problem: 'malformed' }],
    ['[v1.fe80::a]', { problem: 'malformed' }],
    ['localhost:8787:1', { problem: 'malformed' }],
    ['localhost:-1', { problem: 'malformed' }],
    ['localhost:+80', { problem: 'malformed' }],
    ['localhost:8o', { problem: 'malformed' }],
    ['localhost:８０', { problem: 'malformed' }],
    ['local host', { problem: 'malformed' }],
    ['localhost/x', { problem: 'malformed' }],
    ['localhost\\', { problem: 'malformed' }],
    ['localhost%zz', { problem: 'malformed' }],
    ['lоcalhost', { problem: 'malformed' }],
    ['localhost\t', { problem: 'malformed' }],
    ['127.0.0.1:99999', { problem: 'port', port: '99999' }],
    ['127.0.0.1:65536', { problem: 'port', port: '65536' }],
    ['localhost:1' + '0'.repeat(30), { problem: 'port', port: '1' + '0'.repeat(30) }],
    ['[::1]:70000', { problem: 'port', port: '70000' }],
  ])('%j is refused: %j', (value, problem) => {
    expect(parseHost(value)).toEqual(problem)
  })
})

/** What the guard reads of a request: every Host value, and the Origin. */
const requestWith = (hosts: string[], origin?: string) =>
  ({
    // As Node's parser gives them: every header line, names as sent.
    rawHeaders: [...hosts.flatMap((host) => ['Host', host]), ...(origin === undefined ? [] : ['Origin', origin])],
    headers: { host: hosts[0], ...(origin === undefined ? {} : { origin }) },
  }) as unknown as IncomingMessage

/** The guard's verdict: 'ok', or the error's status, code and English message. */
function verdict(guard: (req: IncomingMessage) => void, req: IncomingMessage): string | { status: number; code: string; message: string } {
  try {
    guard(req)
    return 'ok'
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err
    return { status: err.status, code: err.code, message: err.localized('en') }
  }
}

describe('the host guard', () => {
  const guard = createHostGuard(['Gateway.LAN'])
  const malformed = (host: string) => ({
    status: 400, code: 'invalid_host_header',
    message: `The Host header "${host}" is not a host name, an IPv4 address or an IPv6 address in brackets, optionally followed by ":" and a port.`,
  })

  it.each([
    ['localhost:8787', undefined, 'ok'],
    ['127.0.0.1:8787', undefined, 'ok'],
    ['[::1]:8787', undefined, 'ok'],
    ['10.0.0.11', undefined, 'ok'],
    ['gateway.lan:8787', undefined, 'ok'],
    // The Origin is compared with the normalised host: lower case, leading zeros and port 80 dropped.
    ['LOCALHOST:08787', 'http://localhost:8787', 'ok'],
    ['127.0.0.1:80', 'http://127.0.0.1', 'ok'],
    ['[0:0::1]:8787', 'http://[::1]:8787', 'ok'],
    ['GATEWAY.lan:8787', 'http://gateway.lan:8787', 'ok'],
    ['localhost:8787', 'http://localhost:8788', { status: 403, code: 'origin_not_allowed', message: 'Requests from browser origin "http://localhost:8788" are not allowed' }],
    ['localhost:8787', 'http://localhost:8787@evil.example', { status: 403, code: 'origin_not_allowed', message: 'Requests from browser origin "http://localhost:8787@evil.example" are not allowed' }],
    ['evil.example', undefined, { status: 403, code: 'host_not_allowed', message: 'Host "evil.example" is not allowed' }],
    ['127.1:8787', undefined, { status: 403, code: 'host_not_allowed', message: 'Host "127.1:8787" is not allowed' }],
    ['', undefined, { status: 403, code: 'host_not_allowed', message: 'Host "" is not allowed' }],
    ['localhost:80@evil.example', undefined, malformed('localhost:80@evil.example')],
    ['[::1', undefined, malformed('[::1')],
    ['127.0.0.1:99999', undefined, { status: 400, code: 'invalid_host_header', message: 'The Host header "127.0.0.1:99999" names port 99999, outside 0 to 65535.' }],
  ])('Host %j, Origin %j → %j', (host, origin, expected) => {
    expect(verdict(guard, requestWith([host], origin))).toEqual(expected)
  })

  it('exactly one Host header', () => {
    expect(verdict(guard, requestWith([]))).toEqual({ status: 400, code: 'invalid_host_header', message: 'The request has no Host header; send exactly one, such as "Host: localhost".' })
    expect(verdict(guard, requestWith(['localhost', 'evil.example']))).toEqual({ status: 400, code: 'invalid_host_header', message: 'The request has 2 Host headers; send exactly one.' })
    expect(verdict(guard, requestWith(['localhost', 'localhost']))).toEqual({ status: 400, code: 'invalid_host_header', message: 'The request has 2 Host headers; send exactly one.' })
  })

  it('counts Host lines whatever their case, among the other headers', () => {
    // The guard reads Host from the raw lines only (and the Origin, absent here, from the parsed headers).
    const req = (rawHeaders: string[]) => ({ rawHeaders, headers: {} }) as unknown as IncomingMessage
    expect(verdict(guard, req(['Content-Type', 'application/json', 'hOsT', 'localhost', 'Accept', '*/*']))).toBe('ok')
    expect(verdict(guard, req(['host', 'localhost', 'Hosts', 'x', 'HOST', 'evil.example']))).toEqual({ status: 400, code: 'invalid_host_header', message: 'The request has 2 Host headers; send exactly one.' })
    expect(verdict(guard, req(['X-Host', 'localhost', 'Hostname', 'localhost']))).toEqual({ status: 400, code: 'invalid_host_header', message: 'The request has no Host header; send exactly one, such as "Host: localhost".' })
  })

  it('judges a Host it has seen as it did the first time, past the values it remembers too', () => {
    const fresh = createHostGuard([])
    for (let round = 0; round < 2; round++) {
      for (let port = 8001; port <= 8200; port++) expect(verdict(fresh, requestWith([`localhost:${port}`], `http://localhost:${port}`))).toBe('ok')
      expect(verdict(fresh, requestWith(['evil.example']))).toEqual({ status: 403, code: 'host_not_allowed', message: 'Host "evil.example" is not allowed' })
      expect(verdict(fresh, requestWith(['localhost:7'], 'http://localhost:8'))).toEqual({ status: 403, code: 'origin_not_allowed', message: 'Requests from browser origin "http://localhost:8" are not allowed' })
      expect(verdict(fresh, requestWith(['[::1']))).toEqual(malformed('[::1'))
    }
  })
})
