import { createHash, randomBytes } from 'node:crypto'

/** Keys are high-entropy random strings, so one SHA-256 is the right hash: fast and irreversible. */
export const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex')

/** What may be shown of a key: its start and its last four characters. */
export const keyHint = (key: string): string => `${key.slice(0, 6)}…${key.slice(-4)}`

/** A new gateway key: `sk-` and 48 base62-ish characters. */
export const generateKey = (): string => `sk-gh-${randomBytes(32).toString('base64url')}`

/** A stable id for a key, derived from its hash (never from the key itself). */
export const keyId = (hash: string): string => `key_${hash.slice(0, 16)}`
