import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs'
import { chmod, mkdir } from 'node:fs/promises'
import { join } from 'node:path'

/** The data dir and every directory in it: the owner only. */
export const PRIVATE_DIR_MODE = 0o700
/** Every file in the data dir (store, keys, settings, media): the owner only. */
export const PRIVATE_FILE_MODE = 0o600

/** The media folders the gateway writes, relative to the data dir. */
export const MEDIA_DIRS = ['media', join('media', 'images'), join('media', 'videos'), join('media', 'app')] as const

/** Files the gateway keeps at the top of the data dir (SQLite gives -wal/-shm the store file's mode). */
const KNOWN_FILES = ['gatehouse.sqlite', 'gatehouse.sqlite-wal', 'gatehouse.sqlite-shm', 'secret.key', 'settings.json'] as const

const isPosix = process.platform !== 'win32'

/** chmod that ignores a missing path (and does nothing on Windows, where modes are not POSIX). */
export function restrictMode(path: string, mode: number): void {
  if (!isPosix) return
  try {
    chmodSync(path, mode)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
  }
}

/** Creates a folder (and its parents) with 0700, and tightens it if it already existed. */
export async function ensurePrivateDir(path: string): Promise<void> {
  await mkdir(path, { recursive: true, mode: PRIVATE_DIR_MODE })
  if (isPosix) await chmod(path, PRIVATE_DIR_MODE)
}

/** Creates `path` empty with 0600 unless it exists (so a library that opens it later keeps that mode). */
export function touchPrivateFile(path: string): void {
  closeSync(openSync(path, 'a', PRIVATE_FILE_MODE))
  restrictMode(path, PRIVATE_FILE_MODE)
}

/**
 * At start: the data dir and its media folders 0700, the known top-level files 0600. Files inside the media
 * folders are not walked (a large gallery would slow every start); the gateway writes each one 0600.
 */
export function tightenDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE })
  restrictMode(dataDir, PRIVATE_DIR_MODE)
  for (const dir of MEDIA_DIRS) restrictMode(join(dataDir, dir), PRIVATE_DIR_MODE)
  for (const file of KNOWN_FILES) restrictMode(join(dataDir, file), PRIVATE_FILE_MODE)
}
