import type Database from 'better-sqlite3'
import type { Sql, SqlParams, SqlResult } from './sql.js'

/** Runs one statement, binding `?` by position (an array) or `@name` by name (an object). */
interface Executor {
  all<T>(text: string, params?: SqlParams): T[]
  get<T>(text: string, params?: SqlParams): T | undefined
  run(text: string, params?: SqlParams): SqlResult
}

const args = (params: SqlParams | undefined): unknown[] => (params === undefined ? [] : Array.isArray(params) ? params : [params])

/**
 * Deferred transactions (`Sql.deferredTransaction`) are committed together at most this long after the first of
 * them. A commit appends every page it changed to the WAL (a hold's row, its indexes and the account's row: ~40 µs
 * per request, a third of the gateway's own work per chat completion); grouped, the requests of 10 ms share one.
 */
export const DEFERRED_COMMIT_MS = 10

/**
 * The SQLite side of `Sql` over one better-sqlite3 connection. Statements are prepared once, cached by their text.
 * Transactions run one at a time (a promise chain): `BEGIN IMMEDIATE` … `COMMIT`, or `ROLLBACK` when `fn` throws.
 * While one is open, or queued, the outer handle's statements wait for it, so nothing of another flow lands inside
 * it; when none is, they run at once. A transaction begun on a `tx` handle is a savepoint of the enclosing one.
 *
 * Deferred transactions open a group (`BEGIN IMMEDIATE` left open) and run as savepoints inside it; any other write
 * (a transaction or a statement of the outer handle) runs inside the group too and commits it, so what it stored is
 * as durable as ever, and so does the group's timer. One connection sees its own uncommitted rows: every later
 * statement reads what a deferred transaction stored.
 */
export function sqliteSql(db: Database.Database): Sql {
  const statements = new Map<string, Database.Statement>()
  const prepare = (text: string): Database.Statement => {
    let statement = statements.get(text)
    if (statement === undefined) statements.set(text, (statement = db.prepare(text)))
    return statement
  }
  const executor: Executor = {
    all: <T>(text: string, params?: SqlParams) => prepare(text).all(...args(params)) as T[],
    get: <T>(text: string, params?: SqlParams) => prepare(text).get(...args(params)) as T | undefined,
    run: (text: string, params?: SqlParams) => ({ changes: prepare(text).run(...args(params)).changes }),
  }
  return scope(db, executor, 0, () => true)
}

/**
 * A handle at one nesting depth (0: the connection; 1: inside a transaction; deeper: inside savepoints). Its
 * statements wait for the transactions begun through it; `live` turns false when its own transaction has ended.
 */
function scope(db: Database.Database, exec: Executor, depth: number, live: () => boolean): Sql {
  // The end of the last transaction begun through this handle (never rejects), and how many are open or queued.
  let tail: Promise<unknown> = Promise.resolve()
  let unfinished = 0
  // The connection's group of deferred transactions (depth 0 only): open while its `BEGIN IMMEDIATE` is.
  let group: NodeJS.Timeout | undefined
  const commitGroup = (): void => {
    if (group === undefined) return
    clearTimeout(group)
    group = undefined
    // SQLite may already have rolled back on its own (a full disk, for one): then there is nothing to commit.
    if (db.inTransaction) exec.run('COMMIT')
  }
  // The group's deadline: committed at once, or right after the transaction under way (not inside its savepoint).
  const commitGroupSoon = (): void => {
    const commit = () => {
      try {
        commitGroup()
      } catch {
        // Only deferred work was in it (a durable write commits the group itself): lost as a crash would lose it.
        if (db.inTransaction) db.exec('ROLLBACK')
      }
    }
    if (unfinished === 0) return commit()
    unfinished++
    const done = () => void unfinished--
    tail = tail.then(commit).then(done, done)
  }
  const now = <T>(run: () => T): T => {
    if (!live()) throw new Error('statement on a transaction that has ended')
    const result = run()
    // The outer handle's statement is a write as far as anyone knows: the group it ran in is committed with it.
    if (group !== undefined) commitGroup()
    return result
  }
  // Idle: at once (errors become rejections). Else right after the transactions begun before it, ahead of later ones.
  const statement = <T>(run: () => T): Promise<T> =>
    unfinished === 0 ? new Promise<T>((resolve) => resolve(now(run))) : tail.then(() => now(run))
  const savepoint = `sp${depth}`
  const transaction = <T>(fn: (tx: Sql) => Promise<T>, deferred: boolean): Promise<T> => {
    if (!live()) return Promise.reject(new Error('transaction on a transaction that has ended'))
    unfinished++
    const run = tail.then(async () => {
      if (depth === 0 && deferred && group === undefined) {
        exec.run('BEGIN IMMEDIATE')
        group = setTimeout(commitGroupSoon, DEFERRED_COMMIT_MS).unref()
      }
      // At depth 0 inside a group, a savepoint of its own (named apart from the nested ones, sp1, sp2…).
      const inGroup = depth === 0 && group !== undefined
      const mark = inGroup ? 'grp' : savepoint
      exec.run(depth === 0 && !inGroup ? 'BEGIN IMMEDIATE' : `SAVEPOINT ${mark}`)
      let open = true
      try {
        const result = await fn(scope(db, exec, depth + 1, () => open))
        exec.run(depth === 0 && !inGroup ? 'COMMIT' : `RELEASE ${mark}`)
        if (inGroup && !deferred) commitGroup()
        return result
      } catch (err) {
        // SQLite may already have rolled back on its own (a full disk, for one).
        if (db.inTransaction) db.exec(depth === 0 && !inGroup ? 'ROLLBACK' : `ROLLBACK TO ${mark}; RELEASE ${mark}`)
        else if (inGroup) {
          clearTimeout(group)
          group = undefined
        }
        throw err
      } finally {
        open = false
      }
    })
    const done = () => void unfinished--
    tail = run.then(done, done)
    return run
  }
  return {
    dialect: 'sqlite',
    // Write transactions already run one at a time (BEGIN IMMEDIATE): no row locks to take.
    forUpdate: '',
    skipLocked: '',
    all: <T>(text: string, params?: SqlParams) => statement(() => exec.all<T>(text, params)),
    get: <T>(text: string, params?: SqlParams) => statement(() => exec.get<T>(text, params)),
    run: (text: string, params?: SqlParams) => statement(() => exec.run(text, params)),
    transaction: (fn) => transaction(fn, false),
    deferredTransaction: (fn) => transaction(fn, true),
  }
}
