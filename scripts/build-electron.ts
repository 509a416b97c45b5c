import { build } from 'esbuild'
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs'
import { basename, dirname, relative, resolve } from 'node:path'
import { GATEWAY_WORKERS, gatewayAssets, NODE_ESM, ROOT as root } from './bundle.mjs'

/**
 * `npm run build:electron`: bundles the desktop shell into dist/electron/: main.js (ESM, the gateway
 * inside it) and preload.cjs (CommonJS, since sandboxed preloads cannot be ES modules). Runtime
 * dependencies stay external; electron-builder ships them in node_modules, rebuilt for Electron.
 */
const outdir = resolve(root, 'dist/electron')

async function main(): Promise<void> {
  // A fresh folder each time, so nothing stale (a renamed asset, an old chunk) gets packaged.
  rmSync(outdir, { recursive: true, force: true })
  const result = await build({
    ...NODE_ESM,
    sourcemap: true,
    entryPoints: [resolve(root, 'electron/main.ts'), ...GATEWAY_WORKERS.map((w) => resolve(root, w))],
    outdir,
    entryNames: '[name]',
    // Electron 41 runs Node 24.
    target: 'node22',
  })
  await build({
    bundle: true, platform: 'node', sourcemap: true, logLevel: 'warning', external: NODE_ESM.external,
    entryPoints: [resolve(root, 'electron/preload.ts')],
    outfile: resolve(outdir, 'preload.cjs'),
    format: 'cjs',
    target: 'chrome130',
  })
  const assets: string[] = []
  for (const [to, from] of gatewayAssets(result.metafile, outdir)) {
    mkdirSync(dirname(to), { recursive: true })
    copyFileSync(from, to)
    assets.push(to)
  }
  // The tray shows the app icon (scripts/make-icon.ts draws it); without it the tray icon is blank, not broken.
  const icon = resolve(root, 'build/icon.png')
  if (existsSync(icon)) {
    copyFileSync(icon, resolve(outdir, 'icon.png'))
    assets.push(resolve(outdir, 'icon.png'))
  }
  const workers = GATEWAY_WORKERS.map((w) => `${basename(w, '.ts')}.js`)
  const files = ['main.js', ...workers, 'preload.cjs', ...assets.map((a) => relative(outdir, a))]
  process.stderr.write(`built dist/electron: ${files.join(', ')}\n`)
}

main().catch((err: unknown) => {
  process.stderr.write(`build-electron failed: ${(err as Error).message}\n`)
  process.exit(1)
})
