import { build, type Metafile } from 'esbuild'
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { dirname, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * `npm run build:electron`: bundles the desktop shell into dist/electron/: main.js (ESM, the gateway
 * inside it) and preload.cjs (CommonJS, since sandboxed preloads cannot be ES modules). Runtime
 * dependencies stay external; electron-builder ships them in node_modules, rebuilt for Electron.
 */
const root = fileURLToPath(new URL('..', import.meta.url))
const outdir = resolve(root, 'dist/electron')
const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> }
const external = ['electron', ...Object.keys(pkg.dependencies ?? {})]

// Bundled code that calls require() (esbuild's __require shim) gets a real one; the alias keeps the name
// free for sources that import createRequire themselves (electron/gateway/validate.ts does).
const REQUIRE_BANNER = "import { createRequire as __gatehouseCreateRequire } from 'node:module'; const require = __gatehouseCreateRequire(import.meta.url);"

// `new URL('./models.json', import.meta.url)`: after bundling, import.meta.url is dist/electron/main.js.
const ASSET_URL = /new URL\(\s*['"]([^'"]+)['"]\s*,\s*import\.meta\.url\s*\)/g

/**
 * Copies every file a bundled gateway module reads through `new URL(<relative>, import.meta.url)` to the
 * same relative place next to the bundle. Directory URLs are left alone: their code looks for the built
 * output itself (static-files.ts finds dist/renderer).
 */
function copyGatewayAssets(metafile: Metafile): string[] {
  const copied = new Map<string, string>()
  const gatewayDir = resolve(root, 'electron/gateway') + sep
  for (const input of Object.keys(metafile.inputs)) {
    const source = resolve(root, input)
    if (!source.startsWith(gatewayDir) || !/\.[cm]?ts$/.test(source)) continue
    for (const [, rel] of readFileSync(source, 'utf8').matchAll(ASSET_URL)) {
      const from = resolve(dirname(source), rel)
      if (!existsSync(from) || !statSync(from).isFile()) continue
      const to = resolve(outdir, rel)
      if (!to.startsWith(outdir + sep)) throw new Error(`${input}: ${rel} would land outside dist/electron`)
      if (copied.has(to) && copied.get(to) !== from) throw new Error(`${rel}: two different files want dist/electron/${rel}`)
      mkdirSync(dirname(to), { recursive: true })
      copyFileSync(from, to)
      copied.set(to, from)
    }
  }
  return [...copied.keys()]
}

async function main(): Promise<void> {
  // A fresh folder each time, so nothing stale (a renamed asset, an old chunk) gets packaged.
  rmSync(outdir, { recursive: true, force: true })
  const common = { bundle: true, platform: 'node', sourcemap: true, logLevel: 'warning', external } as const
  const result = await build({
    ...common,
    entryPoints: [resolve(root, 'electron/main.ts')],
    outfile: resolve(outdir, 'main.js'),
    format: 'esm',
    // Electron 41 runs Node 24.
    target: 'node22',
    banner: { js: REQUIRE_BANNER },
    metafile: true,
  })
  await build({
    ...common,
    entryPoints: [resolve(root, 'electron/preload.ts')],
    outfile: resolve(outdir, 'preload.cjs'),
    format: 'cjs',
    target: 'chrome130',
  })
  const assets = copyGatewayAssets(result.metafile)
  // The tray shows the app icon (scripts/make-icon.ts draws it); without it the tray icon is blank, not broken.
  const icon = resolve(root, 'build/icon.png')
  if (existsSync(icon)) {
    copyFileSync(icon, resolve(outdir, 'icon.png'))
    assets.push(resolve(outdir, 'icon.png'))
  }
  const files = ['main.js', 'preload.cjs', ...assets.map((a) => relative(outdir, a))]
  process.stderr.write(`built dist/electron: ${files.join(', ')}\n`)
}

main().catch((err: unknown) => {
  process.stderr.write(`build-electron failed: ${(err as Error).message}\n`)
  process.exit(1)
})
