import { statSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { dataDirMedia, mediaFilesFor } from '../../../electron/gateway/media/media-files.js'
import { createStore } from '../../../electron/gateway/store/index.js'
import { tempDataDir } from '../../helpers/gateway.js'
import { mediaFilesContract } from '../../helpers/media-files-contract.js'
import { walkDir } from '../../helpers/walk-dir.js'

const dirs: Array<ReturnType<typeof tempDataDir>> = []
afterEach(() => {
  for (const data of dirs.splice(0)) data.remove()
})

mediaFilesContract('the data dir', async () => {
  const data = tempDataDir()
  dirs.push(data)
  return { media: dataDirMedia(data.dir), stored: async () => walkDir(data.dir).filter((e) => !e.dir).map((e) => e.path).sort() }
})

describe('media in the data dir', () => {
  it.runIf(process.platform !== 'win32')('are files 0600 in folders 0700, at the path given', async () => {
    const data = tempDataDir()
    dirs.push(data)
    const media = dataDirMedia(data.dir)
    await media.write(join('media', 'images', 'r-0.png'), Buffer.from('png'), 10)
    await media.write(() => join('media', 'videos', 't-0.mp4'), Buffer.from('mp4'), 10)
    expect(walkDir(data.dir).map((e) => [e.path, e.mode.toString(8)])).toEqual([
      ['media', '700'],
      ['media/images', '700'],
      ['media/images/r-0.png', '600'],
      ['media/videos', '700'],
      ['media/videos/t-0.mp4', '600'],
    ])
  })

  it('are the choice for a SQLite store', async () => {
    const data = tempDataDir()
    dirs.push(data)
    const store = createStore(data.dir, () => {})
    try {
      await mediaFilesFor(store.sql, data.dir).write(join('media', 'app', 'a.png'), Buffer.from('x'), 1)
      expect(statSync(join(data.dir, 'media', 'app', 'a.png')).size).toBe(1)
    } finally {
      await store.close()
    }
  })
})
