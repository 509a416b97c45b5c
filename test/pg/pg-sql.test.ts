import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openStore } from '../../electron/gateway/store/open-store.js'
import { createPgPool, DEFAULT_POOL_SIZE, pgSql, preparedCall } from '../../electron/gateway/store/pg-sql.js'
import type { Sql } from '../../electron/gateway/store/sql.js'
import { tempDataDir } from '../helpers/gateway.js'
import { freshDatabase } from '../helpers/pg-database.js'

let url: string
let pool: pg.Pool
let sql: Sql
const logged: string[] = []

beforeAll(async () => {
  url = await freshDatabase()
  pool = createPgPool({ url, max: 3, log: (line) => logged.push(line) })
  sql = pgSql(pool)
  await sql.run('CREATE TABLE t (id TEXT PRIMARY KEY, n BIGINT NOT NULL, note TEXT)')
})
afterAll(() => pool?.end())

describe('pgSql', () => {
  it('binds ? by position and @name by name, leaving quoted text alone; run answers the rows changed', async () => {
    expect(await sql.run('INSERT INTO t (id, n, note) VALUES (?, ?, ?), (?, ?, ?)', ['a', 1, 'why?', 'b', 2, '@me'])).toEqual({ changes: 2 })
    expect(await sql.run(`UPDATE t SET note = note || '?@x' WHERE n >= @min AND n <= @max`, { min: 1, max: 1, unused: 9 })).toEqual({ changes: 1 })
    expect(await sql.all('SELECT id, n, note FROM t ORDER BY id')).toEqual([
      { id: 'a', n: 1, note: 'why??@x' },
      { id: 'b', n: 2, note: '@me' },
    ])
    expect(await sql.get('SELECT id FROM t WHERE id = ?', ['zz'])).toBeUndefined()
    await expect(sql.get('SELECT id FROM t WHERE id = @id', { other: 1 })).rejects.toThrow('missing named parameter @id')
    await expect(sql.get('SELECT id FROM t WHERE id = ?', ['a', 'b'])).rejects.toThrow('statement takes 1 parameters, got 2')
    await sql.run('DELETE FROM t')
  })

  it('reads BIGINT and NUMERIC (a SUM of BIGINT) as exact numbers up to 2^53, and refuses to round beyond', async () => {
    await sql.run('INSERT INTO t (id, n) VALUES (?, ?), (?, ?)', ['x', 2 ** 52, 'y', 2 ** 52 - 1])
    expect(await sql.get('SELECT COUNT(*) AS count, SUM(n) AS sum, MAX(n) AS max, AVG(n) AS avg FROM t')).toEqual({
      count: 2,
      sum: Number.MAX_SAFE_INTEGER,
      max: 2 ** 52,
      avg: 2 ** 52 - 0.5,
    })
    await sql.run('INSERT INTO t (id, n) VALUES (?, ?)', ['z', 1])
    await expect(sql.get('SELECT SUM(n) AS sum FROM t')).rejects.toThrow('integer 9007199254740992 is beyond what the gateway can count exactly')
    await expect(sql.get('SELECT 9007199254740993::bigint AS n')).rejects.toThrow(RangeError)
    await sql.run('DELETE FROM t')
    // Only this pool reads them as numbers: pg's global parsers are untouched.
    expect(pg.types.getTypeParser(pg.types.builtins.INT8)('5')).toBe('5')
    const plain = new pg.Client({ connectionString: url })
    await plain.connect()
    expect((await plain.query('SELECT COUNT(*) AS count FROM t')).rows[0]).toEqual({ count: '0' })
    await plain.end()
  })

  it('runs a transaction on one connection: all of it commits, or none of it when it throws', async () => {
    const value = await sql.transaction(async (tx) => {
      await tx.run('INSERT INTO t (id, n) VALUES (?, ?)', ['kept', 1])
      return (await tx.get<{ n: number }>('SELECT n FROM t WHERE id = ?' + tx.forUpdate, ['kept']))!.n
    })
    expect(value).toBe(1)
    await expect(
      sql.transaction(async (tx) => {
        await tx.run('INSERT INTO t (id, n) VALUES (?, ?)', ['lost', 1])
        throw new Error('changed my mind')
      }),
    ).rejects.toThrow('changed my mind')
    expect(await sql.all('SELECT id FROM t ORDER BY id')).toEqual([{ id: 'kept' }])
    await sql.run('DELETE FROM t')
  })

  it('nests a transaction as a savepoint: a failing inner one undoes only its own work', async () => {
    await sql.transaction(async (tx) => {
      await tx.run('INSERT INTO t (id, n) VALUES (?, ?)', ['outer', 1])
      await expect(
        tx.transaction(async (inner) => {
          await inner.run('INSERT INTO t (id, n) VALUES (?, ?)', ['inner', 1])
          throw new Error('inner fails')
        }),
      ).rejects.toThrow('inner fails')
      await tx.transaction((inner) => inner.run('INSERT INTO t (id, n) VALUES (?, ?)', ['second', 1]))
    })
    expect(await sql.all('SELECT id FROM t ORDER BY id')).toEqual([{ id: 'outer' }, { id: 'second' }])
    await sql.run('DELETE FROM t')
  })

  it('runs a transaction again after a serialization failure, a bounded number of times; other errors are not retried', async () => {
    let attempts = 0
    await sql.transaction(async (tx) => {
      attempts++
      await tx.run('INSERT INTO t (id, n) VALUES (?, ?)', ['once', attempts])
      if (attempts === 1) await tx.run(`DO $$ BEGIN RAISE EXCEPTION 'conflict' USING ERRCODE = 'serialization_failure'; END $$`)
    })
    expect(attempts).toBe(2)
    expect(await sql.all('SELECT id, n FROM t')).toEqual([{ id: 'once', n: 2 }])

    attempts = 0
    const always = sql.transaction(async (tx) => {
      attempts++
      await tx.run(`DO $$ BEGIN RAISE EXCEPTION 'conflict' USING ERRCODE = 'serialization_failure'; END $$`)
    })
    await expect(always).rejects.toMatchObject({ code: '40001' })
    expect(attempts).toBe(5)

    attempts = 0
    await expect(
      sql.transaction(async (tx) => {
        attempts++
        await tx.run('INSERT INTO t (id, n) VALUES (?, ?)', ['once', 0])
      }),
    ).rejects.toMatchObject({ code: '23505' })
    expect(attempts).toBe(1)
    await sql.run('DELETE FROM t')
  })

  it('runs a statement on its own again after a deadlock, a bounded number of times; other errors are not retried', async () => {
    // A sequence counts the calls: it is not undone with the statement's transaction.
    await sql.run('CREATE SEQUENCE calls')
    await sql.run(`CREATE FUNCTION deadlocked_until(n BIGINT) RETURNS TEXT LANGUAGE plpgsql AS $$
      BEGIN
        IF nextval('calls') < n THEN RAISE EXCEPTION 'deadlock detected' USING ERRCODE = 'deadlock_detected'; END IF;
        RETURN 'ok';
      END $$`)
    const calls = async () => Number((await sql.get<{ n: number }>('SELECT last_value AS n FROM calls'))!.n)
    expect(await sql.get('SELECT deadlocked_until(?) AS r', [2])).toEqual({ r: 'ok' })
    expect(await calls()).toBe(2)
    await expect(sql.get('SELECT deadlocked_until(?) AS r', [1_000])).rejects.toMatchObject({ code: '40P01' })
    expect(await calls()).toBe(7)
    // 'ok' is no integer: the statement fails after its one call, and is not run again.
    await expect(sql.get('SELECT CAST(deadlocked_until(?) AS INTEGER) AS r', [0])).rejects.toMatchObject({ code: '22P02' })
    expect(await calls()).toBe(8)
    await sql.run('DROP FUNCTION deadlocked_until(BIGINT)')
    await sql.run('DROP SEQUENCE calls')
  })

  it('gets both of two deadlocked transactions through: the one PostgreSQL aborts runs again', async () => {
    await sql.run('INSERT INTO t (id, n) VALUES (?, ?), (?, ?)', ['r1', 0, 'r2', 0])
    const signal = () => {
      let resolve!: () => void
      return { done: new Promise<void>((r) => (resolve = r)), resolve }
    }
    const aLocked = signal()
    const bLocked = signal()
    let attempts = 0
    // Each takes one row, waits for the other to take the other row, then asks for it: a lock cycle.
    const crossing = (first: string, second: string, mine: ReturnType<typeof signal>, theirs: ReturnType<typeof signal>) =>
      sql.transaction(async (tx) => {
        attempts++
        await tx.run(`SET LOCAL deadlock_timeout = '50ms'`)
        await tx.run('UPDATE t SET n = n + 1 WHERE id = ?', [first])
        mine.resolve()
        await theirs.done
        await tx.run('UPDATE t SET n = n + 1 WHERE id = ?', [second])
      })
    await Promise.all([crossing('r1', 'r2', aLocked, bLocked), crossing('r2', 'r1', bLocked, aLocked)])
    expect(attempts).toBe(3)
    expect(await sql.all('SELECT id, n FROM t ORDER BY id')).toEqual([
      { id: 'r1', n: 2 },
      { id: 'r2', n: 2 },
    ])
    await sql.run('DELETE FROM t')
  })

  it("survives an idle connection's death: logged, replaced, never thrown", async () => {
    // Fill the pool with idle connections, then end their backends from outside.
    await Promise.all([1, 2, 3].map(() => sql.get('SELECT pg_sleep(0.05)')))
    const idle = pool.idleCount
    expect(idle).toBe(3)
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    const { rowCount: killed } = await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'gatehouse' AND pid <> pg_backend_pid()`,
    )
    await admin.end()
    expect(killed).toBe(idle)
    for (let i = 0; i < 100 && logged.length < idle; i++) await new Promise((resolve) => setTimeout(resolve, 20))
    expect(logged).toEqual(Array<string>(idle).fill('database: idle connection lost: terminating connection due to administrator command'))
    expect(pool.idleCount).toBe(0)
    expect(await sql.get('SELECT 1 AS one')).toEqual({ one: 1 })
  })

  it('names its connections and bounds how long a statement may run', async () => {
    const short = createPgPool({ url, max: 1, statementTimeoutMs: 100, log: () => {} })
    const shortSql = pgSql(short)
    expect(
      await shortSql.get(
        `SELECT current_setting('application_name') AS name, current_setting('statement_timeout') AS timeout,
                current_setting('idle_in_transaction_session_timeout') AS idle`,
      ),
    ).toEqual({ name: 'gatehouse', timeout: '100ms', idle: '1min' })
    await expect(shortSql.get('SELECT pg_sleep(2)')).rejects.toMatchObject({ code: '57014' })
    await short.end()
  })

  it('team mode opens a pool of config team.poolSize connections, 20 when it does not say', async () => {
    const dir = tempDataDir()
    const sized = await openStore({ dataDir: dir.dir, databaseUrl: url, poolSize: 7, replica: 'sized', log: () => {} })
    const plain = await openStore({ dataDir: dir.dir, databaseUrl: url, replica: 'plain', log: () => {} })
    expect([sized.pool!.options.max, plain.pool!.options.max]).toEqual([7, 20])
    expect(DEFAULT_POOL_SIZE).toBe(20)
    await Promise.all([sized.store.close(), plain.store.close()])
    dir.remove()
  })

  it('prepares the per-request function calls once per connection, and no other statement', async () => {
    const one = createPgPool({ url, max: 1, log: () => {} })
    const single = pgSql(one)
    try {
      const call = preparedCall("SELECT upper(?) AS shout, ? + 1 AS next")
      for (const word of ['a', 'b', 'c']) expect(await single.get(call, [word, 1])).toEqual({ shout: word.toUpperCase(), next: 2 })
      await single.get('SELECT lower(?) AS quiet', ['A'])
      const kept = await single.all<{ statement: string }>('SELECT statement FROM pg_prepared_statements ORDER BY statement')
      expect(kept.map((k) => k.statement)).toEqual(['SELECT upper($1) AS shout, $2 + 1 AS next'])
      // A statement naming a table's columns by `*` is never kept: a migration may change them.
      expect(() => preparedCall('SELECT * FROM t')).toThrow('not a statement to prepare: SELECT * FROM t')
    } finally {
      await one.end()
    }
  })
})
