import { mkdtempSync, rmSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fileSecretBox } from '../../../electron/gateway/secrets/secrets.js'
import { createVault, keychainStatus, safeStorageSecretBox, type SafeStorageLike } from '../../../electron/vault.js'

/** A stand-in for Electron's safeStorage: XOR with a fixed byte, so sealed text never equals the plain text. */
function fakeSafeStorage(options: { available?: boolean; backend?: string } = {}): SafeStorageLike & { calls: string[] } {
  const calls: string[] = []
  const flip = (buf: Buffer) => Buffer.from(buf.map((b) => b ^ 0x5a))
  return {
    calls,
    isEncryptionAvailable: () => options.available ?? true,
    encryptString: (plain) => (calls.push('encrypt'), flip(Buffer.from(plain, 'utf8'))),
    decryptString: (sealed) => (calls.push('decrypt'), flip(sealed).toString('utf8')),
    getSelectedStorageBackend: () => options.backend ?? 'gnome_libsecret',
  }
}

let dataDir: string
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-vault-'))
})
afterEach(() => rmSync(dataDir, { recursive: true, force: true }))

describe('safeStorageSecretBox', () => {
  it('round-trips through safeStorage with the ss1: prefix', () => {
    const box = safeStorageSecretBox(fakeSafeStorage())
    const sealed = box.encrypt('sk-upstream-secret')
    expect(sealed.startsWith('ss1:')).toBe(true)
    expect(sealed).not.toContain('sk-upstream-secret')
    expect(box.decrypt(sealed)).toBe('sk-upstream-secret')
  })
  it('refuses a secret it did not seal', () => {
    expect(() => safeStorageSecretBox(fakeSafeStorage()).decrypt('v1:a:b:c')).toThrow(/not a safeStorage secret/)
  })
})

describe('keychainStatus', () => {
  it.each([
    ['darwin', {}, true, 'macOS Keychain'],
    ['win32', {}, true, 'Windows DPAPI'],
    ['linux', { backend: 'kwallet5' }, true, 'Linux keyring (kwallet5)'],
    ['linux', { backend: 'basic_text' }, false, 'basic_text'],
    ['darwin', { available: false }, false, 'not available'],
  ] as const)('%s %j → usable %s', (platform, options, usable, detail) => {
    const status = keychainStatus(fakeSafeStorage(options), platform)
    expect(status.usable).toBe(usable)
    expect(status.detail).toContain(detail)
  })
})

describe('createVault', () => {
  it('seals with the keychain when it is usable and writes no key file', () => {
    const vault = createVault(fakeSafeStorage(), dataDir, 'darwin')
    expect(vault.status).toEqual({ backend: 'safeStorage', detail: 'macOS Keychain' })
    const sealed = vault.box.encrypt('hello')
    expect(sealed.startsWith('ss1:')).toBe(true)
    expect(vault.box.decrypt(sealed)).toBe('hello')
    expect(existsSync(join(dataDir, 'secret.key'))).toBe(false)
  })

  it('still opens v1: secrets a headless run sealed with the key file', () => {
    const headless = fileSecretBox(dataDir).encrypt('sealed-headless')
    const safeStorage = fakeSafeStorage()
    const vault = createVault(safeStorage, dataDir, 'darwin')
    expect(vault.box.decrypt(headless)).toBe('sealed-headless')
    expect(safeStorage.calls).toEqual([])
  })

  it('dispatches on the prefix: each secret goes to the box that sealed it', () => {
    const safeStorage = fakeSafeStorage()
    const vault = createVault(safeStorage, dataDir, 'linux')
    const fromFile = fileSecretBox(dataDir).encrypt('file')
    const fromKeychain = vault.box.encrypt('keychain')
    expect([vault.box.decrypt(fromFile), vault.box.decrypt(fromKeychain)]).toEqual(['file', 'keychain'])
    expect(safeStorage.calls).toEqual(['encrypt', 'decrypt'])
    expect(() => vault.box.decrypt('v9:whatever')).toThrow(/unknown secret format/)
  })

  it('falls back to the key file when encryption is unavailable', () => {
    const safeStorage = fakeSafeStorage({ available: false })
    const vault = createVault(safeStorage, dataDir, 'linux')
    expect(vault.status.backend).toBe('file')
    expect(vault.status.detail).toContain('not available')
    const sealed = vault.box.encrypt('fallback')
    expect(sealed.startsWith('v1:')).toBe(true)
    expect(fileSecretBox(dataDir).decrypt(sealed)).toBe('fallback')
    expect(safeStorage.calls).toEqual([])
  })

  it('treats Linux basic_text as no keychain', () => {
    const vault = createVault(fakeSafeStorage({ backend: 'basic_text' }), dataDir, 'linux')
    expect(vault.status.backend).toBe('file')
    expect(vault.status.detail).toContain('basic_text')
    expect(vault.box.encrypt('x').startsWith('v1:')).toBe(true)
  })

  it('says why an ss1: secret cannot open once the keychain is gone', () => {
    const sealed = createVault(fakeSafeStorage(), dataDir, 'linux').box.encrypt('kept')
    const later = createVault(fakeSafeStorage({ available: false }), dataDir, 'linux')
    expect(() => later.box.decrypt(sealed)).toThrow(/OS keychain, which is not available/)
  })
})
