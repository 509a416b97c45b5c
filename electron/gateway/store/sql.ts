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
   * `transaction`, for work a crash may lose: a request's hold, which one process releases at its next start anyway.
   * SQLite joins it to a group of such transactions committed together within DEFERRED_COMMIT_MS (sqlite-sql.ts), or
   * sooner with the next durable write, so a request pays for no commit of its own; atomic and seen at once by every
   * later statement all the same. PostgreSQL, whose other replicas must see it, runs it as `transaction`.
   */
  deferredTransaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>
}
