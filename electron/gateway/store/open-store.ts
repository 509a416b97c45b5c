import type pg from 'pg'
import { createStore, storeOver, type Store } from './index.js'
import { migratePg } from './pg-schema.js'
import { createPgPool, pgSql } from './pg-sql.js'

/** The store of a run, and in team mode the pool it runs on (change notices listen with the pool's settings). */
export interface OpenedStore {
  store: Store
  pool?: pg.Pool
}

/**
 * The gateway's store: the embedded SQLite file in the data dir (the default), or, with a `databaseUrl` (team
 * mode), a pool on that PostgreSQL database, its schema migrated first (safe when replicas start together).
 */
export async function openStore(options: { dataDir: string; databaseUrl?: string; replica: string; log: (line: string) => void }): Promise<OpenedStore> {
  if (options.databaseUrl === undefined) return { store: createStore(options.dataDir, options.log, options.replica) }
  const pool = createPgPool({ url: options.databaseUrl, log: options.log })
  try {
    await migratePg(pool)
  } catch (err) {
    await pool.end()
    throw err
  }
  return { store: storeOver(pgSql(pool), options.log, () => pool.end(), options.replica), pool }
}

/** The URL with its password replaced, for messages: `postgres://gate:***@db:5432/gatehouse`. */
export function redactDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password !== '') parsed.password = '***'
    return parsed.toString()
  } catch {
    return 'the database URL (unparsable)'
  }
}

/** The URL's password, decoded, if it has one (log lines have it removed). */
export function databasePassword(url: string): string | undefined {
  try {
    const password = decodeURIComponent(new URL(url).password)
    return password === '' ? undefined : password
  } catch {
    return undefined
  }
}
