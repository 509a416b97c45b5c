import type pg from 'pg'
import { createStore, storeOver, type Store } from './index.js'
import { migratePg } from './pg-schema.js'
import { createPgPool, pgSql } from './pg-sql.js'
import { tightenDataDir } from '../data-dir/private-files.js'

/** The store of a run, and in team mode the pool it runs on (change notices listen with the pool's settings). */
export interface OpenedStore {
  store: Store
  pool?: pg.Pool
}

/**
 * The gateway's store: the embedded SQLite file in the data dir (the default), or, with a `databaseUrl` (team
 * mode), a pool of `poolSize` connections on that PostgreSQL database, its schema migrated first (safe when replicas
 * start together).
 */
export async function openStore(options: { dataDir: string; databaseUrl?: string; poolSize?: number; replica: string; log: (line: string) => void }): Promise<OpenedStore> {
  if (options.databaseUrl === undefined) return { store: createStore(options.dataDir, options.log, options.replica) }
  // The replica's own data dir (settings, its sign-in state) is private as on one machine.
  tightenDataDir(options.dataDir)
  const pool = createPgPool({ url: options.databaseUrl, max: options.poolSize, log: options.log })
  try {
    await migratePg(pool)
  } catch (err) {
    await pool.end()
    throw err
  }
  const sql = pgSql(pool)
  // After the ledger's last commit: a replica that stops hands what it leaves (an image task cut off, say) to the
  // others' sweep at once, by no longer being seen, instead of after a lease time. Before it, the sweep could
  // settle a stream whose final row was still being committed.
  const release = async () => {
    await sql.run('DELETE FROM replicas WHERE id = ?', [options.replica]).catch((err: unknown) => options.log(`[gatehouse] team mode: could not sign this replica off: ${(err as Error).message}`))
    await pool.end()
  }
  return { store: storeOver(sql, options.log, release, options.replica), pool }
}
