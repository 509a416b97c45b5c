import { readdirSync, statSync } from 'node:fs'
import { join, relative, sep } from 'node:path'

export interface DirEntry {
  /** relative to the walked dir, with `/` */
  path: string
  dir: boolean
  /** permission bits */
  mode: number
}

/** Every file and folder under `dir` (none when it is missing), with its mode. */
export function walkDir(dir: string, root = dir): DirEntry[] {
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return []
  }
  return names.flatMap((name) => {
    const path = join(dir, name)
    const stats = statSync(path)
    const entry = { path: relative(root, path).split(sep).join('/'), dir: stats.isDirectory(), mode: stats.mode & 0o777 }
    return stats.isDirectory() ? [entry, ...walkDir(path, root)] : [entry]
  })
}
