import type { IncomingMessage } from 'node:http'
import { gatewayError } from './errors.js'
import type { ApiKey, Registry } from './registry.js'

const BEARER = /^Bearer(?:\s+(\S+))?\s*$/i

/**
 * Spec §5: `Authorization: Bearer` or `x-api-key`; vendor headers and `?key=` are not accepted.
 * Only the Bearer scheme carries a key in Authorization: a bare key or another scheme is refused (401
 * `missing_api_key`, saying to use Bearer), never read as a key.
 */
export function presentedKey(req: IncomingMessage, bearerOnly: boolean): string | undefined {
  const auth = req.headers.authorization?.trim()
  if (auth) {
    const match = BEARER.exec(auth)
    if (!match) throw gatewayError('missing_api_key', 'authorization_not_bearer')
    // `Bearer` with no token is no key at all.
    return match[1]
  }
  if (bearerOnly) return undefined
  const header = req.headers['x-api-key']
  return typeof header === 'string' && header.trim() !== '' ? header.trim() : undefined
}

/** Finds the key and checks it is usable; throws 401 otherwise. */
export function authenticate(req: IncomingMessage, registry: Registry, opts: { bearerOnly: boolean }): ApiKey {
  const presented = presentedKey(req, opts.bearerOnly)
  if (presented === undefined) {
    if (/[?&]key=/.test(req.url ?? '')) throw gatewayError('missing_api_key', 'query_key_refused')
    if (opts.bearerOnly && req.headers['x-api-key'] !== undefined) throw gatewayError('missing_api_key', 'usage_bearer_only')
    throw gatewayError('missing_api_key', 'missing_api_key')
  }
  const hint = maskPresented(presented)
  const key = registry.findKey(presented)
  if (key === undefined) throw gatewayError('invalid_api_key', 'invalid_api_key', { hint })
  if (key.disabled) throw gatewayError('invalid_api_key', 'api_key_disabled', { hint })
  if (key.expiresAt !== null && key.expiresAt * 1000 <= Date.now()) throw gatewayError('api_key_expired', 'api_key_expired', { hint })
  return key
}

/** Never echo a presented secret back whole. */
function maskPresented(key: string): string {
  return key.length <= 10 ? `${key.slice(0, 3)}…` : `${key.slice(0, 6)}…${key.slice(-4)}`
}
