// The database password never shows: not in a replica's output, not in its command line (what `ps` shows every local
// user) when given a safe way; given on the command line it still works, with a warning, and is printed nowhere.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PASSWORD_ON_COMMAND_LINE } from '../../electron/gateway/team/database-source.js'
import { tempDataDir } from '../helpers/gateway.js'
import { freshDatabase } from '../helpers/pg-database.js'
import { listening, runGatewayWith } from '../helpers/gateway-process.js'
import type { GatewayProcess } from '../helpers/spawn-gateway.js'
import { newSecretKey } from '../helpers/team.js'

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

/** A replica process on a data dir of its own, with these arguments and exactly these team variables. */
const runReplica = (args: string[], env: Record<string, string>) => runGatewayWith(['--port', '0', '--data-dir', dataDir(), ...args], { GATEHOUSE_SECRET_KEY: secretKey, ...env })

/**
 * Runs the replica until it serves, reads its command line while it runs, stops it (SIGTERM, exit 0), and answers
 * everything it printed.
 */
async function serveAndStop(run: GatewayProcess): Promise<{ cmdline: string; stdout: string; stderr: string }> {
  try {
    const url = await listening(run)
    const cmdline = readFileSync(`/proc/${run.child.pid}/cmdline`, 'utf8')
    expect((await fetch(`${url}/v1/models`, { signal: AbortSignal.timeout(5_000) })).status).toBe(401)
    run.child.kill('SIGTERM')
    expect(await run.exited).toBe(0)
    return { cmdline, stdout: run.stdout.join('\n'), stderr: run.stderr() }
  } finally {
    // A failed step leaves no replica running.
    if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL')
  }
}

/** The whole output and the command line hold no spelling of the password, and no warning was needed. */
function expectNowhere(seen: { cmdline: string; stdout: string; stderr: string }): void {
  for (const text of [seen.cmdline, seen.stdout, seen.stderr]) {
    expect(text).not.toContain(password)
    expect(text).not.toContain(encodeURIComponent(password))
  }
  expect(seen.stderr).not.toContain(PASSWORD_ON_COMMAND_LINE)
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

  it("in libpq's PGPASSFILE, which node-postgres reads when no password is given", async () => {
    const { hostname, port, pathname } = new URL(withoutPassword)
    const file = privateFile('pgpass', `${hostname}:${port}:${pathname.slice(1)}:gatehouse:${password}\n`)
    const seen = await serveAndStop(runReplica(['--database-url', withoutPassword], { PGPASSFILE: file }))
    expectNowhere(seen)
    // Nor does the start print a sign-in address, which a service log would keep (team-login.test.ts: how to get one).
    expect(seen.stderr).not.toContain('/admin/login')
  })

  it('in ~/.pgpass', async () => {
    const home = join(dir.dir, 'home')
    const { hostname, port } = new URL(withoutPassword)
    mkdirSync(home, { mode: 0o700 })
    writeFileSync(join(home, '.pgpass'), `${hostname}:${port}:*:gatehouse:${password}\n`, { mode: 0o600 })
    const seen = await serveAndStop(runReplica(['--database-url', withoutPassword], { HOME: home }))
    expectNowhere(seen)
    expect(seen.stderr).not.toContain('/admin/login')
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
