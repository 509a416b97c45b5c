import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** Encrypts upstream secrets at rest. The desktop app supplies one backed by the OS keychain. */
export interface SecretBox {
  encrypt(plain: string): string
  decrypt(sealed: string): string
}

/** AES-256-GCM with a given 32-byte key; sealed form `v1:<iv>:<tag>:<ciphertext>` in base64url. */
export function aesSecretBox(key: Buffer): SecretBox {
  return {
    encrypt(plain) {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
      return ['v1', iv, cipher.getAuthTag(), data].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join(':')
    },
    decrypt(sealed) {
      const [version, iv, tag, data] = sealed.split(':')
      if (version !== 'v1') throw new Error('unknown secret format')
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
      decipher.setAuthTag(Buffer.from(tag, 'base64url'))
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8')
    },
  }
}

/**
 * Headless fallback: the key lives in `<dataDir>/secret.key`, readable by the owner only (0600).
 * It protects the store file when it is copied alone, not against someone who can read the data dir.
 */
export function fileSecretBox(dataDir: string): SecretBox {
  const path = join(dataDir, 'secret.key')
  if (!existsSync(path)) writeFileSync(path, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' })
  chmodSync(path, 0o600)
  return aesSecretBox(Buffer.from(readFileSync(path, 'utf8'), 'base64'))
}
