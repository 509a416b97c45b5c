import { parseArgs } from 'node:util'
import { ConfigError, loadConfig } from './config/load-config.js'
import { startGateway } from './gateway.js'
import { redactPatterns } from './redact.js'
import { defaultDataDir } from './paths.js'
import { readSettings } from './settings.js'

const USAGE = 'usage: npm run gateway -- [--config FILE] [--port N] [--data-dir DIR] [--host H]'

/**
 * Headless run. Contract: exactly one stdout line, `gateway listening on http://HOST:PORT`, once it accepts
 * connections; everything else goes to stderr. SIGTERM/SIGINT drain in-flight requests and close the store.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      config: { type: 'string' },
      port: { type: 'string' },
      'data-dir': { type: 'string', default: defaultDataDir() },
      host: { type: 'string', default: '127.0.0.1' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  if (values.help) {
    process.stderr.write(`${USAGE}\n`)
    return
  }
  // The port: --port, else the one saved in the app's settings (default 8787).
  const port = values.port === undefined ? readSettings(values['data-dir']!).port : Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError('--port', `"${values.port}" is not a port number`)
  const config = values.config ? loadConfig(values.config) : undefined
  const gateway = await startGateway({ dataDir: values['data-dir']!, config, host: values.host, port }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'EADDRINUSE') throw new Error(`port ${port} is already in use; pick another with --port N (or --port 0 for any free port)`)
    throw err
  })
  process.stdout.write(`gateway listening on ${gateway.url}\n`)
  process.stderr.write(`OpenAI SDKs: base URL ${gateway.url}/v1 · Anthropic SDKs: base URL ${gateway.url} · data dir ${values['data-dir']}\n`)
  const app = gateway.services.app.rendererDir ? `Open the app in a browser (this sign-in address works once): ${gateway.loginUrl()}` : 'The app is not built (npm run build:renderer); the API is served.'
  process.stderr.write(`${app}\n`)
  if (gateway.firstKey) {
    process.stderr.write(`First start: created a key for the "default" group. It is shown only this once:\n  ${gateway.firstKey}\n`)
  }
  let stopping = false
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    process.stderr.write(`${signal}: finishing in-flight requests…\n`)
    gateway.close(10_000).then(
      () => process.exit(0),
      (err) => {
        gateway.services.log(`shutdown failed: ${(err as Error).message}`)
        process.exit(1)
      },
    )
  }
  process.on('SIGTERM', () => stop('SIGTERM'))
  process.on('SIGINT', () => stop('SIGINT'))
}

/**
 * The last resort: an error nothing caught is logged in one line (its message only: no stack, no request
 * data, nothing secret) and the gateway keeps serving the other clients. Request-caused errors never get
 * here; they are answered by the server's one error renderer.
 */
function keepServing(kind: string) {
  return (err: unknown) => {
    const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err)
    process.stderr.write(`[gatehouse] ${kind} (kept serving): ${message.split('\n', 1)[0]}\n`)
  }
}
process.on('uncaughtException', keepServing('uncaught exception'))
process.on('unhandledRejection', keepServing('unhandled rejection'))

main().catch((err: unknown) => {
  const message = err instanceof ConfigError ? err.message : `gateway failed to start: ${(err as Error).message}`
  // Node's JSON errors quote the text around the fault, which may be a key of the config file.
  process.stderr.write(`${redactPatterns(message)}\n`)
  process.exit(1)
})
