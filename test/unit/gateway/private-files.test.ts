import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ensurePrivateDir, tightenDataDir, touchPrivateFile } from '../../../electron/gateway/data-dir/private-files.js'
import { tempDataDir } from '../../helpers/gateway.js'

const modeOf = (path: string) => statSync(path).mode & 0o777

describe.runIf(process.platform !== 'win32')('private data dir', () => {
  let data: ReturnType<typeof tempDataDir>
  beforeEach(() => (data = tempDataDir()))
  afterEach(() => data.remove())

  it('tightens an existing data dir, its media folders and known files at start, leaving the rest alone', () => {
    chmodSync(data.dir, 0o755)
    mkdirSync(join(data.dir, 'media', 'videos'), { recursive: true, mode: 0o755 })
    for (const file of ['gatehouse.sqlite', 'secret.key', 'settings.json']) writeFileSync(join(data.dir, file), 'x', { mode: 0o644 })
    tightenDataDir(data.dir)
    expect([data.dir, join(data.dir, 'media'), join(data.dir, 'media', 'videos')].map(modeOf)).toEqual([0o700, 0o700, 0o700])
    expect(['gatehouse.sqlite', 'secret.key', 'settings.json'].map((f) => modeOf(join(data.dir, f)))).toEqual([0o600, 0o600, 0o600])
  })

  it('creates folders 0700 and files 0600, and tightens ones that existed', async () => {
    const dir = join(data.dir, 'media', 'app')
    mkdirSync(dir, { recursive: true, mode: 0o777 })
    chmodSync(dir, 0o777)
    await ensurePrivateDir(dir)
    const file = join(dir, 'f')
    writeFileSync(file, 'x', { mode: 0o666 })
    chmodSync(file, 0o666)
    touchPrivateFile(file)
    touchPrivateFile(join(dir, 'new'))
    expect([modeOf(dir), modeOf(file), modeOf(join(dir, 'new'))]).toEqual([0o700, 0o600, 0o600])
  })
})
