import { isIPv4 } from 'node:net'
import type { ResolveHost } from '../../electron/gateway/guards/link-guard.js'

/**
 * A resolver for the link guard that answers from `names` (name → addresses) without DNS; any other name is
 * ENOTFOUND, as dns.lookup answers it. Lets a test point a name at any address, refused ones included.
 */
export function fakeResolver(names: Record<string, string[]>): ResolveHost {
  return (hostname, _options, callback) => {
    const addresses = names[hostname]
    setImmediate(() => {
      if (addresses === undefined) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname }), [])
      callback(null, addresses.map((address) => ({ address, family: isIPv4(address) ? 4 : 6 })))
    })
  }
}
