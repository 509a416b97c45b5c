// Sign-in codes in team mode: a replica prints none at start; `npm run gateway -- --login` (another process) writes
// one to the shared database, and any replica takes it, once.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chatConfig, tempDataDir, type TestGateway } from '../helpers/gateway.js'
import { finished, listening, runGatewayWith } from '../helpers/gateway-process.js'
import { freshDatabase } from '../helpers/pg-database.js'
import type { GatewayProcess } from '../helpers/spawn-gateway.js'
import { newSecretKey, startReplica } from '../helpers/team.js'
import { until } from '../helpers/until.js'

const RENDERER_BUILT = existsSync(new URL('../../dist/renderer/index.html', import.meta.url))
const USED = 'This sign-in address was already used or is not valid. Each address works once: get a new one with <code>npm run gateway -- --login</code>.'

let databaseUrl: string
let secretKey: string
const dir = tempDataDir()
const processData = join(dir.dir, 'replica-a')
let replicaA: GatewayProcess
let urlA: string
let replicaB: TestGateway
beforeAll(async () => {
  databaseUrl = await freshDatabase()
  secretKey = newSecretKey()
  // A: a replica process; B: a replica in this process, on the same database.
  replicaA = runGatewayWith(['--port', '0', '--data-dir', processData], { GATEHOUSE_DATABASE_URL: databaseUrl, GATEHOUSE_SECRET_KEY: secretKey })
  urlA = await listening(replicaA)
  replicaB = await startReplica(databaseUrl, secretKey, chatConfig([]))
}, 30_000)
afterAll(async () => {
  replicaA?.child.kill('SIGTERM')
  await replicaA?.exited
  await replicaB?.stop()
  dir.remove()
})

/** `npm run gateway -- --login --data-dir <A's>` with these team variables, to its end. */
const login = (env: Record<string, string>) => finished(runGatewayWith(['--login', '--data-dir', processData], env))
const open = (address: string) => fetch(address, { redirect: 'manual' })

describe('team mode: sign-in codes', () => {
  it('a replica prints no sign-in address at start, only how to get one', async () => {
    await until('replica A says how to sign in', 5_000, () => /^(For a one-time address|The app is not built)/m.test(replicaA.stderr()))
    expect(replicaA.stderr()).not.toContain('/admin/login')
    expect(replicaA.stderr()).toContain(
      RENDERER_BUILT
        ? `\nFor a one-time address that signs a browser in to the app: npm run gateway -- --login --data-dir ${processData} (with this replica's database settings)\n`
        : '\nThe app is not built (npm run build:renderer); the API is served.\n',
    )
  })

  it('`--login` writes a code to the shared database: another replica takes it, and it works nowhere again', async () => {
    const issued = await login({ GATEHOUSE_DATABASE_URL: databaseUrl })
    expect(issued.code).toBe(0)
    expect(issued.stderr).toBe('This sign-in address works once, within 10 minutes.\n')
    expect(issued.stdout).toHaveLength(1)
    const address = new URL(issued.stdout[0])
    expect(address.origin).toBe(urlA)
    expect(address.pathname).toBe('/admin/login')
    // Taken by B, which did not issue it and whose address it does not name.
    const signIn = await open(`${replicaB.url}${address.pathname}${address.search}`)
    expect(signIn.status).toBe(303)
    expect(signIn.headers.get('location')).toMatch(/^\/#session=[\w-]{43}$/)
    for (const replica of [urlA, replicaB.url]) {
      const again = await open(`${replica}${address.pathname}${address.search}`)
      expect(again.status).toBe(401)
      expect(await again.text()).toContain(USED)
    }
  })

  it('a code `--login` wrote works on the replica it names; one a replica issued works on the other', async () => {
    const issued = await login({ GATEHOUSE_DATABASE_URL: databaseUrl })
    expect((await open(issued.stdout[0])).status).toBe(303)
    const fromB = new URL(await replicaB.loginUrl())
    expect((await open(`${urlA}${fromB.pathname}${fromB.search}`)).status).toBe(303)
  })

  it('`--login` without the database refuses, naming what it needs; the database password is printed nowhere', async () => {
    const refused = await login({})
    expect(refused).toEqual({
      code: 1,
      stdout: [],
      stderr: `the gateway on the data dir ${processData} runs in team mode: give --login its database as the gateway has it (--database-url or GATEHOUSE_DATABASE_URL, and its password's way)\n`,
    })
    const password = decodeURIComponent(new URL(databaseUrl).password)
    expect(replicaA.stderr()).not.toContain(password)
  })
})
