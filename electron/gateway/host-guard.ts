import { isIP } from 'node:net'
import type { IncomingMessage } from 'node:http'
import { gatewayError } from './errors.js'

const LOCAL_NAMES = new Set(['localhost', 'localhost.'])

function hostnameOf(host: string): string {
  if (host.startsWith('[')) return host.slice(1, host.indexOf(']'))
  const colon = host.lastIndexOf(':')
  return (colon === -1 ? host : host.slice(0, colon)).toLowerCase()
}

/**
 * DNS-rebinding guard: a page on another site can point its own name at 127.0.0.1, but it cannot make
 * the browser send a Host of `localhost` or an IP literal. Browser origins other than our own are refused,
 * and no CORS header is ever sent, so other sites can neither call nor read the gateway.
 */
export function createHostGuard(allowedHosts: readonly string[]) {
  const allowed = new Set([...LOCAL_NAMES, ...allowedHosts.map((h) => h.toLowerCase())])
  return (req: IncomingMessage): void => {
    const host = req.headers.host ?? ''
    const hostname = hostnameOf(host)
    if (!allowed.has(hostname) && isIP(hostname) === 0) {
      throw gatewayError('host_not_allowed', 'host_not_allowed', { host })
    }
    const origin = req.headers.origin
    if (origin !== undefined && origin !== `http://${host}`) {
      throw gatewayError('origin_not_allowed', 'origin_not_allowed', { origin })
    }
  }
}
