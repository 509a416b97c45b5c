import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { GATEWAY_NODE_FLAGS } from '../electron/gateway/node-flags.js'

/**
 * `npm start`: the desktop app where Electron's binary and the built shell exist; otherwise the gateway headless, as
 * `npm run gateway` runs it (its Node flags), saying so. Extra arguments go to the headless gateway (`npm start --
 * --port 9000`).
 */
const root = fileURLToPath(new URL('..', import.meta.url))

function electronBinary(): string | undefined {
  try {
    // The electron package exports the path of its binary, and throws when the binary was never downloaded.
    const path = createRequire(import.meta.url)('electron') as unknown
    return typeof path === 'string' && existsSync(path) ? path : undefined
  } catch {
    return undefined
  }
}

const binary = electronBinary()
const shell = new URL('../dist/electron/main.js', import.meta.url)
// With Electron present, the shell is built from the current sources first (the pages were built by `npm start`).
if (binary) {
  const built = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(new URL('./build-electron.ts', import.meta.url))], { cwd: root, stdio: 'inherit' })
  if (built.status !== 0) process.stderr.write('Gatehouse: building the desktop shell failed.\n')
}
const run = (command: string, args: string[]) => {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit' })
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal))
  child.on('exit', (code) => process.exit(code ?? 0))
}

if (binary && existsSync(shell)) {
  run(binary, [root])
} else {
  const why = binary ? 'the desktop shell could not be built' : "Electron's binary is not installed"
  process.stderr.write(`Gatehouse: ${why}, so the gateway runs headless and serves the app at its own address (below).\n`)
  run(process.execPath, [...GATEWAY_NODE_FLAGS, fileURLToPath(new URL('./gateway.mjs', import.meta.url)), ...process.argv.slice(2)])
}
