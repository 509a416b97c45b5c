// Team mode: a media write's temporary chunks name their replica and start; what a killed replica left mid-write, or
// any write older than MAX_TEMP_MEDIA_AGE_MS, is removed by the sweep of the replicas still running.
import { PassThrough } from 'node:stream'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { databaseMedia, MAX_TEMP_MEDIA_AGE_MS, removeOrphanedMediaParts } from '../../electron/gateway/media/media-files.js'
import { migratePg } from '../../electron/gateway/store/pg-schema.js'
import { createPgPool, pgSql } from '../../electron/gateway/store/pg-sql.js'
import type { Sql } from '../../electron/gateway/store/sql.js'
import { chatConfig, type TestGateway } from '../helpers/gateway.js'
import { freshDatabase } from '../helpers/pg-database.js'
import { newSecretKey, startReplica } from '../helpers/team.js'
import { until } from '../helpers/until.js'

let pool: pg.Pool
let sql: Sql
let databaseUrl: string
beforeAll(async () => {
  databaseUrl = await freshDatabase()
  pool = createPgPool({ url: databaseUrl, max: 3, log: () => {} })
  sql = pgSql(pool)
  await migratePg(pool)
})
afterAll(() => pool?.end())

const paths = async () => (await sql.all<{ path: string }>('SELECT DISTINCT path FROM media_chunks ORDER BY path')).map((r) => r.path)
const chunk = (path: string) => sql.run('INSERT INTO media_chunks (path, seq, bytes) VALUES (?, 0, ?)', [path, Buffer.from('x')])
const seen = (replica: string, agoMs: number) =>
  sql.run(`INSERT INTO replicas (id, seen_at) VALUES (?, clock_timestamp() - ? * interval '1 millisecond')
           ON CONFLICT (id) DO UPDATE SET seen_at = EXCLUDED.seen_at`, [replica, agoMs])

describe('temporary media chunks in team mode', () => {
  it('are kept under .part/<replica>/<start>-<random> while the write runs, and gone when it fails', async () => {
    await sql.run('DELETE FROM media_chunks')
    const source = new PassThrough()
    const writing = databaseMedia(sql, 'replica-w').write('media/videos/t-1.mp4', source, 10_000_000)
    const before = Date.now()
    source.write(Buffer.alloc(2 * 1024 * 1024))
    const [temp] = await until('the first chunk stored', 5_000, async () => ((await paths()).length > 0 ? paths() : undefined))
    expect(temp).toMatch(/^\.part\/replica-w\/\d+-[0-9a-f]{24}$/)
    expect(Math.abs(Number(temp.split('/')[2].split('-')[0]) - before)).toBeLessThan(5_000)
    source.destroy(new Error('the download broke'))
    await expect(writing).rejects.toThrow('the download broke')
    expect(await paths()).toEqual([])
  })

  it('of a replica not seen for a lease time, or older than the longest write, are removed; a live write and kept media stay', async () => {
    await sql.run('DELETE FROM media_chunks')
    const now = Date.now()
    await seen('live', 0)
    await seen('dead', 60_000)
    await chunk(`.part/live/${now}-aaaa`)
    await chunk(`.part/live/${now - MAX_TEMP_MEDIA_AGE_MS - 1000}-bbbb`)
    await chunk(`.part/dead/${now}-cccc`)
    await chunk(`.part/never-seen/${now}-dddd`)
    // a part written before parts named their replica
    await chunk('.part/0123456789abcdef01234567')
    await chunk('media/images/kept.png')
    expect(await removeOrphanedMediaParts(sql, 10_000, now)).toBe(4)
    expect(await paths()).toEqual([`.part/live/${now}-aaaa`, 'media/images/kept.png'])
    expect(await removeOrphanedMediaParts(sql, 10_000, now)).toBe(0)
  })

  it('a running replica\'s sweep removes what a killed replica left mid-write', async () => {
    await sql.run('DELETE FROM media_chunks')
    let replica: TestGateway | undefined
    try {
      replica = await startReplica(databaseUrl, newSecretKey(), chatConfig([]), { config: { ...chatConfig([]), team: { leaseSeconds: 1 } } })
      // The killed replica: seen last 5 s ago (more than a lease time), its write's chunks left behind.
      await seen('killed', 5_000)
      const left = `.part/killed/${Date.now()}-eeee`
      await chunk(left)
      await sql.run('INSERT INTO media_chunks (path, seq, bytes) VALUES (?, 1, ?)', [left, Buffer.from('y')])
      expect(await paths()).toEqual([left])
      await until('the sweep removed the killed replica\'s chunks', 5_000, async () => (await paths()).length === 0)
    } finally {
      await replica?.stop()
    }
  })
})
