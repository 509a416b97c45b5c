import type Database from 'better-sqlite3'
import { RESTART_WAIT_MS, type WriteGate } from './checkpointer.js'
import type { Sql, SqlNow, SqlParams } from './sql.js'

/**
 * The SQLite side of `Sql` over one better-sqlite3 connection. Statements are prepared once, cached by their text.
 * Transactions run one at a time (a promise chain): `BEGIN IMMEDIATE` … `COMMIT`, or `ROLLBACK` when `fn` throws.
 * While one is open, or queued, the outer handle's statements (and `atomic` work) wait for it, so nothing of another
 * flow lands inside it; when none is, they run at once. A transaction begun on a `tx` handle is a savepoint of the
 * enclosing one. With a `gate` (the WAL checkpointer's, checkpointer.ts), a transaction asked for while the WAL is being
 * restarted is queued only once that is over, in the order asked, and statements asked for meanwhile do not wait for
 * it: the restart holds writers off, and a BEGIN would have held the thread in SQLite's busy wait until it ended.
 */
export function sqliteSql(db: Database.Database, gate?: WriteGate): Sql {
  const statements = new Map<string, Database.Statement>()
  const prepare = (text: string): Database.Statement => {
    let statement = statements.get(text)
    if (statement === undefined) statements.set(text, (statement = db.prepare(text)))
    return statement
  }
  // Statements that may have changed the database (every run, a read with RETURNING, a rollback), counted once ended.
  let writes = 0
  const counted = <T>(go: () => T): T => {
    try {
      return go()
    } finally {
      writes++
    }
  }
  const executor: SqlNow = {
    all: <T>(text: string, params?: SqlParams) => {
      const statement = prepare(text)
      const go = () => statement.all(...args(params)) as T[]
      return statement.readonly ? go() : counted(go)
    },
    get: <T>(text: string, params?: SqlParams) => {
      const statement = prepare(text)
      const go = () => statement.get(...args(params)) as T | undefined
      return statement.readonly ? go() : counted(go)
    },
    run: (text: string, params?: SqlParams) => counted(() => ({ changes: prepare(text).run(...args(params)).changes })),
  }
  const rollback = (text: string): void => counted(() => void db.exec(text))
  return scope(db, executor, 0, () => true, { gate, rollback, writeCount: () => writes })
}

const args = (params: SqlParams | undefined): unknown[] => (params === undefined ? [] : Array.isArray(params) ? params : [params])

/** What a connection's handles share: the WAL restart's gate, the rollback, the count of writes. */
interface Connection {
  gate?: WriteGate
  rollback(text: string): void
  writeCount(): number
}

/**
 * A handle at one nesting depth (0: the connection; 1: inside a transaction; deeper: inside savepoints). Its
 * statements wait for the transactions begun through it; `live` turns false when its own transaction has ended.
 */
function scope(db: Database.Database, exec: SqlNow, depth: number, live: () => boolean, connection: Connection): Sql {
  const { gate } = connection
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
  const begin = <T>(fn: (tx: Sql) => Promise<T>): Promise<T> => {
    unfinished++
    const run = tail.then(async () => {
      // The gate was open when it was queued; a restart wanted since is waited out here (a rare race: the statements
      // behind it wait too), for RESTART_WAIT_MS at most.
      if (gate !== undefined) {
        const until = Date.now() + RESTART_WAIT_MS
        while (!gate.enter(Date.now() > until)) await gate.opened()
      }
      try {
        exec.run(depth === 0 ? 'BEGIN IMMEDIATE' : `SAVEPOINT ${savepoint}`)
        let open = true
        try {
          const result = await fn(scope(db, exec, depth + 1, () => open, connection))
          exec.run(depth === 0 ? 'COMMIT' : `RELEASE ${savepoint}`)
          return result
        } catch (err) {
          // SQLite may already have rolled back on its own (a full disk, for one).
          if (db.inTransaction) connection.rollback(depth === 0 ? 'ROLLBACK' : `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`)
          throw err
        } finally {
          open = false
        }
      } finally {
        gate?.leave()
      }
    })
    const done = () => void unfinished--
    tail = run.then(done, done)
    return run
  }
  // Transactions waiting for a restart to end, in the order asked (the last one's turn); undefined: none.
  let waiting: Promise<void> | undefined
  const transaction = <T>(fn: (tx: Sql) => Promise<T>): Promise<T> => {
    if (!live()) return Promise.reject(new Error('transaction on a transaction that has ended'))
    if (gate === undefined || (waiting === undefined && !gate.closed())) return begin(fn)
    const turn: Promise<void> = (waiting ?? Promise.resolve()).then(() => gate.opened())
    waiting = turn
    return turn.then(() => {
      if (waiting === turn) waiting = undefined
      return begin(fn)
    })
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
    writeCount: connection.writeCount,
  }
}
