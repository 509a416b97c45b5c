import { randomBytes } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { rename, rm, stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../data-dir/private-files.js'
import { ownerGone } from '../store/pg-leases.js'
import type { Sql } from '../store/sql.js'

/** Kept bytes, opened for reading: their size, and a stream of bytes `start`..`end` (both inclusive). */
export interface StoredFile {
  size: number
  stream(start: number, end: number): Readable
}

/**
 * Where the gateway keeps the images and videos it saves (`media.path` names them): the data dir, or in team mode
 * the database, so every replica serves what any replica saved.
 */
export interface MediaFiles {
  /**
   * Stores `source` at `path`, replacing what was there: readers see all of it or nothing. Fails with
   * "is larger than `limit` bytes" past `limit`, and with the source's own error when it fails; either way
   * nothing is left behind. `path` may be a function, asked once every byte is in (when the bytes decide the
   * file's extension). Answers the path.
   */
  write(path: string | (() => string), source: Buffer | Readable, limit: number): Promise<string>
  /** The bytes at `path`, or undefined when there are none. */
  read(path: string): Promise<StoredFile | undefined>
  /** Forgets the bytes at `path` (nothing happens when there are none). */
  remove(path: string): Promise<void>
}

/**
 * The kept media of a store: in its database when that is PostgreSQL (team mode; `replica` names the writer in its
 * temporary rows), in the data dir otherwise.
 */
export function mediaFilesFor(sql: Sql, dataDir: string, replica = ''): MediaFiles {
  return sql.dialect === 'postgres' ? databaseMedia(sql, replica) : dataDirMedia(dataDir)
}

/** Counts bytes as they pass and fails the write past `limit`. */
function capped(limit: number) {
  return async function* (source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    let size = 0
    for await (const chunk of source) {
      size += chunk.length
      if (size > limit) throw new Error(`is larger than ${limit} bytes`)
      yield chunk
    }
  }
}

const readableOf = (source: Buffer | Readable): Readable => (Buffer.isBuffer(source) ? Readable.from([source]) : source)

const pathOf = (path: string | (() => string)): string => (typeof path === 'string' ? path : path())

/**
 * Files under the data dir (paths relative to it), 0600 in 0700 folders. A write goes to a temp file in
 * `media/` and is renamed into place, so a half-written file never shows.
 */
export function dataDirMedia(dataDir: string): MediaFiles {
  return {
    async write(path, source, limit) {
      const tempDir = join(dataDir, 'media')
      await ensurePrivateDir(tempDir)
      const temp = join(tempDir, `.${randomBytes(8).toString('hex')}.part`)
      const out = createWriteStream(temp, { mode: PRIVATE_FILE_MODE })
      try {
        await pipeline(readableOf(source), capped(limit), out)
        const final = pathOf(path)
        await ensurePrivateDir(dirname(join(dataDir, final)))
        await rename(temp, join(dataDir, final))
        return final
      } catch (err) {
        // A stream destroyed while it was opening still creates its file: remove it once it is closed.
        if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()))
        await rm(temp, { force: true })
        throw err
      }
    },
    async read(path) {
      const file = join(dataDir, path)
      const size = await fileSize(file)
      return size === undefined ? undefined : { size, stream: (start, end) => createReadStream(file, { start, end }) }
    },
    async remove(path) {
      await rm(join(dataDir, path), { force: true })
    },
  }
}

/**
 * Team mode's sweep: removes the temporary chunks of writes never finished, those of replicas not seen for `ttlMs`
 * (killed mid-write) and any older than MAX_TEMP_MEDIA_AGE_MS. Answers how many writes' chunks went.
 */
export async function removeOrphanedMediaParts(sql: Sql, ttlMs: number, now: number = Date.now()): Promise<number> {
  const row = await sql.get<{ writes: number }>(
    `WITH gone AS (
       DELETE FROM media_chunks WHERE path LIKE '${TEMP_PREFIX}%' AND (
         ${ownerGone("split_part(path, '/', 2)")}
         OR CASE WHEN path ~ '^\\.part/[^/]*/[0-9]{1,15}-' THEN split_part(split_part(path, '/', 3), '-', 1)::bigint < @oldest ELSE false END
       )
       RETURNING path
     )
     SELECT count(DISTINCT path)::int AS writes FROM gone`,
    { ttlMs, oldest: now - MAX_TEMP_MEDIA_AGE_MS },
  )
  return row!.writes
}

/** Bytes per row of `media_chunks`: a read holds one chunk at a time, never a whole video. */
export const MEDIA_CHUNK_BYTES = 1024 * 1024

/** The advisory lock class of media writes (with the path's hash): "media" in ASCII, within an int4. */
const MEDIA_LOCK_CLASS = 0x6d656469

