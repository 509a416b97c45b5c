import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { PASSWORD_ON_COMMAND_LINE } from '../../electron/gateway/team/database-source.js'
import { tempDataDir } from '../helpers/gateway.js'
import { freshDatabase } from '../helpers/pg-database.js'
import { runGateway } from '../helpers/spawn-gateway.js'
import { newSecretKey } from '../helpers/team.js'

const dirs: Array<{ dir: string; remove(): void }> = []
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove()
})
const dataDir = () => {
  const d = tempDataDir()
  dirs.push(d)
  return join(d.dir, 'data')
}

/** Runs the headless gateway with these environment variables set (and the team ones cleared otherwise). */
function runWith(args: string[], env: Record<string, string>) {
  const saved = { url: process.env.GATEHOUSE_DATABASE_URL, key: process.env.GATEHOUSE_SECRET_KEY }
  delete process.env.GATEHOUSE_DATABASE_URL
  delete process.env.GATEHOUSE_SECRET_KEY
  Object.assign(process.env, env)
  try {
    return runGateway(args)
  } finally {
    delete process.env.GATEHOUSE_DATABASE_URL
    delete process.env.GATEHOUSE_SECRET_KEY
    if (saved.url !== undefined) process.env.GATEHOUSE_DATABASE_URL = saved.url
    if (saved.key !== undefined) process.env.GATEHOUSE_SECRET_KEY = saved.key
  }
}

describe('headless run in team mode', () => {
  it('without the shared key: one line naming both ways to give it, exit 1, the password nowhere', async () => {
    const url = await freshDatabase()
    const run = runWith(['--port', '0', '--data-dir', dataDir(), '--database-url', url], {})
    expect(await run.exited).toBe(1)
    // The URL on the command line carries the password: the warning first.
    expect(run.stderr()).toBe(
      `${PASSWORD_ON_COMMAND_LINE}\nteam mode needs the secret key every replica shares: set GATEHOUSE_SECRET_KEY (base64 of 32 bytes, e.g. from \`openssl rand -base64 32\`) or pass --secret-key-file FILE\n`,
    )
    expect(run.stdout).toEqual([])
  })

  it('GATEHOUSE_DATABASE_URL starts it; --database-url wins over it; the password is never printed', async () => {
    const url = await freshDatabase()
    const password = decodeURIComponent(new URL(url).password)
    const bogus = url.replace(/\/[^/]+$/, '/no_such_database')
    const fromEnv = runWith(['--port', '0', '--data-dir', dataDir()], { GATEHOUSE_DATABASE_URL: url, GATEHOUSE_SECRET_KEY: newSecretKey() })
    const served = await fromEnv.url
    expect((await fetch(`${served}/v1/models`)).status).toBe(401)
    fromEnv.child.kill('SIGTERM')
    expect(await fromEnv.exited).toBe(0)
    expect(fromEnv.stderr()).toContain(`team mode on ${url.replace(`:${encodeURIComponent(password)}@`, ':***@')}`)
    expect(fromEnv.stderr()).not.toContain(password)

    // The flag names a database that does not exist: the start fails on it, not on the one in the environment.
    const flagWins = runWith(['--port', '0', '--data-dir', dataDir(), '--database-url', bogus], { GATEHOUSE_DATABASE_URL: url, GATEHOUSE_SECRET_KEY: newSecretKey() })
    expect(await flagWins.exited).toBe(1)
    expect(flagWins.stderr()).toBe(`${PASSWORD_ON_COMMAND_LINE}\ngateway failed to start: database "no_such_database" does not exist\n`)
  })
})
