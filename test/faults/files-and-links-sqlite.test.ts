// The SQLite store's own files in the data dir: the store, its WAL and shared memory, and the media it keeps as
// files, all private (files-and-links.test.ts checks the modes of whatever the data dir holds, on either store).
import { chmodSync, statSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { makePng } from '../fakes/images/image-bytes.js'
import { chatConfig, startTestGateway, tempDataDir } from '../helpers/gateway.js'
import { walkDir } from '../helpers/walk-dir.js'

describe('file modes of the SQLite store', () => {
  it.runIf(process.platform !== 'win32')('gatehouse.sqlite, its WAL and shared memory, and kept media are 0600 in 0700 folders, the data dir too', async () => {
    const data = tempDataDir()
    // as a data dir made by hand may be: the gateway tightens it
    chmodSync(data.dir, 0o755)
    const gw = await startTestGateway(chatConfig([{ id: 'up', baseUrl: 'http://127.0.0.1:9' }]), data)
    try {
      const png = makePng(16, 16)
      const upload = await fetch(`${gw.url}/admin/v1/media?request=r`, { method: 'POST', headers: { authorization: `Bearer ${gw.adminToken}`, 'content-type': 'image/png' }, body: new Uint8Array(png) })
      expect(upload.status).toBe(201)
      const { id } = (await upload.json()) as { id: string }

      const modes = new Map(walkDir(data.dir).map((e) => [e.path, e.mode.toString(8)]))
      expect(['gatehouse.sqlite', 'gatehouse.sqlite-wal', 'gatehouse.sqlite-shm', 'media', 'media/app', `media/app/${id}.png`].map((path) => [path, modes.get(path)]))
        .toEqual([['gatehouse.sqlite', '600'], ['gatehouse.sqlite-wal', '600'], ['gatehouse.sqlite-shm', '600'], ['media', '700'], ['media/app', '700'], [`media/app/${id}.png`, '600']])
      expect((statSync(data.dir).mode & 0o777).toString(8)).toBe('700')
    } finally {
      await gw.stop()
    }
  })
})
