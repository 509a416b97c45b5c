import type Database from 'better-sqlite3'
import type { Sql, SqlNow, SqlParams } from './sql.js'

/**
 * The SQLite side of `Sql` over one better-sqlite3 connection. Statements are prepared once, cached by their text.
 * Transactions run one at a time (a promise chain): `BEGIN IMMEDIATE` … `COMMIT`, or `ROLLBACK` when `fn` throws.
 * While one is open, or queued, the outer handle's statements (and `atomic` work) wait for it, so nothing of another
 * flow lands inside it; when none is, they run at once. A transaction begun on a `tx` handle is a savepoint of the
 * enclosing one.
 */
export function sqliteSql(db: Database.Database): Sql {
  const statements = new Map<string, Database.Statement>()
  const prepare = (text: string): Database.Statement => {
    let statement = statements.get(text)
    if (statement === undefined) statements.set(text, (statement = db.prepare(text)))
    return statement
  }
  const executor: SqlNow = {
    all: <T>(text: string, params?: SqlParams) => prepare(text).all(...args(params)) as T[],
    get: <T>(text: string, params?: SqlParams) => prepare(text).get(...args(params)) as T | undefined,
    run: (text: string, params?: SqlParams) => ({ changes: prepare(text).run(...args(params)).changes }),
  }
  return scope(db, executor, 0, () => true)
}

const args = (params: SqlParams | undefined): unknown[] => (params === undefined ? [] : Array.isArray(params) ? params : [params])

/**
 * A handle at one nesting depth (0: the connection; 1: inside a transaction; deeper: inside savepoints). Its
 * statements wait for the transactions begun through it; `live` turns false when its own transaction has ended.
 */
function scope(db: Database.Database, exec: SqlNow, depth: number, live: () => boolean): Sql {
  // The end of the last transaction begun through this handle (never rejects), and how many are open or queued.
  let tail: Promise<unknown> = Promise.resolve()
  let unfinished = 0
  const now = <T>(run: () => T): T => {
    if (!live()) throw new Error('statement on a transaction that has ended')
    return run()
  }
  // Idle: at once (errors become rejections). Else right after the transactions begun before it, ahead of later ones.
  const statement = <T>(run: () => T): Promise<T> =>
    unfinished === 0 ? new Promise<T>((resolve) => resolve(now(run))) : tail.then(() => now(run))
  const savepoint = `sp${depth}`
  const transaction = <T>(fn: (tx: Sql) => Promise<T>): Promise<T> => {
    if (!live()) return Promise.reject(new Error('transaction on a transaction that has ended'))
    unfinished++
    const run = tail.then(async () => {
      exec.run(depth === 0 ? 'BEGIN IMMEDIATE' : `SAVEPOINT ${savepoint}`)
      let open = true
      try {
        const result = await fn(scope(db, exec, depth + 1, () => open))
        exec.run(depth === 0 ? 'COMMIT' : `RELEASE ${savepoint}`)
        return result
      } catch (err) {
        // SQLite may already have rolled back on its own (a full disk, for one).
        if (db.inTransaction) db.exec(depth === 0 ? 'ROLLBACK' : `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`)
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
    transaction,
    atomic: (fn) => statement(() => fn(exec)),
  }
}
