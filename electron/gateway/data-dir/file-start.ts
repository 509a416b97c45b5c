import { closeSync, openSync, readSync } from 'node:fs'

/**
 * The first `maxBytes + 1` bytes of a file at most: one byte too many says the file is not what was meant (a wrong
 * path may name a large file or a device), without reading it whole.
 */
export function readFileStart(path: string, maxBytes: number): Buffer {
  const fd = openSync(path, 'r')
  try {
    const buffer = Buffer.alloc(maxBytes + 1)
    let length = 0
    for (;;) {
      const n = readSync(fd, buffer, length, buffer.length - length, null)
      length += n
      if (n === 0 || length === buffer.length) return buffer.subarray(0, length)
    }
  } finally {
    closeSync(fd)
  }
}
