import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { databaseMedia, MEDIA_CHUNK_BYTES, mediaFilesFor } from '../../electron/gateway/media/media-files.js'
import { migratePg } from '../../electron/gateway/store/pg-schema.js'
import { createPgPool, pgSql } from '../../electron/gateway/store/pg-sql.js'
import type { Sql, SqlParams } from '../../electron/gateway/store/sql.js'
import { tempDataDir } from '../helpers/gateway.js'
import { mediaFilesContract, readRange } from '../helpers/media-files-contract.js'
import { freshDatabase } from '../helpers/pg-database.js'

let pool: pg.Pool
let sql: Sql
beforeAll(async () => {
  pool = createPgPool({ url: await freshDatabase(), max: 3, log: () => {} })
  sql = pgSql(pool)
  await migratePg(pool)
})
afterAll(() => pool?.end())

const storedPaths = async () => (await sql.all<{ path: string }>('SELECT DISTINCT path FROM media_chunks ORDER BY path')).map((r) => r.path)

/** Tests in a file run one after another: each starts from an empty table. */
async function emptyMedia() {
  await sql.run('DELETE FROM media_chunks')
  return databaseMedia(sql)
}

mediaFilesContract('the PostgreSQL store', async () => ({ media: await emptyMedia(), stored: storedPaths }))

/** `sql` with a record of the chunks each read asked for. */
function countingChunkReads(inner: Sql): { sql: Sql; seqs: number[] } {
  const seqs: number[] = []
  const get = <T>(text: string, params?: SqlParams) => {
    if (text.includes('substring(bytes')) seqs.push((params as unknown[])[3] as number)
    return inner.get<T>(text, params)
  }
  return { sql: { ...inner, get }, seqs }
}

describe('media in the PostgreSQL store', () => {
  it('are rows of 1 MiB, the last one shorter', async () => {
    const media = await emptyMedia()
    await media.write('media/videos/t-0.mp4', randomBytes(2 * MEDIA_CHUNK_BYTES + 100), 3 * MEDIA_CHUNK_BYTES)
    expect(await sql.all('SELECT path, seq, octet_length(bytes) AS size FROM media_chunks ORDER BY seq')).toEqual([
      { path: 'media/videos/t-0.mp4', seq: 0, size: MEDIA_CHUNK_BYTES },
      { path: 'media/videos/t-0.mp4', seq: 1, size: MEDIA_CHUNK_BYTES },
      { path: 'media/videos/t-0.mp4', seq: 2, size: 100 },
    ])
  })

  it('serve a range by reading only the chunks it covers', async () => {
    await emptyMedia()
    const bytes = randomBytes(3 * MEDIA_CHUNK_BYTES)
    await databaseMedia(sql).write('media/videos/t-0.mp4', bytes, bytes.length)
    const counting = countingChunkReads(sql)
    const file = (await databaseMedia(counting.sql).read('media/videos/t-0.mp4'))!
    expect(await readRange(file, MEDIA_CHUNK_BYTES - 10, MEDIA_CHUNK_BYTES + 9)).toEqual(bytes.subarray(MEDIA_CHUNK_BYTES - 10, MEDIA_CHUNK_BYTES + 10))
    expect(counting.seqs).toEqual([0, 1])
    counting.seqs.length = 0
    expect(await readRange(file, 3 * MEDIA_CHUNK_BYTES - 4, 3 * MEDIA_CHUNK_BYTES - 1)).toEqual(bytes.subarray(-4))
    expect(counting.seqs).toEqual([2])
  })

  it('end a read with an error when the file is replaced meanwhile, rather than mix two files', async () => {
    const media = await emptyMedia()
    await media.write('media/videos/t-0.mp4', randomBytes(2 * MEDIA_CHUNK_BYTES), 2 * MEDIA_CHUNK_BYTES)
    const file = (await media.read('media/videos/t-0.mp4'))!
    await media.write('media/videos/t-0.mp4', randomBytes(10), 10)
    await expect(readRange(file)).rejects.toThrow('media media/videos/t-0.mp4 changed while it was read')
  })

  it('written by several writers of one path at once: each succeeds, and the path holds one of them whole', async () => {
    const media = await emptyMedia()
    const files = [1, 2, 3, 4, 5, 6].map((n) => randomBytes(MEDIA_CHUNK_BYTES + n))
    await Promise.all(files.map((bytes) => media.write('media/images/r-0.png', bytes, bytes.length)))
    const kept = await readRange((await media.read('media/images/r-0.png'))!)
    expect(files.some((written) => written.equals(kept))).toBe(true)
    expect(await storedPaths()).toEqual(['media/images/r-0.png'])
  })

  it('are the choice for a PostgreSQL store: nothing is written to the data dir', async () => {
    await emptyMedia()
    const data = tempDataDir()
    try {
      await mediaFilesFor(sql, data.dir).write(join('media', 'app', 'a.png'), Buffer.from('x'), 1)
      expect(await storedPaths()).toEqual([join('media', 'app', 'a.png')])
      expect(existsSync(join(data.dir, 'media'))).toBe(false)
    } finally {
      data.remove()
    }
  })
})
