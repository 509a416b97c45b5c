import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { _electron, type ElectronApplication } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))

/** The Electron binary's path, or why there is none. The electron package throws when its binary was never downloaded. */
function electronBinary(): { path?: string; reason?: string } {
  try {
    const path = createRequire(import.meta.url)('electron') as unknown
    if (typeof path === 'string' && existsSync(path)) return { path }
    return { reason: `Electron binary not found at ${String(path)}` }
  } catch {
    return { reason: 'Electron binary not installed (ELECTRON_SKIP_BINARY_DOWNLOAD / no network)' }
  }
}

const binary = electronBinary()
const available = binary.path !== undefined
if (!available) console.warn(`electron smoke test skipped: ${binary.reason}`)

/** Builds what the app loads, if missing: the shell bundle and the renderer the gateway serves. */
function buildIfMissing(): void {
  if (!existsSync(join(root, 'dist/electron/main.js'))) {
    execFileSync(process.execPath, [join(root, 'node_modules/tsx/dist/cli.mjs'), join(root, 'scripts/build-electron.ts')], { cwd: root, stdio: 'inherit' })
  }
  if (!existsSync(join(root, 'dist/renderer/index.html'))) {
    execFileSync(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' })
  }
}

describe('desktop app (Electron)', () => {
  let app: ElectronApplication | undefined
  let dataDir: string | undefined

  beforeAll(() => {
    if (available) buildIfMissing()
  }, 180_000)

  afterAll(async () => {
    await app?.close()
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  })

  it.skipIf(!available)('starts the gateway in-process and shows the chat panel', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-electron-'))
    app = await _electron.launch({
      executablePath: binary.path,
      // Chromium refuses to run as root with its OS sandbox on (CI containers); the window's own sandbox option still applies.
      args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), root],
      // A temp data dir and any free port, so a running Gatehouse (and its single-instance lock) is left alone.
      env: { ...process.env, GATEHOUSE_DATA_DIR: dataDir, GATEHOUSE_PORT: '0' },
      timeout: 60_000,
    })
    const window = await app.firstWindow()
    expect(window.url()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
    await window.waitForSelector('[data-testid="panel-chat"]', { timeout: 60_000 })
    expect(await window.evaluate(() => typeof (globalThis as { api?: unknown }).api)).toBe('object')
  }, 120_000)
})
