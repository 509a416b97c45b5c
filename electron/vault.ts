import { fileSecretBox, type SecretBox } from './gateway/secrets/secrets.js'
import type { IpcContract } from '../shared/ipc.js'

/** The part of Electron's `safeStorage` the vault uses; injected so the logic runs (and is tested) without Electron. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean
  encryptString(plainText: string): Buffer
  decryptString(encrypted: Buffer): string
  /** Linux only */
  getSelectedStorageBackend?(): string
}

/** Where secrets are sealed, as the `vault:status` channel reports it. */
export type VaultStatus = IpcContract['vault:status']['res']

/** The SecretBox the gateway gets, plus what backs it. */
export interface Vault {
  box: SecretBox
  status: VaultStatus
}

/** Prefix of secrets sealed by the OS keychain; the file box's are `v1:`. */
export const SAFE_STORAGE_PREFIX = 'ss1:'
const FILE_BOX_PREFIX = 'v1:'

const KEYCHAIN_NAMES: Partial<Record<NodeJS.Platform, string>> = { darwin: 'macOS Keychain', win32: 'Windows DPAPI' }

/** Seals with `safeStorage` only: `ss1:` + base64 of `encryptString`. */
export function safeStorageSecretBox(safeStorage: SafeStorageLike): SecretBox {
  return {
    encrypt: (plain) => SAFE_STORAGE_PREFIX + safeStorage.encryptString(plain).toString('base64'),
    decrypt(sealed) {
      if (!sealed.startsWith(SAFE_STORAGE_PREFIX)) throw new Error('not a safeStorage secret')
      return safeStorage.decryptString(Buffer.from(sealed.slice(SAFE_STORAGE_PREFIX.length), 'base64'))
    },
  }
}

/**
 * Whether the OS keychain really protects secrets. On Linux without a keyring Chromium falls back to
 * `basic_text`, a hard-coded key: encryption "works" but protects nothing, so the key file is no worse.
 */
export function keychainStatus(safeStorage: SafeStorageLike, platform: NodeJS.Platform = process.platform): { usable: boolean; detail: string } {
  if (!safeStorage.isEncryptionAvailable()) return { usable: false, detail: 'the OS keychain is not available' }
  if (platform === 'linux') {
    const backend = safeStorage.getSelectedStorageBackend?.() ?? 'unknown'
    if (backend === 'basic_text') return { usable: false, detail: 'no keyring found (safeStorage backend basic_text)' }
    return { usable: true, detail: `Linux keyring (${backend})` }
  }
  return { usable: true, detail: KEYCHAIN_NAMES[platform] ?? 'OS keychain' }
}

/**
 * The desktop app's SecretBox: new secrets go to the OS keychain when it is usable, else to the 0600 key
 * file in the data dir. Decryption follows each secret's prefix, so secrets sealed by a headless run (`v1:`)
 * keep working in the desktop app and the other way round.
 */
export function createVault(safeStorage: SafeStorageLike, dataDir: string, platform: NodeJS.Platform = process.platform): Vault {
  const keychain = keychainStatus(safeStorage, platform)
  const keychainBox = safeStorageSecretBox(safeStorage)
  // Made on first use: a desktop-only install never needs (or writes) the key file.
  let fileBox: SecretBox | undefined
  const file = () => (fileBox ??= fileSecretBox(dataDir))
  const box: SecretBox = {
    encrypt: (plain) => (keychain.usable ? keychainBox.encrypt(plain) : file().encrypt(plain)),
    decrypt(sealed) {
      if (sealed.startsWith(SAFE_STORAGE_PREFIX)) {
        if (!safeStorage.isEncryptionAvailable()) throw new Error('this secret was sealed by the OS keychain, which is not available now')
        return keychainBox.decrypt(sealed)
      }
      if (sealed.startsWith(FILE_BOX_PREFIX)) return file().decrypt(sealed)
      throw new Error('unknown secret format')
    },
  }
  const status: VaultStatus = keychain.usable
    ? { backend: 'safeStorage', detail: keychain.detail }
    : { backend: 'file', detail: `${keychain.detail}; secrets are sealed with the owner-only key file in the data dir` }
  return { box, status }
}
