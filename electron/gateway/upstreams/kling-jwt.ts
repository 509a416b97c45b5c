import { createHmac } from 'node:crypto'
import { GatewayError } from '../errors.js'

/**
 * Kling authenticates each call with a short-lived HS256 JWT minted from the account's AccessKey and SecretKey.
 * @see ../../../docs/vendors/kling.md "Auth"
 */

const b64url = (data: string | Buffer): string => Buffer.from(data).toString('base64url')

/**
 * The account key is stored as `ACCESS_KEY:SECRET_KEY`; `AK|SK` (how other gateways store it) is accepted too.
 * A key without a separator is an account misconfiguration: 502 so that the next account is tried.
 */
export function splitKlingKey(apiKey: string): { accessKey: string; secretKey: string } {
  const at = apiKey.search(/[:|]/)
  if (at <= 0 || at === apiKey.length - 1) {
    throw new GatewayError('upstream_error', { text: 'the Kling account key must be ACCESS_KEY:SECRET_KEY' })
  }
  return { accessKey: apiKey.slice(0, at), secretKey: apiKey.slice(at + 1) }
}

/** `{iss: AK, exp: now + 1800, nbf: now - 5}` as in Kling's sample: valid 30 min, back-dated 5 s for clock skew. */
export function signKlingJwt(accessKey: string, secretKey: string, now: number): string {
  const header = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))
  const payload = b64url(JSON.stringify({ iss: accessKey, exp: now + 1800, nbf: now - 5 }))
  const signature = createHmac('sha256', secretKey).update(`${header}.${payload}`).digest('base64url')
  return `${header}.${payload}.${signature}`
}

/** The Authorization header for one call (a fresh token each time: no cache to expire). */
export function klingAuth(apiKey: string, now: number): Record<string, string> {
  const { accessKey, secretKey } = splitKlingKey(apiKey)
  return { authorization: `Bearer ${signKlingJwt(accessKey, secretKey, now)}` }
}
