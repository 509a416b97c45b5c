import { isIP, isIPv6 } from 'node:net'
import type { IncomingMessage } from 'node:http'
import { gatewayError } from '../errors.js'

const LOCAL_NAMES = new Set(['localhost', 'localhost.'])

/** RFC 3986 §3.2.2 reg-name: unreserved, pct-encoded and sub-delims characters. IPv4address is a subset. */
const REG_NAME = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/
/** RFC 3986 §3.2.3 port = *DIGIT (an empty port means none). */
const PORT = /^\d*$/
const MAX_PORT = 65535
const HTTP_PORT = 80
/** Host values whose parse is remembered: a few names and ports in practice; past this many, all are forgotten. */
const RECENT_HOSTS = 64

/** A Host header value split by RFC 9112 §3.2 (`Host = uri-host [ ":" port ]`), host name lowercased. */
export interface ParsedHost {
  /** the uri-host: a reg-name, an IPv4 address, or an IPv6 address in brackets */
  name: string
  /** whether it is an IP literal (IPv4 or bracketed IPv6) */
  ip: boolean
  port?: number
  /** `name[:port]` as a browser serialises it in an Origin: the port left out when absent or 80 */
  origin: string
}

export type HostProblem = { problem: 'malformed' } | { problem: 'port'; port: string }

/** Parses one Host value strictly (RFC 9112 §3.2, RFC 3986 §3.2.2–3.2.3), or says why it is none. */
export function parseHost(value: string): ParsedHost | HostProblem {
  let name: string
  let rest: string
  let ip: boolean
  if (value.startsWith('[')) {
    const close = value.indexOf(']')
    const inner = close === -1 ? '' : value.slice(1, close)
    // An IPv6 literal without a zone (RFC 3986 has none); IPvFuture is not an address the gateway can be reached at.
    if (inner.includes('%') || !isIPv6(inner)) return { problem: 'malformed' }
    // The URL parser writes IPv6 as browsers do (compressed, lower case), so the Origin comparison matches.
    const literal = `http://[${inner}]`
    if (!URL.canParse(literal)) return { problem: 'malformed' }
    name = new URL(literal).hostname
    rest = value.slice(close + 1)
    ip = true
  } else {
    const colon = value.indexOf(':')
    name = (colon === -1 ? value : value.slice(0, colon)).toLowerCase()
    rest = colon === -1 ? '' : value.slice(colon)
    if (!REG_NAME.test(name)) return { problem: 'malformed' }
    ip = isIP(name) === 4
  }
  if (rest === '') return { name, ip, origin: name }
  const digits = rest.slice(1)
  if (!rest.startsWith(':') || !PORT.test(digits)) return { problem: 'malformed' }
  if (digits === '') return { name, ip, origin: name }
  const significant = digits.replace(/^0+(?=\d)/, '')
  if (significant.length > 5 || Number(significant) > MAX_PORT) return { problem: 'port', port: digits }
  const port = Number(significant)
  return { name, ip, port, origin: port === HTTP_PORT ? name : `${name}:${port}` }
}

/**
 * The request's one Host value; 400 `invalid_host_header` when there is none or more than one. Counted in the raw
 * header lines: `headersDistinct` would build every header's list on every request for this one name.
 */
function soleHost(req: IncomingMessage): string {
  const raw = req.rawHeaders
  let first: string | undefined
  let count = 0
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]
    if (name.length === 4 && name.toLowerCase() === 'host' && count++ === 0) first = raw[i + 1]
  }
  if (first === undefined) throw gatewayError('invalid_host_header', 'host_header_missing')
  if (count > 1) throw gatewayError('invalid_host_header', 'host_header_repeated', { count })
  return first
}

/**
 * DNS-rebinding guard: a page on another site can point its own name at 127.0.0.1, but it cannot make
 * the browser send a Host of `localhost` or an IP literal. Browser origins other than our own are refused,
 * and no CORS header is ever sent, so other sites can neither call nor read the gateway. The Host must be one
 * well-formed header: anything a parser could read two ways is refused before it is judged.
 */
export function createHostGuard(allowedHosts: readonly string[]) {
  const allowed = new Set([...LOCAL_NAMES, ...allowedHosts.map((h) => h.toLowerCase())])
  // A client sends the same Host on every request: each value is parsed once (a bounded memo of recent ones).
  const recent = new Map<string, ParsedHost | HostProblem>()
  const parsedOnce = (host: string): ParsedHost | HostProblem => {
    let parsed = recent.get(host)
    if (parsed === undefined) {
      if (recent.size >= RECENT_HOSTS) recent.clear()
      parsed = parseHost(host)
      recent.set(host, parsed)
    }
    return parsed
  }
  return (req: IncomingMessage): void => {
    const host = soleHost(req)
    const parsed = parsedOnce(host)
    if ('problem' in parsed) {
      if (parsed.problem === 'port') throw gatewayError('invalid_host_header', 'host_header_port', { host, port: parsed.port })
      throw gatewayError('invalid_host_header', 'host_header_malformed', { host })
    }
    if (!parsed.ip && !allowed.has(parsed.name)) {
      throw gatewayError('host_not_allowed', 'host_not_allowed', { host })
    }
    const origin = req.headers.origin
    if (origin !== undefined && origin !== `http://${parsed.origin}`) {
      throw gatewayError('origin_not_allowed', 'origin_not_allowed', { origin })
    }
  }
}
