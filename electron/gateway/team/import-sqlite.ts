import { createHash } from 'node:crypto'
import { createReadStream, existsSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import Database from 'better-sqlite3'
import { databaseMedia } from '../media/media-files.js'
import type { SecretBox } from '../secrets/secrets.js'
import { MIGRATIONS } from '../store/db.js'
import { migratePg } from '../store/pg-schema.js'
import { createPgPool, pgSql } from '../store/pg-sql.js'
import type { Sql } from '../store/sql.js'

/**
 * The tables moved (sign-in codes are short-lived and stay behind). The ledger goes before the upstream accounts:
 * a ledger row inserted charges its account's spend (pg-schema.ts requests_charge_upstream), which the account's
 * row already counts, so the row must find no account yet.
 */
const TABLES = ['meta', 'account', 'requests', 'pending_requests', 'upstreams', 'groups', 'model_overrides', 'api_keys', 'holds', 'tasks', 'media', 'app_state', 'request_bodies', 'replays'] as const
/** Rows the database has before any store is moved into it, whatever the source: one account row, and its meta. */
const SETTINGS_TABLES = new Set(['meta', 'account'])
/** Which store the database's rows came from (meta, written once the import is verified). */
const IMPORTED_FROM = 'imported_from'
/** The figures verified after the import: a count of rows, and sums of money. */
const CHECKS: ReadonlyArray<{ label: string; query: string }> = [
  { label: 'keys', query: 'SELECT count(*) AS n, coalesce(sum(used_nano), 0) AS sum FROM api_keys' },
  { label: 'groups', query: 'SELECT count(*) AS n, 0 AS sum FROM groups' },
  { label: 'upstream accounts', query: 'SELECT count(*) AS n, coalesce(sum(spent_nano), 0) AS sum FROM upstreams' },
  { label: 'ledger rows', query: 'SELECT count(*) AS n, coalesce(sum(cost_nano), 0) AS sum FROM requests' },
  { label: 'tasks', query: 'SELECT count(*) AS n, coalesce(sum(cost_nano), 0) AS sum FROM tasks' },
  { label: 'media', query: 'SELECT count(*) AS n, 0 AS sum FROM media' },
  { label: 'account balance', query: 'SELECT count(*) AS n, coalesce(sum(balance_nano), 0) AS sum FROM account' },
]

export class ImportError extends Error {}

export interface ImportOptions {
  /** the embedded store: `gatehouse.sqlite` in a data dir whose media/ folder holds its kept media */
  file: string
  databaseUrl: string
  /** the team's secret key: the one the SQLite store was sealed with (its data dir's secret.key) */
  secrets: SecretBox
  /** move it into a database that holds another store's data */
  force?: boolean
}

/**
 * `npm run gateway -- import-sqlite FILE --database-url …`: moves an embedded store into PostgreSQL (team mode) —
 * every table's rows as they are (keys stay hashed, upstream secrets stay sealed: the team's secret key must be the
 * store's own) and its kept media into `media_chunks`. Rows already there are left alone, so a second run adds
 * nothing. Answers the report's lines: each figure in the store and in the database, which must agree.
 */
export async function importSqlite(opts: ImportOptions): Promise<string[]> {
  if (!existsSync(opts.file)) throw new ImportError(`import-sqlite: ${opts.file} does not exist`)
  const source = new Database(opts.file, { readonly: true, fileMustExist: true })
  const pool = createPgPool({ url: opts.databaseUrl, max: 2, log: () => {} })
  try {
    const version = source.pragma('user_version', { simple: true }) as number
    if (version !== MIGRATIONS.length) {
      throw new ImportError(`import-sqlite: ${opts.file} is at schema version ${version}, this gateway's is ${MIGRATIONS.length}: start and stop this gateway on its data dir once first`)
    }
    const keySecret = (source.prepare('SELECT value FROM meta WHERE name = ?').pluck().get('key_hash_secret') as string | undefined) ?? ''
    try {
      opts.secrets.decrypt(keySecret)
    } catch {
      throw new ImportError(`import-sqlite: the secret key given is not the one ${opts.file} was sealed with (its data dir's secret.key)`)
    }
    // The store's identity: its sealed key-hashing secret, made at random when it was first opened.
    const sourceId = createHash('sha256').update(keySecret).digest('hex')
    await migratePg(pool)
    const sql = pgSql(pool)
    await refuseOtherData(sql, sourceId, opts.force === true)

    const moved = new Map<string, number>()
    await sql.transaction(async (tx) => {
      for (const table of TABLES) moved.set(table, await copyTable(source, tx, table))
    })
    const mediaDir = dirname(opts.file)
    const media = databaseMedia(sql, 'import')
    let files = 0
    for (const { path } of source.prepare('SELECT path FROM media ORDER BY id').all() as Array<{ path: string }>) {
      if (await sql.get('SELECT 1 AS found FROM media_chunks WHERE path = ? LIMIT 1', [path])) continue
      const local = join(mediaDir, path)
      if (!existsSync(local)) continue
      await media.write(path, createReadStream(local), statSync(local).size)
      files++
    }

    const lines: string[] = []
    let agree = true
    for (const check of CHECKS) {
      const here = source.prepare(check.query).get() as { n: number; sum: number }
      const there = (await sql.get<{ n: number | string; sum: number | string }>(check.query))!
      const same = Number(there.n) === here.n && Number(there.sum) === here.sum
      agree &&= same || opts.force === true
      lines.push(`${check.label}: ${here.n} in the store, ${there.n} in the database; sum ${here.sum} and ${there.sum}${same ? '' : ' (differ)'}`)
    }
    const bytes = await mediaBytes(source, mediaDir)
    const stored = Number((await sql.get<{ bytes: number | string | null }>(`SELECT sum(octet_length(bytes)) AS bytes FROM media_chunks WHERE path NOT LIKE '.part/%'`))!.bytes ?? 0)
    lines.push(`media bytes: ${bytes} in the data dir, ${stored} in the database`)
    agree &&= stored === bytes || opts.force === true
    const rows = [...moved.values()].reduce((a, b) => a + b, 0)
    lines.push(`imported now: ${rows} row(s), ${files} media file(s)`)
    if (!agree) throw new ImportError(`import-sqlite: the database's figures differ from the store's:\n${lines.join('\n')}`)
    await sql.run('INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING', [IMPORTED_FROM, sourceId])
    return lines
  } finally {
    source.close()
    await pool.end()
  }
}

/** A database with rows of keys, accounts, groups, the ledger, tasks or media from another store is refused. */
async function refuseOtherData(sql: Sql, sourceId: string, force: boolean): Promise<void> {
  const from = (await sql.get<{ value: string }>('SELECT value FROM meta WHERE name = ?', [IMPORTED_FROM]))?.value
  if (from === sourceId || force) return
  for (const table of TABLES) {
    if (SETTINGS_TABLES.has(table)) continue
    if (await sql.get(`SELECT 1 AS found FROM ${table} LIMIT 1`)) {
      throw new ImportError(`import-sqlite: the database already holds data (${table}) of another store; --force moves this one in beside it`)
    }
  }
}

/** Copies a table's rows; a row whose key is there already is kept as it is, but the settings rows (account, meta) take the store's values. */
async function copyTable(source: Database.Database, tx: Sql, table: string): Promise<number> {
  const columns = (source.pragma(`table_info(${table})`) as Array<{ name: string; pk: number }>)
  const names = columns.map((c) => c.name)
  const keys = columns.filter((c) => c.pk > 0).map((c) => c.name)
  const conflict = SETTINGS_TABLES.has(table)
    ? `ON CONFLICT (${keys.join(', ')}) DO UPDATE SET ${names.filter((n) => !keys.includes(n)).map((n) => `${n} = EXCLUDED.${n}`).join(', ')}`
    : 'ON CONFLICT DO NOTHING'
  const insert = `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')}) ${conflict}`
  let moved = 0
  for (const row of source.prepare(`SELECT * FROM ${table}`).iterate() as IterableIterator<Record<string, unknown>>) {
    const { changes } = await tx.run(insert, names.map((n) => row[n] ?? null))
    if (!SETTINGS_TABLES.has(table)) moved += changes
  }
  return moved
}

async function mediaBytes(source: Database.Database, dir: string): Promise<number> {
  let total = 0
  for (const { path } of source.prepare('SELECT DISTINCT path FROM media').all() as Array<{ path: string }>) {
    const local = join(dir, path)
    if (existsSync(local)) total += statSync(local).size
  }
  return total
}
