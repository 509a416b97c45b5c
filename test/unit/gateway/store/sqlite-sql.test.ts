import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEFERRED_COMMIT_MS, sqliteSql } from '../../../../electron/gateway/store/sqlite-sql.js'
import type { Sql } from '../../../../electron/gateway/store/sql.js'

describe('sqliteSql', () => {
  let db: Database.Database
  let sql: Sql
  beforeEach(() => {
    db = new Database(':memory:')
    db.exec('CREATE TABLE t (id TEXT PRIMARY KEY, n INTEGER NOT NULL)')
    sql = sqliteSql(db)
  })
  afterEach(() => db.close())
  const ids = async () => (await sql.all<{ id: string }>('SELECT id FROM t ORDER BY id')).map((r) => r.id)

  it('binds ? by position and @name by name, answers rows, the first row or undefined, and the rows changed', async () => {
    expect(await sql.run('INSERT INTO t (id, n) VALUES (?, ?), (?, ?)', ['a', 1, 'b', 2])).toEqual({ changes: 2 })
    expect(await sql.run('INSERT INTO t (id, n) VALUES (@id, @n) ON CONFLICT DO NOTHING', { id: 'a', n: 9 })).toEqual({ changes: 0 })
    expect(await sql.all('SELECT id, n FROM t WHERE n >= @min ORDER BY id', { min: 1 })).toEqual([{ id: 'a', n: 1 }, { id: 'b', n: 2 }])
    expect(await sql.get('SELECT n FROM t WHERE id = ?', ['b'])).toEqual({ n: 2 })
    expect(await sql.get('SELECT n FROM t WHERE id = ?', ['z'])).toBeUndefined()
    expect(await sql.get<{ id: string }>("INSERT INTO t (id, n) VALUES ('c', 3) RETURNING id")).toEqual({ id: 'c' })
    expect([sql.dialect, sql.forUpdate, sql.skipLocked]).toEqual(['sqlite', '', ''])
  })

  it('a statement error is a rejection, not a throw', async () => {
    const answer = sql.run('INSERT INTO nowhere VALUES (1)')
    await expect(answer).rejects.toThrow('no such table: nowhere')
  })

  it('stores everything a transaction did, or nothing when it throws (the error comes back)', async () => {
    expect(await sql.transaction(async (tx) => {
      await tx.run("INSERT INTO t (id, n) VALUES ('a', 1)")
      await tx.run("INSERT INTO t (id, n) VALUES ('b', 2)")
      return 'done'
    })).toBe('done')
    await expect(sql.transaction(async (tx) => {
      await tx.run("INSERT INTO t (id, n) VALUES ('c', 3)")
      await tx.run("UPDATE t SET n = 10 WHERE id = 'a'")
      throw new Error('changed my mind')
    })).rejects.toThrow('changed my mind')
    // A failing statement rolls back what came before it too.
    await expect(sql.transaction(async (tx) => {
      await tx.run("INSERT INTO t (id, n) VALUES ('d', 4)")
      await tx.run("INSERT INTO t (id, n) VALUES ('a', 5)")
    })).rejects.toThrow('UNIQUE constraint failed')
    expect(await sql.all('SELECT id, n FROM t ORDER BY id')).toEqual([{ id: 'a', n: 1 }, { id: 'b', n: 2 }])
    expect(db.inTransaction).toBe(false)
  })

  it('holds the outer handle\'s statements until the open transaction ends, and runs them before a later one', async () => {
    const order: string[] = []
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const first = sql.transaction(async (tx) => {
      await tx.run("INSERT INTO t (id, n) VALUES ('in-tx', 1)")
      await gate
      order.push('tx ends')
      throw new Error('rolled back')
    })
    // Issued while the transaction is open: had it run at once, it would have been rolled back with it.
    const outer = sql.run("INSERT INTO t (id, n) VALUES ('outer', 2)")
    const second = sql.transaction(async (tx) => {
      order.push('second tx')
      return tx.get<{ n: number }>("SELECT COUNT(*) AS n FROM t WHERE id = 'outer'")
    })
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(order).toEqual([])
    release()
    await expect(first).rejects.toThrow('rolled back')
    expect(await outer).toEqual({ changes: 1 })
    // The later transaction already sees the outer row: the statement ran between the two.
    expect(await second).toEqual({ n: 1 })
    expect(order).toEqual(['tx ends', 'second tx'])
    expect(await ids()).toEqual(['outer'])
  })

  it('runs transactions one at a time, in the order they were begun', async () => {
    const seen: number[] = []
    await Promise.all([1, 2, 3].map((i) => sql.transaction(async (tx) => {
      const before = (await tx.get<{ n: number }>('SELECT COUNT(*) AS n FROM t'))!.n
      await new Promise((resolve) => setTimeout(resolve, 5))
      await tx.run('INSERT INTO t (id, n) VALUES (?, ?)', [`r${i}`, before])
      seen.push(i)
    })))
    expect(seen).toEqual([1, 2, 3])
    expect(await sql.all('SELECT id, n FROM t ORDER BY id')).toEqual([{ id: 'r1', n: 0 }, { id: 'r2', n: 1 }, { id: 'r3', n: 2 }])
  })

  it('a transaction begun on tx is a savepoint: its failure undoes only its own part unless the error goes on', async () => {
    await sql.transaction(async (tx) => {
      await tx.run("INSERT INTO t (id, n) VALUES ('kept', 1)")
      await expect(tx.transaction(async (inner) => {
        await inner.run("INSERT INTO t (id, n) VALUES ('undone', 2)")
        throw new Error('inner failed')
      })).rejects.toThrow('inner failed')
      expect(await tx.transaction(async (inner) => {
        await inner.run("INSERT INTO t (id, n) VALUES ('nested', 3)")
        return inner.get<{ n: number }>('SELECT COUNT(*) AS n FROM t')
      })).toEqual({ n: 2 })
    })
    expect(await ids()).toEqual(['kept', 'nested'])
    await expect(sql.transaction(async (tx) => {
      await tx.run("INSERT INTO t (id, n) VALUES ('outer-part', 4)")
      await tx.transaction(async (inner) => {
        await inner.run("INSERT INTO t (id, n) VALUES ('inner-part', 5)")
        throw new Error('passed on')
      })
    })).rejects.toThrow('passed on')
    expect(await ids()).toEqual(['kept', 'nested'])
    expect(db.inTransaction).toBe(false)
  })

  it('refuses statements on a transaction handle after its transaction ended', async () => {
    let leaked!: Sql
    await sql.transaction(async (tx) => {
      leaked = tx
    })
    await expect(leaked.run("INSERT INTO t (id, n) VALUES ('late', 1)")).rejects.toThrow('statement on a transaction that has ended')
    expect(await ids()).toEqual([])
  })
})

