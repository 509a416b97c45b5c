import { closeSync, openSync, readSync } from 'node:fs'

/** Bytes read at a time: a small file costs one small buffer, a large bound no buffer of its size up front. */
const CHUNK_BYTES = 64 * 1024

/**
 * The first `maxBytes + 1` bytes of a file at most: one byte too many says the file is not what was meant (a wrong
 * path may name a large file or a device), without reading it whole.
 */
export function readFileStart(path: string, maxBytes: number): Buffer {
  const fd = openSync(path, 'r')
  try {
    const chunks: Buffer[] = []
    let length = 0
    while (length <= maxBytes) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, maxBytes + 1 - length))
      const n = readSync(fd, chunk, 0, chunk.length, null)
      if (n === 0) break
      chunks.push(chunk.subarray(0, n))
      length += n
    }
    return Buffer.concat(chunks, length)
  } finally {
    closeSync(fd)
  }
}
