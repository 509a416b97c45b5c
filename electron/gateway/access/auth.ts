import type { IncomingMessage } from 'node:http'
import type { RequestContext } from '../context.js'
import { gatewayError } from '../errors.js'
import type { ApiKey } from '../contract/accounts.js'
import type { Registry } from '../registry.js'
import type { Services } from '../services.js'

const BEARER = /^Bearer(?:\s+(\S+))?\s*$/i

/**
 * The key header sent more than once, if one was. Node keeps only the first `Authorization` and joins `x-api-key`
 * values with ", ", so the raw headers are counted: a request must not be able to show one key and be served as another.
 */
function repeatedKeyHeader(raw: readonly string[]): string | undefined {
  let authorization = 0
  let apiKey = 0
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]
    if (name.length === 13 && name.toLowerCase() === 'authorization') authorization++
    else if (name.length === 9 && name.toLowerCase() === 'x-api-key') apiKey++
  }
  return authorization > 1 ? 'Authorization' : apiKey > 1 ? 'x-api-key' : undefined
}

/**
 * Spec §5: `Authorization: Bearer` or `x-api-key`; vendor headers and `?key=` are not accepted.
 * Only the Bearer scheme carries a key in Authorization: a bare key or another scheme is refused (401
 * `missing_api_key`, saying to use Bearer), never read as a key. Two keys (one in each header, and not the same)
 * or a key header sent twice are refused (401 `invalid_api_key`): every rule of a key then holds whichever
 * header carries it, as nothing else can be served in its place.
 */
export function presentedKey(req: IncomingMessage, bearerOnly: boolean): string | undefined {
  const repeated = repeatedKeyHeader(req.rawHeaders)
  if (repeated !== undefined) throw gatewayError('invalid_api_key', 'api_key_header_repeated', { header: repeated })
  const header = req.headers['x-api-key']
  const apiKey = typeof header === 'string' && header.trim() !== '' ? header.trim() : undefined
  const auth = req.headers.authorization?.trim()
  if (auth) {
    const match = BEARER.exec(auth)
    if (!match) throw gatewayError('missing_api_key', 'authorization_not_bearer')
    if (match[1] !== undefined && apiKey !== undefined && match[1] !== apiKey) throw gatewayError('invalid_api_key', 'api_key_headers_differ')
    // `Bearer` with no token is no key at all.
    return match[1]
  }
  return bearerOnly ? undefined : apiKey
}

/** Authenticates a keyed request (`ctx.key`) and tracks it, so that its key's revocation, disabling or expiry ends it. */
export function authenticateRequest(ctx: RequestContext, services: Services, bearerOnly: boolean): ApiKey {
  const key = authenticate(ctx.req, services.registry, { bearerOnly })
  ctx.key = key
  services.keyRequests.track(ctx)
  return key
}

/** Finds the key and checks it is usable; throws 401 otherwise. */
export function authenticate(req: IncomingMessage, registry: Registry, opts: { bearerOnly: boolean }): ApiKey {
  const presented = presentedKey(req, opts.bearerOnly)
  if (presented === undefined) {
    if (/[?&]key=/.test(req.url ?? '')) throw gatewayError('missing_api_key', 'query_key_refused')
    if (opts.bearerOnly && req.headers['x-api-key'] !== undefined) throw gatewayError('missing_api_key', 'usage_bearer_only')
    throw gatewayError('missing_api_key', 'missing_api_key')
  }
  const key = registry.findKey(presented)
  if (key === undefined) throw gatewayError('invalid_api_key', 'invalid_api_key', { hint: maskPresented(presented) })
  if (key.disabled) throw gatewayError('invalid_api_key', 'api_key_disabled', { hint: maskPresented(presented) })
  if (key.expiresAt !== null && key.expiresAt * 1000 <= Date.now()) throw gatewayError('api_key_expired', 'api_key_expired', { hint: maskPresented(presented) })
  return key
}

/** Never echo a presented secret back whole. */
function maskPresented(key: string): string {
  return key.length <= 10 ? `${key.slice(0, 3)}…` : `${key.slice(0, 6)}…${key.slice(-4)}`
}
