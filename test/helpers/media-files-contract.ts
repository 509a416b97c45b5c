import { createHash, randomBytes } from 'node:crypto'
import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { MEDIA_CHUNK_BYTES, type MediaFiles, type StoredFile } from '../../electron/gateway/media/media-files.js'

export interface MediaFilesUnderTest {
  media: MediaFiles
  /** Every path holding bytes, temporary ones included, sorted. */
  stored(): Promise<string[]>
}

/** Reads bytes `start`..`end` of a stored file whole. */
export async function readRange(file: StoredFile, start = 0, end = file.size - 1): Promise<Buffer> {
  const parts: Buffer[] = []
  for await (const part of file.stream(start, end)) parts.push(part as Buffer)
  return Buffer.concat(parts)
}

/** `bytes` as a stream of `piece`-byte parts (sizes that fall across chunk boundaries). */
const streamOf = (bytes: Buffer, piece: number): Readable =>
  Readable.from((function* () {
    for (let at = 0; at < bytes.length; at += piece) yield bytes.subarray(at, at + piece)
  })())

/** A stream that gives `bytes`, then fails with `message`. */
const failingStream = (bytes: Buffer, message: string): Readable =>
  Readable.from((async function* () {
    yield bytes
    throw new Error(message)
  })())

/** Length and hash: as exact as the bytes, and fast to compare at megabytes. */
const fingerprint = (b: Buffer) => ({ length: b.length, sha256: createHash('sha256').update(b).digest('hex') })

/**
 * What every MediaFiles keeps to: the data dir's and the database's answer the same. `make` gives a fresh, empty
 * one for each test.
 */
export function mediaFilesContract(name: string, make: () => Promise<MediaFilesUnderTest>): void {
  describe(`${name}: the MediaFiles contract`, () => {
    it('keeps a buffer and reads it back whole, with its size', async () => {
      const { media, stored } = await make()
      const bytes = randomBytes(5000)
      expect(await media.write('media/images/r-0.png', bytes, 10_000)).toBe('media/images/r-0.png')
      const file = (await media.read('media/images/r-0.png'))!
      expect(file.size).toBe(5000)
      expect(await readRange(file)).toEqual(bytes)
      expect(await stored()).toEqual(['media/images/r-0.png'])
    })

    it('keeps a stream across chunk boundaries and serves any range of it', async () => {
      const { media } = await make()
      const bytes = randomBytes(2 * MEDIA_CHUNK_BYTES + 12_345)
      await media.write('media/videos/t-0.mp4', streamOf(bytes, 100_003), bytes.length)
      const file = (await media.read('media/videos/t-0.mp4'))!
      expect(file.size).toBe(bytes.length)
      const ranges: Array<[number, number]> = [
        [0, 0],
        [4, 11],
        [MEDIA_CHUNK_BYTES - 3, MEDIA_CHUNK_BYTES + 2],
        [MEDIA_CHUNK_BYTES, 2 * MEDIA_CHUNK_BYTES - 1],
        [10, bytes.length - 10],
        [bytes.length - 1, bytes.length - 1],
      ]
      for (const [start, end] of ranges) expect(fingerprint(await readRange(file, start, end)), `${start}-${end}`).toEqual(fingerprint(bytes.subarray(start, end + 1)))
    })

    it('answers undefined for a path with nothing at it', async () => {
      const { media } = await make()
      await media.write('media/app/a.png', randomBytes(10), 10)
      expect(await media.read('media/app/b.png')).toBeUndefined()
      expect(await media.read('media/app')).toBeUndefined()
    })

    it('keeps an empty file as empty, not missing', async () => {
      const { media } = await make()
      await media.write('media/app/empty.png', Buffer.alloc(0), 10)
      expect((await media.read('media/app/empty.png'))?.size).toBe(0)
      await media.write('media/app/empty-stream.png', Readable.from([]), 10)
      expect((await media.read('media/app/empty-stream.png'))?.size).toBe(0)
    })

    it('asks a path function for the path once every byte is in', async () => {
      const { media, stored } = await make()
      let seen = 0
      const source = Readable.from((function* () {
        for (let i = 0; i < 3; i++) yield randomBytes(1000)
        seen = 3000
      })())
      expect(await media.write(() => `media/app/x-${seen}.webm`, source, 3000)).toBe('media/app/x-3000.webm')
      expect(await stored()).toEqual(['media/app/x-3000.webm'])
    })

    it('replaces what a path held', async () => {
      const { media, stored } = await make()
      await media.write('media/images/r-0.png', randomBytes(MEDIA_CHUNK_BYTES + 1), MEDIA_CHUNK_BYTES + 1)
      const second = randomBytes(7)
      await media.write('media/images/r-0.png', second, 7)
      const file = (await media.read('media/images/r-0.png'))!
      expect([file.size, await readRange(file)]).toEqual([7, second])
      expect(await stored()).toEqual(['media/images/r-0.png'])
    })

    it('refuses more than the limit and leaves nothing behind, not even a part', async () => {
      const { media, stored } = await make()
      await expect(media.write('media/videos/big.mp4', streamOf(randomBytes(MEDIA_CHUNK_BYTES + 10), 65_536), MEDIA_CHUNK_BYTES)).rejects.toThrow(
        `is larger than ${MEDIA_CHUNK_BYTES} bytes`,
      )
      await expect(media.write('media/images/big.png', randomBytes(11), 10)).rejects.toThrow('is larger than 10 bytes')
      expect(await media.read('media/videos/big.mp4')).toBeUndefined()
      expect(await stored()).toEqual([])
    })

    it('fails with the source\'s error and leaves nothing behind, keeping what the path held before', async () => {
      const { media, stored } = await make()
      const before = randomBytes(100)
      await media.write('media/videos/t-0.mp4', before, 100)
      await expect(media.write('media/videos/t-0.mp4', failingStream(randomBytes(MEDIA_CHUNK_BYTES + 5), 'link went away'), 10 * MEDIA_CHUNK_BYTES)).rejects.toThrow(
        'link went away',
      )
      expect(await readRange((await media.read('media/videos/t-0.mp4'))!)).toEqual(before)
      expect(await stored()).toEqual(['media/videos/t-0.mp4'])
    })

    it('keeps 20 MB streamed and gives back the same bytes', async () => {
      const { media } = await make()
      const bytes = randomBytes(20 * 1024 * 1024)
      await media.write('media/videos/twenty.mp4', streamOf(bytes, 64 * 1024), 25 * 1024 * 1024)
      const file = (await media.read('media/videos/twenty.mp4'))!
      expect(file.size).toBe(bytes.length)
      expect(fingerprint(await readRange(file))).toEqual(fingerprint(bytes))
    })
  })
}
