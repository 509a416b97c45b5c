// Bundles a TypeScript entry for plain Node with esbuild: what `npm run gateway`, the desktop shell and the
// benchmark run, so that no TypeScript loader sits in the served process (it costs ~50 MB of memory and a
// helper call in every function the loader keeps names for). Plain JavaScript, so Node runs it as it is.
import { build } from 'esbuild'
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = fileURLToPath(new URL('..', import.meta.url))
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
/** Runtime dependencies stay packages, loaded from node_modules (native addons among them). */
export const EXTERNAL = ['electron', ...Object.keys(pkg.dependencies ?? {})]

// Bundled code that calls require() (esbuild's __require shim) gets a real one; the alias keeps the name
// free for sources that import createRequire themselves (electron/gateway/validate.ts does).
const REQUIRE_BANNER = "import { createRequire as __gatehouseCreateRequire } from 'node:module'; const require = __gatehouseCreateRequire(import.meta.url);"

// `new URL('./models.json', import.meta.url)`: after bundling, import.meta.url is the bundle's own address.
const ASSET_URL = /new URL\(\s*['"]([^'"]+)['"]\s*,\s*import\.meta\.url\s*\)/g

/** Worker threads' own entries, bundled beside the gateway's bundle (tokens.ts starts token-worker.js). */
export const GATEWAY_WORKERS = ['electron/gateway/tokens/token-worker.ts']

/** Options every ESM bundle for Node shares. */
export const NODE_ESM = { bundle: true, platform: 'node', format: 'esm', external: EXTERNAL, banner: { js: REQUIRE_BANNER }, logLevel: 'warning', metafile: true }

/**
 * The files bundled modules under `electron/gateway` read through `new URL(<relative>, import.meta.url)`, each
 * with where it must sit next to a bundle in `outdir`. Directory URLs are left alone: their code looks for the
 * built output itself (static-files.ts finds dist/renderer).
 */
export function gatewayAssets(metafile, outdir) {
  const found = new Map()
  const gatewayDir = resolve(ROOT, 'electron/gateway') + sep
  for (const input of Object.keys(metafile.inputs)) {
    const source = resolve(ROOT, input)
    if (!source.startsWith(gatewayDir) || !/\.[cm]?ts$/.test(source)) continue
    for (const [, rel] of readFileSync(source, 'utf8').matchAll(ASSET_URL)) {
      const from = resolve(dirname(source), rel)
      if (!existsSync(from) || !statSync(from).isFile()) continue
      const to = resolve(outdir, rel)
      if (!to.startsWith(outdir + sep)) throw new Error(`${input}: ${rel} would land outside ${relative(ROOT, outdir)}`)
      if (found.has(to) && found.get(to) !== from) throw new Error(`${rel}: two different files want ${relative(ROOT, to)}`)
      found.set(to, from)
    }
  }
  return found
}

/** The newest modification time of the files under `dirs` (and package.json). */
function newestSource(dirs) {
  let newest = statSync(join(ROOT, 'package.json')).mtimeMs
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else newest = Math.max(newest, statSync(path).mtimeMs)
    }
  }
  for (const dir of dirs) walk(join(ROOT, dir))
  return newest
}

/** Writes a file by renaming a finished copy into place, so a process starting at the same time never reads half of it. */
function writeAtomically(path, write) {
  const temp = `${path}.${process.pid}.tmp`
  write(temp)
  renameSync(temp, path)
}

/**
 * `outfile` (ESM, for Node 20) bundled from `entry`, rebuilt when a source under `sourceDirs` is newer; with the
 * `workers` entries and the assets beside it. Several processes may start at once: each writes its own copy of
 * every file and renames it into place, the bundle itself last.
 */
export async function bundleFresh(entry, outfile, sourceDirs, workers = []) {
  const out = resolve(ROOT, outfile)
  if (existsSync(out) && statSync(out).mtimeMs > newestSource(sourceDirs)) return out
  const outdir = dirname(out)
  mkdirSync(outdir, { recursive: true })
  // Each output is named: the bundle as `outfile` says, each worker after its source.
  const entryPoints = Object.fromEntries([[basename(out, '.js'), entry], ...workers.map((w) => [basename(w, extname(w)), w])].map(([name, e]) => [name, resolve(ROOT, e)]))
  const result = await build({ ...NODE_ESM, entryPoints, outdir, target: 'node20', write: false })
  for (const [to, from] of gatewayAssets(result.metafile, outdir)) {
    mkdirSync(dirname(to), { recursive: true })
    writeAtomically(to, (temp) => copyFileSync(from, temp))
  }
  const files = result.outputFiles.filter((f) => f.path !== out)
  for (const file of files) writeAtomically(file.path, (temp) => writeFileSync(temp, file.contents))
  writeAtomically(out, (temp) => writeFileSync(temp, result.outputFiles.find((f) => f.path === out).contents))
  return out
}

