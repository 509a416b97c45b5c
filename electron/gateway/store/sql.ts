/**
 * The one way the repos reach a database, so SQLite (the default) and PostgreSQL (team mode) share their SQL.
 *
 * Statements are written once, with `?` placeholders bound by position (an array) or `@name` placeholders bound by
 * name (an object), in the SQL both engines speak: `INSERT … ON CONFLICT … DO NOTHING / DO UPDATE`, `RETURNING`,
 * INTEGER money and milliseconds, TEXT JSON, 0/1 flags. Where the engines differ, a repo reads `dialect` or one
 * of the fragments below instead of keeping two copies of a statement.
 */
export type SqlParams = readonly unknown[] | Readonly<Record<string, unknown>>

export interface SqlResult {
  /** rows inserted, updated or deleted */
  changes: number
}

/** Statements run at once, for `Sql.atomic`. */
export interface SqlNow {
  all<T>(text: string, params?: SqlParams): T[]
  get<T>(text: string, params?: SqlParams): T | undefined
  run(text: string, params?: SqlParams): SqlResult
}

export interface Sql {
  readonly dialect: 'sqlite' | 'postgres'
  /**
   * Appended to a SELECT that reads rows the transaction then changes on their strength (a balance before a
   * reservation): ` FOR UPDATE` on PostgreSQL; empty on SQLite, whose write transactions already run one at a time.
   */
  readonly forUpdate: string
  /** As `forUpdate`, for a queue's claim: ` FOR UPDATE SKIP LOCKED` on PostgreSQL, so replicas claim different rows. */
  readonly skipLocked: string
  all<T>(text: string, params?: SqlParams): Promise<T[]>
  /** The first row, or undefined. */
  get<T>(text: string, params?: SqlParams): Promise<T | undefined>
  run(text: string, params?: SqlParams): Promise<SqlResult>
  /**
   * Runs `fn` atomically against `tx` (use only `tx` inside: the outer handle waits for the transaction to end).
   * Everything is stored or, when `fn` throws, nothing; the error is rethrown.
   */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>
  /**
   * SQLite only (undefined on PostgreSQL): runs `fn` at once on the connection, after the transactions begun or queued
   * before it and ahead of later ones, so that nothing else of the process (one thread, one connection) comes between
   * its reads and what it does on their strength: the funds check of a hold kept in memory (store/held-here.ts).
   */
  readonly atomic?: <T>(fn: (now: SqlNow) => T) => Promise<T>
  /**
   * SQLite only: how many statements that may have changed the database (any run, a read with RETURNING, a
   * rollback) the connection has ended. The process is the database's only writer, so a read's answer stands while
   * this count stays the same.
   */
  readonly writeCount?: () => number
}
