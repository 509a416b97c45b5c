import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { sqliteSql } from '../../../../electron/gateway/store/sqlite-sql.js'
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

  it('writeCount grows with every run, a read that writes (RETURNING) and a rollback; a plain read leaves it', async () => {
    const count = sql.writeCount!
    const start = count()
    await sql.get('SELECT COUNT(*) AS n FROM t')
    await sql.all('SELECT id FROM t')
    expect(count()).toBe(start)
    await sql.run("INSERT INTO t (id, n) VALUES ('a', 1)")
    expect(count()).toBe(start + 1)
    await sql.all("DELETE FROM t WHERE id = 'a' RETURNING n")
    expect(count()).toBe(start + 2)
    // A failed write counts too: it may have changed something before it failed.
    await expect(sql.run("INSERT INTO t (id, n) VALUES ('b', NULL)")).rejects.toThrow('NOT NULL')
    expect(count()).toBe(start + 3)
    const before = count()
    await expect(sql.transaction(async (tx) => {
      await tx.run("INSERT INTO t (id, n) VALUES ('c', 1)")
      throw new Error('undone')
    })).rejects.toThrow('undone')
    // BEGIN, the insert and the rollback.
    expect(count()).toBe(before + 3)
  })
})

describe('sqliteSql atomic work', () => {
  let db: Database.Database
  let sql: Sql
  beforeEach(() => {
    db = new Database(':memory:')
    db.exec('CREATE TABLE t (id TEXT PRIMARY KEY, n INTEGER NOT NULL)')
    sql = sqliteSql(db)
  })
  afterEach(() => db.close())
  const sum = (now: { get<T>(text: string): T | undefined }) => now.get<{ n: number }>('SELECT COALESCE(SUM(n), 0) AS n FROM t')!.n

  it('runs at once when no transaction is open or queued: its statements are done before the call returns', async () => {
    const order: string[] = []
    const done = sql.atomic!((now) => {
      now.run("INSERT INTO t (id, n) VALUES ('a', 1)")
      order.push('atomic')
      return sum(now)
    })
    order.push('returned')
    expect(order).toEqual(['atomic', 'returned'])
    expect(await done).toBe(1)
  })

  it('waits for the transactions begun before it, and later ones wait for it: nothing lands between its read and its write', async () => {
    const order: string[] = []
    let release!: () => void
    const open = sql.transaction(async (tx) => {
      await tx.run("INSERT INTO t (id, n) VALUES ('in-tx', 5)")
      await new Promise<void>((resolve) => { release = resolve })
      order.push('transaction')
    })
    // Queued behind the open transaction: it sees that transaction's row, committed.
    const checked = sql.atomic!((now) => {
      order.push('atomic')
      const seen = sum(now)
      now.run("INSERT INTO t (id, n) VALUES ('after', ?)", [seen])
      return seen
    })
    const later = sql.transaction(async (tx) => {
      order.push('later')
      return tx.get<{ n: number }>("SELECT n FROM t WHERE id = 'after'")
    })
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(order).toEqual([])
    release()
    expect(await checked).toBe(5)
    expect(await later).toEqual({ n: 5 })
    await open
    expect(order).toEqual(['transaction', 'atomic', 'later'])
  })

  it('a throw is a rejection, and what it wrote before the throw stays (it is no transaction)', async () => {
    await expect(sql.atomic!((now) => {
      now.run("INSERT INTO t (id, n) VALUES ('a', 1)")
      now.run("INSERT INTO t (id, n) VALUES ('a', 2)")
    })).rejects.toThrow('UNIQUE constraint failed')
    expect(await sql.all('SELECT id, n FROM t')).toEqual([{ id: 'a', n: 1 }])
  })
})
