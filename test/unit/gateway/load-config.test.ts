import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../../electron/gateway/config/load-config.js'
import { tempDataDir } from '../../helpers/gateway.js'

const dir = tempDataDir()
afterAll(() => dir.remove())
let files = 0
function configFile(bytes: Buffer): string {
  const path = join(dir.dir, `config-${++files}.json`)
  writeFileSync(path, bytes)
  return path
}

const CONFIG = { account: { balance: 5 }, keys: [{ key: 'sk-laptop-0123456789', group: 'default', name: 'caf\u00e9' }] }
const TEXT = JSON.stringify(CONFIG, null, 2).replace(/\n/g, '\r\n')

describe('a config file as a Windows editor or shell saves it', () => {
  it.each([
    ['UTF-8 with a byte order mark (Notepad, PowerShell Out-File -Encoding utf8)', Buffer.from(`\ufeff${TEXT}`, 'utf8')],
    ['UTF-16 LE with its mark (Windows PowerShell `>`)', Buffer.from(`\ufeff${TEXT}`, 'utf16le')],
  ])('%s: read as the same config', (_name, bytes) => {
    expect(loadConfig(configFile(bytes))).toEqual(CONFIG)
  })

  it('bytes that are not text (Latin-1) are refused naming the file, not read with replacement characters', () => {
    const path = configFile(Buffer.from(TEXT, 'latin1'))
    expect(() => loadConfig(path)).toThrow(`invalid config: ${path}: is not text (UTF-8, or UTF-16 with a byte order mark)`)
  })

  it('a path that names a device or a huge file is read no further than 64 MiB and refused', () => {
    expect(() => loadConfig('/dev/zero')).toThrow('invalid config: /dev/zero: is longer than 64 MiB: not a config file')
  })
})