describe('sqliteSql deferred transactions', () => {
  let dir: string
  let db: Database.Database
  let other: Database.Database
  let sql: Sql
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-deferred-'))
    db = new Database(join(dir, 'x.sqlite'))
    db.pragma('journal_mode = WAL')
    db.exec('CREATE TABLE t (id TEXT PRIMARY KEY, n INTEGER NOT NULL)')
    // Another connection sees only what was committed.
    other = new Database(join(dir, 'x.sqlite'), { readonly: true })
    sql = sqliteSql(db)
  })
  afterEach(() => {
    other.close()
    db.close()
    rmSync(dir, { recursive: true, force: true })
  })
  const committed = () => (other.prepare('SELECT id FROM t ORDER BY id').all() as Array<{ id: string }>).map((r) => r.id)
  const insert = (tx: Sql, id: string) => tx.run('INSERT INTO t (id, n) VALUES (?, 1)', [id])

  it('are seen at once by later statements, and committed together within DEFERRED_COMMIT_MS', async () => {
    expect(await sql.deferredTransaction(async (tx) => (await insert(tx, 'a'), 'done'))).toBe('done')
    await sql.deferredTransaction((tx) => insert(tx, 'b'))
    expect(db.inTransaction).toBe(true)
    expect(committed()).toEqual([])
    expect(await sql.transaction((tx) => tx.all('SELECT id FROM t ORDER BY id'))).toEqual([{ id: 'a' }, { id: 'b' }])
    // That read was a (durable) transaction: the group went with it.
    expect(committed()).toEqual(['a', 'b'])
    await sql.deferredTransaction((tx) => insert(tx, 'c'))
    expect(committed()).toEqual(['a', 'b'])
    await new Promise((resolve) => setTimeout(resolve, DEFERRED_COMMIT_MS * 3))
    expect(committed()).toEqual(['a', 'b', 'c'])
    expect(db.inTransaction).toBe(false)
  })

  it('a write of the outer handle commits the group with it', async () => {
    await sql.deferredTransaction((tx) => insert(tx, 'held'))
    await sql.run("INSERT INTO t (id, n) VALUES ('durable', 2)")
    expect(committed()).toEqual(['durable', 'held'])
    expect(db.inTransaction).toBe(false)
  })

  it('one that throws undoes only its own work; the group keeps the rest', async () => {
    await sql.deferredTransaction((tx) => insert(tx, 'kept'))
    await expect(sql.deferredTransaction(async (tx) => {
      await insert(tx, 'undone')
      throw new Error('refused')
    })).rejects.toThrow('refused')
    await expect(sql.deferredTransaction((tx) => insert(tx, 'kept'))).rejects.toThrow('UNIQUE constraint failed')
    await sql.transaction(async () => undefined)
    expect(committed()).toEqual(['kept'])
  })

  it('the group\'s deadline never commits inside a transaction under way: it waits for its end', async () => {
    await sql.deferredTransaction((tx) => insert(tx, 'first'))
    const failing = sql.deferredTransaction(async (tx) => {
      await insert(tx, 'rolled-back')
      // The deadline passes while this transaction is open.
      await new Promise((resolve) => setTimeout(resolve, DEFERRED_COMMIT_MS * 3))
      expect(committed()).toEqual([])
      throw new Error('after the deadline')
    })
    await expect(failing).rejects.toThrow('after the deadline')
    await new Promise((resolve) => setTimeout(resolve, DEFERRED_COMMIT_MS))
    expect(committed()).toEqual(['first'])
    expect(db.inTransaction).toBe(false)
  })
})
