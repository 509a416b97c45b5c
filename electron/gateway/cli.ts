import { parseArgs } from 'node:util'
import { ConfigError, loadConfig } from './config/load-config.js'
import { startGateway, type RunningGateway } from './gateway.js'
import { LoginCommandError, newSignInAddress } from './admin/login-command.js'
import { redactPatterns } from './secrets/redact.js'
import { forgetRunning, recordRunning } from './data-dir/running-record.js'
import { databaseUrlSecrets, redactDatabaseUrl, withoutSecrets } from './store/database-url.js'
import { DATABASE_URL_ENV, teamDatabase } from './team/database-source.js'
import { SECRET_KEY_ENV, TeamStartError, teamSecretBox } from './team/secret-key.js'
import { ImportError, importSqlite } from './team/import-sqlite.js'
import { defaultDataDir } from './data-dir/paths.js'
import { outliveLogPipes } from './log-pipes.js'
import { readSettings } from './data-dir/settings.js'
import { CONNECT_COMMANDS, ConnectCommandError, describeResult, runConnectCommand, type ConnectCommand } from './admin/connect-command.js'

const USAGE = `usage: npm run gateway -- [--config FILE] [--port N] [--data-dir DIR] [--host H] [--database-url postgres://USER@HOST:PORT/DB] [--database-password-file FILE] [--secret-key-file FILE]
       npm run gateway -- --login [--data-dir DIR] [--database-url URL] [--database-password-file FILE]
       npm run gateway -- connect claude-code|codex [--group G] [--model M] [--dry-run] [--data-dir DIR] [--database-url URL]
       npm run gateway -- disconnect|undo claude-code|codex [--dry-run] [--data-dir DIR] [--database-url URL]
       npm run gateway -- import-sqlite FILE --database-url URL [--database-password-file FILE] [--secret-key-file FILE] [--force]

connect points the tool at the gateway running on the data dir: a key of the right group, and only Gatehouse's keys
merged into the tool's own settings (a backup of each file first); disconnect takes out only what it added; undo
restores each file from its backup byte for byte. --dry-run prints the diffs and writes nothing. The diffs and the
outcome go to stdout.

import-sqlite moves the embedded store FILE (a data dir's gatehouse.sqlite, with its media/) into the PostgreSQL
database, idempotently, and prints each figure in both; the secret key must be the data dir's secret.key. It refuses
a database holding another store's data unless --force.

--login prints a new one-time sign-in address of the gateway running on the data dir (on stdout) and exits; it
starts no server. A team replica needs its database named as the replica has it.

Team mode: with --database-url (or GATEHOUSE_DATABASE_URL; the flag wins) the store is that PostgreSQL database,
shared by every replica started on it; without it, the embedded SQLite store in the data dir. Its password: in
GATEHOUSE_DATABASE_URL, in a file (--database-password-file FILE or GATEHOUSE_DATABASE_PASSWORD_FILE; mode 0600), or
in ~/.pgpass (PGPASSFILE); never on the command line, where every local user sees it. Every replica needs the same
secret key: ${SECRET_KEY_ENV} (base64 of 32 bytes) or --secret-key-file FILE. The data dir stays each replica's own
(its settings and sockets).`

/**
 * Headless run. Contract: exactly one stdout line, `gateway listening on http://HOST:PORT`, once it accepts
 * connections; everything else goes to stderr. SIGTERM/SIGINT drain in-flight requests and close the store.
 * `--login`: one stdout line, a new sign-in address of the gateway running on the data dir; no server starts.
 * `connect|disconnect|undo TOOL`: the diffs and the outcome on stdout, through the admin API of the gateway running on
 * the data dir; no server starts.
 */
