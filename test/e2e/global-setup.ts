import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../..', import.meta.url))
const built = join(root, 'dist', 'renderer', 'index.html')

/** The newest modification time under a folder (sources of the renderer). */
function newest(dir: string): number {
  let time = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    time = Math.max(time, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs)
  }
  return time
}

/**
 * The browser tests drive the built renderer, as users get it: build it once before any test file runs,
 * unless the build is newer than every source it comes from.
 */
export default function setup(): void {
  const sources = Math.max(newest(join(root, 'renderer')), newest(join(root, 'shared')), statSync(join(root, 'vite.config.ts')).mtimeMs)
  if (existsSync(built) && statSync(built).mtimeMs > sources) return
  // Built beside the old build, then swapped in: a test run started meanwhile never reads a half-written folder.
  const next = join(root, 'dist', `renderer.next-${process.pid}`)
  execFileSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn', '--outDir', next, '--emptyOutDir'], { cwd: root, stdio: 'inherit' })
  const old = join(root, 'dist', `renderer.old-${process.pid}`)
  if (existsSync(join(root, 'dist', 'renderer'))) renameSync(join(root, 'dist', 'renderer'), old)
  renameSync(next, join(root, 'dist', 'renderer'))
  rmSync(old, { recursive: true, force: true })
}
