import { createHmac, hash, randomBytes } from 'node:crypto'

/** Hashes gateway keys for the store: HMAC-SHA256 with the install's own secret, so a copied store alone cannot be brute-forced. */
export interface KeyHasher {
  hash(key: string): string
}

/** HMAC-SHA256 (hex) keyed by the install's 32-byte secret. */
export function keyHasher(secret: Buffer): KeyHasher {
  return { hash: (key) => createHmac('sha256', secret).update(key).digest('hex') }
}

/** The plain SHA-256 (hex) that stores before the keyed hash held; also the auth memo's key. */
// One-shot hash (Node 20.12+): run on every request, it costs a quarter of a Hash object's.
export const legacyKeyHash = (key: string): string => hash('sha256', key, 'hex')

/** What may be shown of a key: its start and its last four characters. */
export const keyHint = (key: string): string => `${key.slice(0, 6)}…${key.slice(-4)}`

/** A new gateway key: `sk-` and 48 base62-ish characters. */
export const generateKey = (): string => `sk-gh-${randomBytes(32).toString('base64url')}`

/** A stable id for a key, derived from its (keyed) hash, never from the key itself; kept when a legacy hash is upgraded. */
export const keyId = (hash: string): string => `key_${hash.slice(0, 16)}`
