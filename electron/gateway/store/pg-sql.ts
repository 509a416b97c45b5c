import pg from 'pg'
import type { Sql, SqlParams, SqlResult } from './sql.js'

export interface PgPoolOptions {
  /** `postgres://USER:PASS@HOST:PORT/DB` */
  url: string
  /** connections per replica (config `team.poolSize`): every replica of a team holds its own */
  max?: number
  /** how long a query waits for a free connection before failing */
  connectionTimeoutMs?: number
  /** the server cancels a statement running longer than this */
  statementTimeoutMs?: number
  /** one line per problem; an idle connection's error is logged here, never thrown */
  log: (line: string) => void
}

/**
 * Connections per replica when config `team.poolSize` does not say. Each request takes its concurrency slot (and,
 * with a spending limit, its hold) over one, and the ledger's commit, which gives the slots back, holds one: with 5,
 * a replica under load waited for connections with its CPU half idle (about 1.5 times the throughput at 20).
 */
export const DEFAULT_POOL_SIZE = 20

/** Serialization failure and deadlock: the transaction did nothing and may simply run again. */
const RETRYABLE = new Set(['40001', '40P01'])
const TRANSACTION_ATTEMPTS = 5

/** A pool for the gateway's store: small, bounded waits, and BIGINT/NUMERIC read as numbers (this pool only). */
export function createPgPool(options: PgPoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max ?? DEFAULT_POOL_SIZE,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 10_000,
    statement_timeout: options.statementTimeoutMs ?? 30_000,
    // A transaction left open by a stuck caller must not hold row locks forever.
    idle_in_transaction_session_timeout: 60_000,
    application_name: 'gatehouse',
    keepAlive: true,
    types: numberTypes(),
  })
  // An idle client's connection can drop at any time (a server restart, a failover): log it; the pool replaces it.
  pool.on('error', (err) => options.log(`database: idle connection lost: ${err.message}`))
  return pool
}

/** Money and counts are INTEGER in the shared SQL: BIGINT (COUNT) and NUMERIC (SUM of BIGINT) arrive as numbers. */
function numberTypes(): pg.CustomTypesConfig {
  const types = new pg.TypeOverrides()
  types.setTypeParser(pg.types.builtins.INT8, parseExactInteger)
  types.setTypeParser(pg.types.builtins.NUMERIC, (text: string) => (/^-?\d+$/.test(text) ? parseExactInteger(text) : Number(text)))
  return types
}

/** A whole number a JS number holds exactly; beyond 2^53 the query fails rather than a sum silently rounding. */
function parseExactInteger(text: string): number {
  const n = Number(text)
  if (!Number.isSafeInteger(n)) throw new RangeError(`integer ${text} is beyond what the gateway can count exactly`)
  return n
}

/**
 * The store's `Sql` over PostgreSQL; `pool` comes from `createPgPool` (its types read BIGINT as numbers).
 * A transaction that fails on a serialization failure or a deadlock runs again (up to 5 times in all): its `fn`
 * may run more than once, so it keeps effects outside the database out of it. So does a statement run on its own
 * (its own transaction, which such a failure undid whole).
 */
export function pgSql(pool: pg.Pool): Sql {
  return handle(pool, (fn) =>
    againOnConflict(async () => {
      const client = await pool.connect()
      let broken: Error | undefined
      try {
        await client.query('BEGIN')
        const result = await fn(handle(client, savepoints(client)))
        await client.query('COMMIT')
        return result
      } catch (err) {
        try {
          await client.query('ROLLBACK')
        } catch (rollbackError) {
          broken = rollbackError as Error
        }
        throw err
      } finally {
        // A client whose ROLLBACK failed is in an unknown state: the pool discards it.
        client.release(broken)
      }
    }),
  )
}

/** `attempt` once more after a serialization failure or a deadlock (it did nothing), up to 5 times in all. */
async function againOnConflict<T>(attempt: () => Promise<T>): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt()
    } catch (err) {
      if (n >= TRANSACTION_ATTEMPTS || !RETRYABLE.has((err as { code?: string }).code ?? '')) throw err
    }
    await new Promise((resolve) => setTimeout(resolve, 5 * 2 ** n * (0.5 + Math.random())))
  }
}

type Runner = <T>(fn: (tx: Sql) => Promise<T>) => Promise<T>

