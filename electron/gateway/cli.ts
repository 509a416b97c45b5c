import { parseArgs } from 'node:util'
import { ConfigError, loadConfig } from './config/load-config.js'
import { startGateway } from './gateway.js'
import { redactPatterns } from './redact.js'
import { databaseUrlSecrets, redactDatabaseUrl, withoutSecrets } from './store/database-url.js'
import { DATABASE_URL_ENV, teamDatabase } from './team/database-source.js'
import { SECRET_KEY_ENV, TeamStartError } from './team/secret-key.js'
import { defaultDataDir } from './paths.js'
import { readSettings } from './settings.js'

const USAGE = `usage: npm run gateway -- [--config FILE] [--port N] [--data-dir DIR] [--host H] [--database-url postgres://USER@HOST:PORT/DB] [--database-password-file FILE] [--secret-key-file FILE]

Team mode: with --database-url (or GATEHOUSE_DATABASE_URL; the flag wins) the store is that PostgreSQL database,
shared by every replica started on it; without it, the embedded SQLite store in the data dir. Its password: in
GATEHOUSE_DATABASE_URL, in a file (--database-password-file FILE or GATEHOUSE_DATABASE_PASSWORD_FILE; mode 0600), or
in ~/.pgpass (PGPASSFILE); never on the command line, where every local user sees it. Every replica needs the same
secret key: ${SECRET_KEY_ENV} (base64 of 32 bytes) or --secret-key-file FILE. The data dir stays each replica's own
(its settings and sockets).`

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
      'database-url': { type: 'string' },
      'database-password-file': { type: 'string' },
      'secret-key-file': { type: 'string' },
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
  const database = teamDatabase({ flagUrl: values['database-url'], flagPasswordFile: values['database-password-file'], env: process.env })
  databaseSecrets = database?.secrets ?? []
  if (database?.warning) process.stderr.write(`${database.warning}\n`)
  const databaseUrl = database?.url
  const start = { dataDir: values['data-dir']!, config, host: values.host, port, databaseUrl, secretKeyFile: values['secret-key-file'] }
  const gateway = await startGateway(start).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'EADDRINUSE') throw new Error(`port ${port} is already in use; pick another with --port N (or --port 0 for any free port)`)
    throw err
  })
  process.stdout.write(`gateway listening on ${gateway.url}\n`)
  const storeInfo = databaseUrl === undefined ? '' : ` · team mode on ${redactDatabaseUrl(databaseUrl)}`
  process.stderr.write(`OpenAI SDKs: base URL ${gateway.url}/v1 · Anthropic SDKs: base URL ${gateway.url} · data dir ${values['data-dir']}${storeInfo}\n`)
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

/** The database's secrets once known (a password file's too), for removing from the failure message. */
let databaseSecrets: string[] = []

/** The database URL given on the command line or in the environment, for the failure message's redaction. */
function databaseUrlGiven(): string | undefined {
  const flag = process.argv.findIndex((a) => a === '--database-url' || a.startsWith('--database-url='))
  if (flag >= 0) return process.argv[flag].includes('=') ? process.argv[flag].slice('--database-url='.length) : process.argv[flag + 1]
  return process.env[DATABASE_URL_ENV] || undefined
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
  const message = err instanceof ConfigError || err instanceof TeamStartError ? err.message : `gateway failed to start: ${(err as Error).message}`
  // Node's JSON errors quote the text around the fault, which may be a key of the config file; the database's
  // passwords are removed wherever a driver's message quotes them.
  const secrets = [...databaseSecrets, ...databaseUrlSecrets(databaseUrlGiven() ?? '')].sort((a, b) => b.length - a.length)
  process.stderr.write(`${redactPatterns(withoutSecrets(message, secrets))}\n`)
  process.exit(1)
})
