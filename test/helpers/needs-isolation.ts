import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * What makes a test file change the process it runs in for the files after it, were they to share it: module
 * mocks and stubbed globals, fake timers, the process's environment, working directory or listeners, and undici's
 * global dispatcher. Matched in the file's own text (the shared helpers change none of these for good).
 */
const CHANGES_THE_PROCESS = [
  /\bvi\.(mock|doMock|unmock|doUnmock|stubGlobal|stubEnv|useFakeTimers|resetModules)\(/,
  /\bprocess\.env(\.\w+|\[[^\]]+\])\s*=(?!=)/,
  /\bdelete\s+process\.env\b/,
  /\bprocess\.(chdir|umask|on|once|prependListener|setUncaughtExceptionCaptureCallback)\(/,
  /\bsetGlobalDispatcher\(/,
  /\bglobalThis\.\w+\s*=(?!=)/,
  /\bObject\.defineProperty\(\s*(globalThis|process)\b/,
]

/**
 * The test files under `dir` (paths relative to `root`, with `/`) that change their process for good and so need
 * one of their own (vitest's `isolate`), found by their text each time the config loads: a file added later that
 * mocks a module or sets an environment variable is isolated without anyone listing it.
 */
export function filesChangingTheProcess(root: string, dir = 'test'): string[] {
  const files = readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .map((name) => `${dir}/${name.split('\\').join('/')}`)
    .filter((path) => path.endsWith('.test.ts'))
    .sort()
  return files.filter((path) => CHANGES_THE_PROCESS.some((pattern) => pattern.test(readFileSync(join(root, path), 'utf8'))))
}
