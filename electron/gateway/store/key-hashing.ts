import { randomBytes } from 'node:crypto'
import { keyHasher, type KeyHasher } from '../secrets/keys.js'
import type { SecretBox } from '../secrets/secrets.js'
import type { Repos } from './index.js'

/**
 * The install's key hasher. Its secret is 32 random bytes made at the first start, sealed by the SecretBox (the OS
 * keychain in the desktop app, the 0600 key file headless) and kept in the store: a copy of the store alone is
 * not enough to test guesses of a key against its hash.
 */
export async function installKeyHasher(store: Repos, secrets: SecretBox): Promise<KeyHasher> {
  const sealed = await store.meta.ensure('key_hash_secret', () => secrets.encrypt(randomBytes(32).toString('base64')))
  return keyHasher(Buffer.from(secrets.decrypt(sealed), 'base64'))
}

/** At start: legacy rows whose key the store holds sealed (the app's own keys) get their keyed hash at once. */
export async function upgradeSealedKeys(store: Repos, secrets: SecretBox, hasher: KeyHasher): Promise<number> {
  return store.transaction(async (tx) => {
    let upgraded = 0
    for (const row of await tx.apiKeys.legacySealed()) {
      if (await tx.apiKeys.rehash(row.id, hasher.hash(secrets.decrypt(row.app_secret_enc!)))) upgraded++
    }
    return upgraded
  })
}
