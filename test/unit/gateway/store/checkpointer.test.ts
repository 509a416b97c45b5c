import { existsSync, readdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { startCheckpointer } from '../../../../electron/gateway/store/checkpointer.js'
import { openDb, PAGE_CACHE_KIB } from '../../../../electron/gateway/store/db.js'
import { createStore } from '../../../../electron/gateway/store/index.js'
import { sqliteSql } from '../../../../electron/gateway/store/sqlite-sql.js'
import { tempDataDir } from '../../../helpers/gateway.js'
import { until } from '../../../helpers/until.js'

const row = (i: number) => ({
  id: `req_${String(i).padStart(32, '0')}`, key_id: null, group_id: null, model: 'm', endpoint: 'chat.completions', status: 200,
  error_code: null, upstream_id: null, input_tokens: 1, output_tokens: 1, usage: null, cost_nano: 0, latency_ms: 1, created_at: Date.now(),
})

describe('the serving connection', () => {
  it('keeps a page cache of PAGE_CACHE_KIB (2 MB), not the 16 MB its driver defaults to', () => {
    const data = tempDataDir()
    const db = openDb(data.dir)
    expect(PAGE_CACHE_KIB).toBe(2000)
    expect(db.pragma('cache_size', { simple: true })).toBe(-2000)
    db.close()
    data.remove()
  })
})

describe('the WAL checkpointer thread', () => {
  it('moves committed pages into the store file while the serving connection only appends to the WAL', async () => {
    const data = tempDataDir()
    const store = createStore(data.dir, () => {})
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(0)
    for (let i = 0; i < 2000; i++) store.ledger.enqueue(row(i))
    await store.ledger.flush()
    const file = join(data.dir, 'gatehouse.sqlite')
    expect(statSync(join(data.dir, 'gatehouse.sqlite-wal')).size).toBeGreaterThan(0)
    const before = statSync(file).size
    // Nothing here checkpoints: the store file grows only when the worker copies the WAL's pages into it.
    let after = before
    for (let tries = 0; tries < 40 && after <= before; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 250))
      after = statSync(file).size
    }
    expect(after).toBeGreaterThan(before)
    await store.close()
    data.remove()
  }, 20_000)

  it('is done with the store files when the store closes: the data dir can be removed at once, every time', async () => {
    for (let i = 0; i < 20; i++) {
      const data = tempDataDir()
      const store = createStore(data.dir, () => {})
      store.ledger.enqueue(row(i))
      await store.close()
      expect(() => rmSync(data.dir, { recursive: true })).not.toThrow()
      expect(existsSync(data.dir) ? readdirSync(data.dir) : []).toEqual([])
    }
  }, 60_000)

  it('keeps the WAL bounded under steady commits: past its limit the worker has it start over', async () => {
    // Passive checkpoints alone never end caught up with a writer that commits every few ms: these 600 commits
    // (about 80 KB of pages each) then leave a WAL of 40–50 MB. With a limit of 256 frames (1 MiB) and a
    // checkpoint every 250 ms, the file stays within what a quarter second of commits writes past the limit (about
    // 10 MB here); the bound leaves room for a busy machine's slower worker.
    const data = tempDataDir()
    const db = openDb(data.dir)
    db.pragma('wal_autocheckpoint = 0')
    db.exec('CREATE TABLE w (id INTEGER PRIMARY KEY, v TEXT); CREATE INDEX w_v ON w (v)')
    const checkpointer = startCheckpointer(db.name, () => {}, () => {}, { intervalMs: 250, walLimitFrames: 256 })
    const insert = db.prepare('INSERT INTO w (v) VALUES (?)')
    const wal = join(data.dir, 'gatehouse.sqlite-wal')
    let seed = 1
    const next = () => (seed = (seed * 48271) % 2147483647)
    let largest = 0
    for (let commit = 0; commit < 600; commit++) {
      db.transaction(() => {
        for (let k = 0; k < 10; k++) insert.run(String(next()).repeat(12))
      })()
      largest = Math.max(largest, statSync(wal).size)
      await new Promise((resolve) => setTimeout(resolve, 2))
    }
    checkpointer.stop()
    expect(db.prepare('SELECT count(*) AS n FROM w').get()).toEqual({ n: 6000 })
    db.close()
    data.remove()
    expect(largest).toBeLessThan(30_000_000)
  }, 30_000)

  it('a write asked for while the worker restarts the WAL waits for it without holding the event loop; reads go on meanwhile', async () => {
    const data = tempDataDir()
    const db = openDb(data.dir)
    db.pragma('wal_autocheckpoint = 0')
    db.exec('CREATE TABLE w (id INTEGER PRIMARY KEY, v TEXT)')
    db.prepare('INSERT INTO w (v) VALUES (?)').run('first')
    // A reader on another connection keeps a snapshot of the WAL, and a later commit leaves it behind: a restart takes
    // the writer's lock, then waits for that reader to finish (here for up to 20 s).
    const reader = new Database(db.name)
    reader.exec('BEGIN')
    expect(reader.prepare('SELECT count(*) AS n FROM w').get()).toEqual({ n: 1 })
    db.prepare('INSERT INTO w (v) VALUES (?)').run('second')
    const checkpointer = startCheckpointer(db.name, () => {}, () => {}, { intervalMs: 20, walLimitFrames: 1, restartBusyMs: 20_000 })
    const sql = sqliteSql(db, checkpointer.gate)
    try {
      await until('the worker restarts the WAL', 5_000, () => checkpointer.gate.closed())
      let written = false
      const write = sql.transaction(async (tx) => {
        await tx.run('INSERT INTO w (v) VALUES (?)', ['third'])
        written = true
      })
      // Writes that wait begin in the order asked.
      const next = sql.transaction((tx) => tx.run('INSERT INTO w (v) VALUES (?)', ['fourth']))
      // A read asked for after the writes does not wait for them, and the event loop turns while they wait (held in
      // SQLite's busy wait, it would not get here before the serving connection's own 5 s busy timeout failed them).
      expect(await sql.get('SELECT count(*) AS n FROM w')).toEqual({ n: 2 })
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect([written, checkpointer.gate.closed()]).toEqual([false, true])
      // The reader done, the restart ends and the writes begin.
      reader.exec('COMMIT')
      await Promise.all([write, next])
      expect((await sql.all<{ v: string }>('SELECT v FROM w ORDER BY id')).map((r) => r.v)).toEqual(['first', 'second', 'third', 'fourth'])
      expect(checkpointer.gate.closed()).toBe(false)
    } finally {
      reader.close()
      checkpointer.stop()
      db.close()
      data.remove()
    }
  }, 30_000)
})
