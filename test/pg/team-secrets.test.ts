// The database password never shows: not in a replica's output, not in its command line (what `ps` shows every local
// user) when given a safe way; given on the command line it still works, with a warning, and is printed nowhere.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PASSWORD_ON_COMMAND_LINE } from '../../electron/gateway/team/database-source.js'
import { tempDataDir } from '../helpers/gateway.js'
import { freshDatabase } from '../helpers/pg-database.js'
import { runGateway, type GatewayProcess } from '../helpers/spawn-gateway.js'
import { newSecretKey } from '../helpers/team.js'

/** What the test's own environment must not lend a replica: each test gives exactly the ways it means. */
const TEAM_ENV = ['GATEHOUSE_DATABASE_URL', 'GATEHOUSE_DATABASE_PASSWORD_FILE', 'GATEHOUSE_SECRET_KEY', 'PGPASSFILE', 'PGPASSWORD'] as const

let withPassword: string
let withoutPassword: string
let password: string
let secretKey: string
const dir = tempDataDir()
beforeAll(async () => {
  withPassword = await freshDatabase()
  const url = new URL(withPassword)
  password = decodeURIComponent(url.password)
  url.password = ''
  withoutPassword = url.toString()
  secretKey = newSecretKey()
})
afterAll(() => dir.remove())

let dirs = 0
const dataDir = () => join(dir.dir, `data-${++dirs}`)

/** A private file (0600) in the test's dir. */
function privateFile(name: string, content: string): string {
  const path = join(dir.dir, name)
  writeFileSync(path, content, { mode: 0o600 })
  return path
}

/** A replica process with these arguments and exactly these team variables in its environment. */
function runReplica(args: string[], env: Record<string, string>): GatewayProcess {
  const saved = TEAM_ENV.map((name) => [name, process.env[name]] as const)
  for (const name of TEAM_ENV) delete process.env[name]
  try {
    return runGateway(['--port', '0', '--data-dir', dataDir(), ...args], [], { GATEHOUSE_SECRET_KEY: secretKey, ...env })
  } finally {
    for (const [name, value] of saved) if (value !== undefined) process.env[name] = value
  }
}

/** Its URL once it listens; a replica that exits first, or takes longer than 15 s, fails the test with its stderr. */
function listening(run: GatewayProcess): Promise<string> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`not listening within 15 s: ${run.stderr()}`)), 15_000)))
  const exited = run.exited.then((code): never => {
    throw new Error(`exited with ${code}: ${run.stderr()}`)
  })
  return Promise.race([run.url, late, exited]).finally(() => clearTimeout(timer))
}

/**
 * Runs the replica until it serves, reads its command line while it runs, stops it (SIGTERM, exit 0), and answers
 * everything it printed.
 */
async function serveAndStop(run: GatewayProcess): Promise<{ cmdline: string; stdout: string; stderr: string }> {
  const url = await listening(run)
  const cmdline = readFileSync(`/proc/${run.child.pid}/cmdline`, 'utf8')
  expect((await fetch(`${url}/v1/models`, { signal: AbortSignal.timeout(5_000) })).status).toBe(401)
  run.child.kill('SIGTERM')
  expect(await run.exited).toBe(0)
  return { cmdline, stdout: run.stdout.join('\n'), stderr: run.stderr() }
}

/** The whole output and the command line hold no spelling of the password, and no warning was needed. */
function expectNowhere(seen: { cmdline: string; stdout: string; stderr: string }): void {
  for (const text of [seen.cmdline, seen.stdout, seen.stderr]) {
    expect(text).not.toContain(password)
    expect(text).not.toContain(encodeURIComponent(password))
  }
  expect(seen.stderr).not.toContain('warning:')
}

describe('team mode: the database password, given a safe way, is never printed nor on the command line', () => {
  it('in GATEHOUSE_DATABASE_URL, as ?password=', async () => {
    const seen = await serveAndStop(runReplica([], { GATEHOUSE_DATABASE_URL: `${withoutPassword}?sslmode=disable&password=${password}` }))
    expectNowhere(seen)
    expect(seen.stderr).toContain(` · team mode on ${withoutPassword}?sslmode=disable&password=***\n`)
  })

  it('in --database-password-file', async () => {
    const file = privateFile('db-password', `${password}\n`)
    const seen = await serveAndStop(runReplica(['--database-url', withoutPassword, '--database-password-file', file], {}))
    expectNowhere(seen)
    expect(seen.stderr).toContain(` · team mode on ${withoutPassword.replace('gatehouse@', 'gatehouse:***@')}\n`)
  })

  it('in GATEHOUSE_DATABASE_PASSWORD_FILE, the URL in GATEHOUSE_DATABASE_URL', async () => {
    const file = privateFile('db-password-env', `${password}\n`)
    expectNowhere(await serveAndStop(runReplica([], { GATEHOUSE_DATABASE_URL: withoutPassword, GATEHOUSE_DATABASE_PASSWORD_FILE: file })))
  })
})

describe('team mode: a password in --database-url works, with a warning, and is printed nowhere', () => {
  it.each([
    ['in the userinfo', () => withPassword],
    ['as ?password=', () => `${withoutPassword}?password=${password}`],
  ])('%s', async (_name, url) => {
    const seen = await serveAndStop(runReplica(['--database-url', url()], {}))
    expect(seen.stderr.startsWith(`${PASSWORD_ON_COMMAND_LINE}\n`)).toBe(true)
    expect(seen.stderr.split(PASSWORD_ON_COMMAND_LINE).length).toBe(2)
    expect(seen.stdout).not.toContain(password)
    expect(seen.stderr).not.toContain(password)
    expect(seen.stderr).not.toContain(encodeURIComponent(password))
  })
})