/** Where a write's chunks wait until they are whole: `.part/<replica>/<ms since the epoch>-<random>` (no real path starts with a dot). */
const TEMP_PREFIX = '.part/'
/** A write's temporary rows this old are a leak even when their replica lives: no write takes this long. */
export const MAX_TEMP_MEDIA_AGE_MS = 6 * 60 * 60_000

/**
 * Rows of `media_chunks (path, seq, bytes)` in the store's PostgreSQL database, 1 MiB each (an empty file is one
 * empty chunk, so it is not missing). A write inserts its chunks under a temporary path, one statement each, then
 * moves them to `path` in one short transaction: a download that takes minutes holds no connection and no
 * transaction open meanwhile, and readers see the old bytes or the new ones, never part of them. The temporary path
 * names the replica and the write's start, so that what a killed replica left is swept (removeOrphanedMediaParts).
 */
export function databaseMedia(sql: Sql, replica = ''): MediaFiles {
  const insert = (path: string, seq: number, bytes: Buffer) =>
    sql.run('INSERT INTO media_chunks (path, seq, bytes) VALUES (?, ?, ?)', [path, seq, bytes])

  return {
    async write(path, source, limit) {
      const temp = `${TEMP_PREFIX}${replica}/${Date.now()}-${randomBytes(12).toString('hex')}`
      try {
        let seq = 0
        for await (const chunk of chunked(capped(limit)(readableOf(source)))) await insert(temp, seq++, chunk)
        if (seq === 0) await insert(temp, seq++, Buffer.alloc(0))
        const final = pathOf(path)
        await sql.transaction(async (tx) => {
          // Two writers of one path take turns, so the later one replaces the earlier (as a rename does).
          await tx.get('SELECT pg_advisory_xact_lock(?, hashtext(?))', [MEDIA_LOCK_CLASS, final])
          await tx.run('DELETE FROM media_chunks WHERE path = ?', [final])
          await tx.run('UPDATE media_chunks SET path = ? WHERE path = ?', [final, temp])
        })
        return final
      } catch (err) {
        await sql.run('DELETE FROM media_chunks WHERE path = ?', [temp]).catch(() => undefined)
        throw err
      }
    },
    async read(path) {
      const row = await sql.get<{ chunks: number; size: number | null }>(
        'SELECT COUNT(*) AS chunks, SUM(octet_length(bytes)) AS size FROM media_chunks WHERE path = ?',
        [path],
      )
      if (!row || row.chunks === 0) return undefined
      return { size: row.size ?? 0, stream: (start, end) => Readable.from(chunkRange(sql, path, start, end)) }
    },
    async remove(path) {
      await sql.run('DELETE FROM media_chunks WHERE path = ?', [path])
    },
  }
}

/** Re-cuts a stream into MEDIA_CHUNK_BYTES pieces (the last may be shorter). */
async function* chunked(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let pending: Buffer[] = []
  let pendingBytes = 0
  for await (const piece of source) {
    pending.push(piece)
    pendingBytes += piece.length
    if (pendingBytes < MEDIA_CHUNK_BYTES) continue
    let all = Buffer.concat(pending, pendingBytes)
    while (all.length >= MEDIA_CHUNK_BYTES) {
      yield all.subarray(0, MEDIA_CHUNK_BYTES)
      all = all.subarray(MEDIA_CHUNK_BYTES)
    }
    pending = [all]
    pendingBytes = all.length
  }
  if (pendingBytes > 0) yield Buffer.concat(pending, pendingBytes)
}

/** Bytes `start`..`end` of `path`, read chunk by chunk, each chunk only for the part of it the range covers. */
async function* chunkRange(sql: Sql, path: string, start: number, end: number): AsyncGenerator<Buffer> {
  for (let seq = Math.floor(start / MEDIA_CHUNK_BYTES); seq <= Math.floor(end / MEDIA_CHUNK_BYTES); seq++) {
    const from = Math.max(start - seq * MEDIA_CHUNK_BYTES, 0)
    const length = Math.min(end - seq * MEDIA_CHUNK_BYTES, MEDIA_CHUNK_BYTES - 1) - from + 1
    const row = await sql.get<{ bytes: Buffer }>('SELECT substring(bytes FROM ? FOR ?) AS bytes FROM media_chunks WHERE path = ? AND seq = ?', [from + 1, length, path, seq])
    // Replaced or removed since it was opened: end the response short rather than send bytes of another file.
    if (!row || row.bytes.length !== length) throw new Error(`media ${path} changed while it was read`)
    yield row.bytes
  }
}

/** The size of a file, or undefined when it is not there. */
export const fileSize = (path: string): Promise<number | undefined> =>
  stat(path).then((s) => (s.isFile() ? s.size : undefined), () => undefined)
