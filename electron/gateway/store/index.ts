import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import { accountRepo } from './account.js'
import { appStateRepo } from './app-state.js'
import { apiKeysRepo } from './api-keys.js'
import { startCheckpointer } from './checkpointer.js'
import { openDb, type Db } from './db.js'
import { groupsRepo } from './groups.js'
import { HeldHere } from './held-here.js'
import { holdsRepo } from './holds.js'
import { ledgerRepo } from './ledger.js'
import { loginCodesRepo } from './login-codes.js'
import { modelOverridesRepo } from './model-overrides.js'
import { requestLogRepo } from './request-log.js'
import { requestBodiesRepo } from './request-bodies.js'
import type { Sql } from './sql.js'
import { sqliteSql } from './sqlite-sql.js'
import { tasksRepo } from './tasks.js'
import { mediaRepo } from './media.js'
import { metaRepo } from './meta.js'
import { changesRepo } from './changes.js'
import { upstreamsRepo } from './upstreams.js'
import { usageSummaryRepo } from './usage-summary.js'

/**
 * This process's name among the replicas of a shared database: the owner written on the work it has under way
 * (a stream's pending row, an image task), so that another replica can tell what a dead one left.
 */
export const newReplicaId = (): string => `${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`

/**
 * One repo per table over one handle: the store's own, or a transaction's; `replica` owns the work they record; `here`,
 * the requests' holds in memory of the store's only process (SQLite), counted by every funds check.
 */
function tables(sql: Sql, replica: string, here?: HeldHere) {
  return {
    account: accountRepo(sql, here),
    apiKeys: apiKeysRepo(sql),
    upstreams: upstreamsRepo(sql),
    groups: groupsRepo(sql),
    modelOverrides: modelOverridesRepo(sql),
    tasks: tasksRepo(sql, replica, here),
    holds: holdsRepo(sql, replica, here),
    media: mediaRepo(sql),
    requestLog: requestLogRepo(sql),
    requestBodies: requestBodiesRepo(sql),
    usageSummary: usageSummaryRepo(sql),
    appState: appStateRepo(sql),
    meta: metaRepo(sql),
    changes: changesRepo(sql),
    loginCodes: loginCodesRepo(sql),
  }
}

/** The repos over one handle, and its transactions (whose repos are bound to the transaction's handle). */
export type Repos = ReturnType<typeof tables> & {
  /**
   * Runs `fn` atomically: all of it is stored, or none (the error is rethrown). Use only the repos `fn` is given:
   * the outer ones wait for the transaction to end. Within a transaction, a nested one is a savepoint.
   */
  transaction<T>(fn: (tx: Repos) => Promise<T>): Promise<T>
}

export function reposOver(sql: Sql, replica: string, here?: HeldHere): Repos {
  return { ...tables(sql, replica, here), transaction: (fn) => sql.transaction((tx) => fn(reposOver(tx, replica, here))) }
}

export type Store = Repos & {
  /** The handle the repos use (tests read and seed rows through it, on either engine). */
  sql: Sql
  /** the owner written on this process's work under way (newReplicaId) */
  replica: string
  /** Ledger rows are queued in memory and committed in groups (ledger.ts); not part of a transaction's repos. */
  ledger: ReturnType<typeof ledgerRepo>
  /** False once `close` began. */
  isOpen(): boolean
  /** Commits the ledger's last rows, then releases the engine (`release`). */
  close(): Promise<void>
}

/**
 * A store over any engine's `Sql`; `release` closes the engine once the ledger's last commit is done. `here`: the
 * requests' holds kept in memory, when this process is the store's only one (store/held-here.ts).
 */
export function storeOver(sql: Sql, log: (line: string) => void, release: () => void | Promise<void>, replica = newReplicaId(), here?: HeldHere): Store {
  const ledger = ledgerRepo(sql, log, replica, here)
  let open = true
  return {
    ...reposOver(sql, replica, here),
    sql,
    replica,
    ledger,
    isOpen: () => open,
    async close() {
      if (!open) return
      open = false
      await ledger.close()
      // Transactions begun before close end first.
      await sql.transaction(async () => undefined)
      await release()
    },
  }
}

export type SqliteStore = Store & { db: Db }

/** The gateway's embedded store: one SQLite file in the data dir, one repo per table; `log` takes its background errors. */
export function createStore(dataDir: string, log: (line: string) => void = (line) => process.stderr.write(`${line}\n`), replica = newReplicaId()): SqliteStore {
  const db: Db = openDb(dataDir)
  // The serving connection only appends to the WAL; a worker moves pages into the store file (checkpointer.ts).
  db.pragma('wal_autocheckpoint = 0')
  const checkpointer = startCheckpointer(db.name, () => db.open && db.pragma('wal_autocheckpoint = 1000'), log)
  // The data dir's store has one process, the gateway (a start releases what an earlier run held): holds in memory.
  const store = storeOver(sqliteSql(db, checkpointer.gate), log, () => {
    checkpointer.stop()
    db.close()
  }, replica, new HeldHere())
  return { ...store, db }
}
