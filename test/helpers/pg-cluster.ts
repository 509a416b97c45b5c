import { execFileSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'

/** The system user the cluster runs as when the tests run as root (PostgreSQL refuses to run as root). */
const CLUSTER_USER = 'gatehouse-pg'
const SUPERUSER = 'gatehouse'
/** pg_ctl's own bound on start and stop, in seconds. */
const PG_CTL_WAIT = '30'

export interface PgCluster {
  /** The superuser's URL to the `postgres` database. */
  adminUrl: string
  /** Creates an empty database and answers its `postgres://` URL (superuser, password, 127.0.0.1). */
  createDatabase(): Promise<string>
  /** Stops the server and removes its files. Safe to call more than once. */
  stop(): Promise<void>
}

/**
 * A private PostgreSQL cluster for a test run or a bench: initdb into a temp dir, a free 127.0.0.1 port, unix
 * sockets in that dir, a password-authenticated superuser, and durability off (a throwaway cluster: speed only).
 */
export async function startPgCluster(): Promise<PgCluster> {
  const bin = findPgBin()
  const owner = clusterOwner()
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-pg-'))
  const data = join(dir, 'data')
  const logFile = join(dir, 'server.log')
  let running = false
  const pgCtl = (args: string[]) => run(join(bin, 'pg_ctl'), ['-D', data, '-w', '-t', PG_CTL_WAIT, ...args], owner)
  // If the run ends without stop() (a crash, an uncaught error), the server must not outlive it.
  const stopOnExit = () => {
    if (!running) return
    try {
      execFileSync(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', '-t', PG_CTL_WAIT, 'stop'], { stdio: 'ignore', uid: owner?.uid, gid: owner?.gid })
    } catch {
      // already gone
    }
    rmSync(dir, { recursive: true, force: true })
  }
  const stop = async () => {
    process.off('exit', stopOnExit)
    if (running) await pgCtl(['-m', 'fast', 'stop'])
    running = false
    rmSync(dir, { recursive: true, force: true })
  }

  try {
    if (owner) chownSync(dir, owner.uid, owner.gid)
    const password = randomBytes(18).toString('hex')
    const pwFile = join(dir, 'password')
    writeFileSync(pwFile, password + '\n', { mode: 0o600 })
    if (owner) chownSync(pwFile, owner.uid, owner.gid)
    await run(join(bin, 'initdb'), ['-D', data, '-U', SUPERUSER, `--pwfile=${pwFile}`, '--auth=scram-sha-256', '--no-sync', '--no-locale', '-E', 'UTF8'], owner)
    rmSync(pwFile)
    writeFileSync(
      join(data, 'postgresql.conf'),
      [
        `listen_addresses = '127.0.0.1'`,
        `unix_socket_directories = '${dir}'`,
        // A throwaway cluster: nothing here must survive a power cut.
        'fsync = off',
        'synchronous_commit = off',
        'full_page_writes = off',
        '',
      ].join('\n'),
      { flag: 'a' },
    )

    process.on('exit', stopOnExit)
    // The port is free when picked and taken a moment later: another process may win it in between, so try again.
    let port = 0
    for (let attempt = 1; !running; attempt++) {
      port = await freePort()
      try {
        await pgCtl(['-l', logFile, '-o', `-p ${port}`, 'start'])
        running = true
      } catch (err) {
        const log = existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''
        if (attempt >= 3 || !/could not bind|address already in use/i.test(log)) throw new Error(`${(err as Error).message}\n${log.slice(-2000)}`)
      }
    }

    const base = `postgres://${SUPERUSER}:${password}@127.0.0.1:${port}`
    const adminUrl = `${base}/postgres`
    let created = 0
    return {
      adminUrl,
      async createDatabase() {
        const name = `test_${++created}_${randomBytes(4).toString('hex')}`
        const admin = new pg.Client({ connectionString: adminUrl })
        await admin.connect()
        try {
          await admin.query(`CREATE DATABASE ${name} TEMPLATE template0`)
        } finally {
          await admin.end()
        }
        return `${base}/${name}`
      },
      stop,
    }
  } catch (err) {
    await stop().catch(() => {})
    throw err
  }
}

/** The newest server install of Debian's `postgresql` packages. */
export function findPgBin(root = '/usr/lib/postgresql'): string {
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+$/.test(v) && existsSync(join(root, v, 'bin', 'initdb')) && existsSync(join(root, v, 'bin', 'pg_ctl')))
        .sort((a, b) => Number(b) - Number(a))
    : []
  if (versions.length === 0) throw new Error(`PostgreSQL server binaries not found under ${root}/*/bin: install Debian's postgresql (apt-get install postgresql)`)
  return join(root, versions[0], 'bin')
}

interface Owner {
  uid: number
  gid: number
}

/** As root: the unprivileged system user the server runs as (created if missing). Otherwise: the current user. */
function clusterOwner(): Owner | undefined {
  if (process.getuid?.() !== 0) return undefined
  const id = (flag: string) => Number(execFileSync('id', [flag, CLUSTER_USER], { encoding: 'utf8' }).trim())
  try {
    return { uid: id('-u'), gid: id('-g') }
  } catch {
    execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', CLUSTER_USER], { stdio: 'ignore' })
    return { uid: id('-u'), gid: id('-g') }
  }
}

/** Runs a PostgreSQL tool as the cluster's owner; rejects with its output when it fails. */
function run(file: string, args: string[], owner: Owner | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { uid: owner?.uid, gid: owner?.gid, cwd: tmpdir(), stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (d: Buffer) => (output += d.toString()))
    child.stderr.on('data', (d: Buffer) => (output += d.toString()))
    child.on('error', reject)
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${file} ${args.join(' ')} exited with ${code}: ${output.trim()}`))))
  })
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}