async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: {
      config: { type: 'string' },
      port: { type: 'string' },
      'data-dir': { type: 'string', default: defaultDataDir() },
      host: { type: 'string', default: '127.0.0.1' },
      'database-url': { type: 'string' },
      'database-password-file': { type: 'string' },
      'secret-key-file': { type: 'string' },
      login: { type: 'boolean' },
      force: { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      group: { type: 'string' },
      model: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
  })
  if (values.help) {
    process.stderr.write(`${USAGE}\n`)
    return
  }
  const dataDir = values['data-dir']!
  const database = teamDatabase({ flagUrl: values['database-url'], flagPasswordFile: values['database-password-file'], env: process.env })
  databaseSecrets = database?.secrets ?? []
  if (database?.warning) process.stderr.write(`${database.warning}\n`)
  const databaseUrl = database?.url
  const log = (line: string) => process.stderr.write(`${withoutSecrets(redactPatterns(line), databaseSecrets)}\n`)
  if (positionals[0] === IMPORT_COMMAND) {
    if (positionals.length !== 2) throw new ImportError(`usage: npm run gateway -- ${IMPORT_COMMAND} FILE --database-url URL`)
    if (databaseUrl === undefined) throw new ImportError(`${IMPORT_COMMAND}: give the database (--database-url or ${DATABASE_URL_ENV})`)
    const secrets = teamSecretBox({ file: values['secret-key-file'], env: process.env[SECRET_KEY_ENV] })
    const lines = await importSqlite({ file: positionals[1], databaseUrl, secrets, force: values.force === true })
    process.stdout.write(`${lines.join('\n')}\n`)
    return
  }
  if (values.force) throw new ImportError(`--force goes with ${IMPORT_COMMAND}`)
  const command = positionals[0] as ConnectCommand | undefined
  if (command !== undefined && (!(CONNECT_COMMANDS as readonly string[]).includes(command) || positionals.length !== 2)) {
    throw new ConnectCommandError(`"${positionals.join(' ')}" is not a command: ${CONNECT_COMMANDS.join(', ')} take one tool (claude-code, codex)`)
  }
  if (command === undefined && (values['dry-run'] || values.group || values.model)) throw new ConnectCommandError('--dry-run, --group and --model go with connect, disconnect or undo')
  if (command !== undefined) {
    failure = `${command} failed`
    const result = await runConnectCommand({ command, tool: positionals[1], dryRun: values['dry-run'] === true, group: values.group, model: values.model, dataDir, databaseUrl, log })
    process.stdout.write(`${describeResult(result, command)}\n`)
    return
  }
  if (values.login) {
    failure = 'no sign-in address'
    const { address, minutes } = await newSignInAddress(dataDir, databaseUrl, log)
    process.stdout.write(`${address}\n`)
    process.stderr.write(`This sign-in address works once, within ${minutes} minutes.\n`)
    return
  }
  // The port: --port, else the one saved in the app's settings (default 8787).
  const port = values.port === undefined ? readSettings(dataDir).port : Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError('--port', `"${values.port}" is not a port number`)
  const config = values.config ? loadConfig(values.config) : undefined
  const start = { dataDir, config, host: values.host, port, databaseUrl, secretKeyFile: values['secret-key-file'], prepareCounting: true }
  const gateway = await startGateway(start).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'EADDRINUSE') throw new Error(`port ${port} is already in use; pick another with --port N (or --port 0 for any free port)`)
    throw err
  })
  // Noted before the line below, so that `--login` finds the gateway as soon as it is seen to listen.
  recordRunning(dataDir, { url: gateway.url, pid: process.pid, team: databaseUrl !== undefined, loginCodeMinutes: gateway.loginCodeMinutes })
  process.stdout.write(`gateway listening on ${gateway.url}\n`)
  const storeInfo = databaseUrl === undefined ? '' : ` · team mode on ${redactDatabaseUrl(databaseUrl)}`
  process.stderr.write(`OpenAI SDKs: base URL ${gateway.url}/v1 · Anthropic SDKs: base URL ${gateway.url} · data dir ${dataDir}${storeInfo}\n`)
  process.stderr.write(`${await signInHelp(gateway, dataDir, databaseUrl !== undefined)}\n`)
  if (gateway.firstKey) {
    process.stderr.write(`First start: created a key for the "default" group. It is shown only this once:\n  ${gateway.firstKey}\n`)
  }
  let stopping = false
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    process.stderr.write(`${signal}: finishing in-flight requests…\n`)
    forgetRunning(dataDir)
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
  // The terminal it ran in has closed: Node's default would end the process at once, cutting what is in flight and
  // losing the ledger rows not yet committed.
  process.on('SIGHUP', () => stop('SIGHUP'))
}

/**
 * How to open the app in a browser. One machine: a sign-in address now (its service log is the operator's own), and
 * how to get the next. A team replica prints none at start, where every restart would leave one in its service log.
 */
async function signInHelp(gateway: RunningGateway, dataDir: string, team: boolean): Promise<string> {
  if (!gateway.services.app.rendererDir) return 'The app is not built (npm run build:renderer); the API is served.'
  const next = `npm run gateway -- --login --data-dir ${dataDir}`
  if (team) return `For a one-time address that signs a browser in to the app: ${next} (with this replica's database settings)`
  return `Open the app in a browser (this sign-in address works once, within ${gateway.loginCodeMinutes} minutes): ${await gateway.loginUrl()}\nFor a new one: ${next}`
}

const IMPORT_COMMAND = 'import-sqlite'

/** What a failure message starts with (an error of the gateway's own says what failed itself). */
let failure = 'gateway failed to start'

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
outliveLogPipes()
process.on('uncaughtException', keepServing('uncaught exception'))
process.on('unhandledRejection', keepServing('unhandled rejection'))

main().catch((err: unknown) => {
  const own = err instanceof ConfigError || err instanceof TeamStartError || err instanceof LoginCommandError || err instanceof ConnectCommandError || err instanceof ImportError
  const message = own ? err.message : `${failure}: ${(err as Error).message}`
  // Node's JSON errors quote the text around the fault, which may be a key of the config file; the database's
  // passwords are removed wherever a driver's message quotes them.
  const secrets = [...databaseSecrets, ...databaseUrlSecrets(databaseUrlGiven() ?? '')].sort((a, b) => b.length - a.length)
  process.stderr.write(`${redactPatterns(withoutSecrets(message, secrets))}\n`)
  process.exit(1)
})