/** Inside a transaction, a nested one is a savepoint: it undoes only its own work when it throws. */
function savepoints(client: pg.PoolClient, depth = 1): Runner {
  return async (fn) => {
    const name = `sp_${depth}`
    await client.query(`SAVEPOINT ${name}`)
    try {
      const result = await fn(handle(client, savepoints(client, depth + 1)))
      await client.query(`RELEASE SAVEPOINT ${name}`)
      return result
    } catch (err) {
      await client.query(`ROLLBACK TO SAVEPOINT ${name}`)
      throw err
    }
  }
}

function handle(db: pg.Pool | pg.PoolClient, transaction: Runner): Sql {
  // On the pool a statement is its own transaction, run again as one; inside a transaction the transaction is.
  const query = db instanceof pg.Pool
    ? (text: string, params?: SqlParams) => againOnConflict(() => db.query(bind(text, params)))
    : (text: string, params?: SqlParams) => db.query(bind(text, params))
  return {
    dialect: 'postgres',
    forUpdate: ' FOR UPDATE',
    skipLocked: ' FOR UPDATE SKIP LOCKED',
    all: async <T>(text: string, params?: SqlParams) => (await query(text, params)).rows as T[],
    get: async <T>(text: string, params?: SqlParams) => (await query(text, params)).rows[0] as T | undefined,
    run: async (text: string, params?: SqlParams): Promise<SqlResult> => ({ changes: (await query(text, params)).rowCount ?? 0 }),
    transaction,
  }
}

/**
 * Statements prepared once per connection (PostgreSQL keeps each parsed under a name), so a call is bound and run
 * without being parsed and planned again: the per-request calls of the schema's functions (admission, hold moves,
 * group commits). Their result's columns are named in the statement, never a table's `*` that a newer replica's
 * migration could change under a statement a connection keeps.
 */
const PREPARED = new Map<string, string>()
export function preparedCall(text: string): string {
  if (!text.startsWith('SELECT ') || text.includes('*')) throw new Error(`not a statement to prepare: ${text}`)
  if (!PREPARED.has(text)) PREPARED.set(text, `gatehouse_${PREPARED.size + 1}`)
  return text
}

interface Translated {
  text: string
  /** for `@name` statements: the name bound to each `$n` */
  names: string[]
  count: number
}

const positional = new Map<string, Translated>()
const named = new Map<string, Translated>()
/** The statements are the repos' constants: the caches stay as small as the code. */
const CACHE_LIMIT = 2_000

/** Quoted strings, quoted names, comments and dollar-quoted bodies are copied as they are; `?` and `@name` are not. */
const TOKENS = /'(?:[^']|'')*'|"(?:[^"]|"")*"|--[^\n]*|\/\*[\s\S]*?\*\/|\$([A-Za-z_]\w*)?\$[\s\S]*?\$\1\$|\?|@([A-Za-z_]\w*)/g

/** `?` (array params) or `@name` (object params) to PostgreSQL's `$1…$n`. */
export function translatePlaceholders(text: string, byName: boolean): Translated {
  const cache = byName ? named : positional
  let translated = cache.get(text)
  if (translated) return translated
  const names: string[] = []
  let count = 0
  const out = text.replace(TOKENS, (token: string, _tag: string | undefined, name: string | undefined) => {
    if (token === '?' && !byName) return `$${++count}`
    if (name !== undefined && byName) {
      let index = names.indexOf(name)
      if (index < 0) index = names.push(name) - 1
      return `$${index + 1}`
    }
    return token
  })
  translated = { text: out, names, count: byName ? names.length : count }
  if (cache.size >= CACHE_LIMIT) cache.clear()
  cache.set(text, translated)
  return translated
}

function bind(text: string, params: SqlParams | undefined): pg.QueryConfig {
  const byName = params !== undefined && !Array.isArray(params)
  const translated = translatePlaceholders(text, byName)
  if (byName) {
    const record = params as Readonly<Record<string, unknown>>
    const values = translated.names.map((name) => {
      if (!Object.hasOwn(record, name)) throw new Error(`missing named parameter @${name}`)
      return record[name]
    })
    return { name: PREPARED.get(text), text: translated.text, values }
  }
  const values = (params as readonly unknown[] | undefined) ?? []
  if (values.length !== translated.count) throw new Error(`statement takes ${translated.count} parameters, got ${values.length}`)
  return { name: PREPARED.get(text), text: translated.text, values: [...values] }
}
