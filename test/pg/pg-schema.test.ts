import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDb } from '../../electron/gateway/store/db.js'
import { migratePg, PG_MIGRATIONS } from '../../electron/gateway/store/pg-schema.js'
import { createPgPool, pgSql } from '../../electron/gateway/store/pg-sql.js'
import type { Sql } from '../../electron/gateway/store/sql.js'
import { tempDataDir } from '../helpers/gateway.js'
import { freshDatabase } from '../helpers/pg-database.js'

interface SqliteColumn {
  name: string
  type: string
  notnull: number
  dflt_value: string | null
  pk: number
}
interface PgColumn {
  table_name: string
  column_name: string
  data_type: string
  is_nullable: 'YES' | 'NO'
  column_default: string | null
}

/** The SQLite declared type each PostgreSQL type may stand for. */
const COMPATIBLE: Record<string, string[]> = { INTEGER: ['integer', 'bigint'], REAL: ['double precision'], TEXT: ['text'] }

let pool: pg.Pool
let sql: Sql
beforeAll(async () => {
  pool = createPgPool({ url: await freshDatabase(), max: 2, log: () => {} })
  sql = pgSql(pool)
  await migratePg(pool)
})
afterAll(() => pool?.end())

describe('the PostgreSQL schema', () => {
  it('has every table, column, default and index of the migrated SQLite store, with compatible types', async () => {
    const data = tempDataDir()
    const db = openDb(data.dir)
    const pgColumns = await sql.all<PgColumn>(
      `SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns WHERE table_schema = 'public'`,
    )
    const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).pluck().all() as string[]
    expect(tables.length).toBe(15)
    for (const table of tables) {
      const columns = db.pragma(`table_info(${table})`) as SqliteColumn[]
      const mirrored = pgColumns.filter((c) => c.table_name === table)
      expect(mirrored.map((c) => c.column_name).sort(), table).toEqual(columns.map((c) => c.name).sort())
      for (const column of columns) {
        const twin = mirrored.find((c) => c.column_name === column.name)!
        const where = `${table}.${column.name}`
        expect(COMPATIBLE[column.type], where).toContain(twin.data_type)
        expect(twin.is_nullable, where).toBe(column.notnull || column.pk ? 'NO' : 'YES')
        // PostgreSQL spells a default with a cast ('0'::bigint) or parentheses; the value is what counts.
        const pgDefault = twin.column_default?.replace(/::[a-z ]+$/, '').replace(/^\((.*)\)$/, '$1') ?? null
        expect(pgDefault, where).toBe(column.dflt_value)
      }
    }

    // Each SQLite index has its twin: same name, table and columns (in order).
    const sqliteIndexes = db.prepare(`SELECT name, tbl_name AS "table" FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name`).all() as {
      name: string
      table: string
    }[]
    const pgIndexes = await sql.all<{ name: string; table: string; definition: string }>(
      `SELECT indexname AS name, tablename AS "table", indexdef AS definition FROM pg_indexes WHERE schemaname = 'public'`,
    )
    expect(sqliteIndexes.length).toBe(13)
    for (const index of sqliteIndexes) {
      const columns = (db.pragma(`index_info(${index.name})`) as { name: string }[]).map((c) => c.name)
      const twin = pgIndexes.find((i) => i.name === index.name)
      expect(twin, index.name).toMatchObject({ table: index.table })
      expect(twin!.definition, index.name).toContain(`USING btree (${columns.join(', ')})`)
    }

    // The seeded account row is the same on both.
    expect(await sql.get('SELECT * FROM account')).toEqual(db.prepare('SELECT * FROM account').get())
    db.close()
    data.remove()
  })

  it('keeps money flowing one way, as the SQLite triggers do', async () => {
    const request = (id: string, cost: number, upstream: string | null) =>
      sql.run(
        `INSERT INTO requests (id, endpoint, status, upstream_id, cost_nano, latency_ms, created_at) VALUES (?, 'chat.completions', 200, ?, ?, 1.5, ?)`,
        [id, upstream, cost, Date.now()],
      )
    await sql.run(`INSERT INTO upstreams (id, vendor, base_url, api_key_enc) VALUES ('up', 'openai', 'http://127.0.0.1:1', 'x')`)

    await expect(request('neg', -1, 'up')).rejects.toMatchObject({ code: '23514', constraint: 'requests_cost_not_negative' })
    await request('r1', 700, 'up')
    await request('r2', 0, 'up')
    await request('r3', 50, null)
    await request('r4', 300, 'up')
    expect(await sql.get('SELECT spent_nano FROM upstreams')).toEqual({ spent_nano: 1000 })
    await expect(sql.run(`UPDATE requests SET cost_nano = -5 WHERE id = 'r1'`)).rejects.toMatchObject({ code: '23514' })

    const task = (cost: number) =>
      sql.run(
        `INSERT INTO tasks (id, kind, key_id, group_id, model, endpoint, status, cost_nano, created_at, updated_at)
         VALUES (?, 'video', 'k', 'g', 'm', 'videos', 'queued', ?, 1, 1)`,
        [`t${cost}`, cost],
      )
    await expect(task(-1)).rejects.toMatchObject({ code: '23514', constraint: 'tasks_cost_not_negative' })
    await task(10)
    await expect(sql.run(`UPDATE tasks SET cost_nano = -10`)).rejects.toMatchObject({ code: '23514' })

    await sql.run(`INSERT INTO api_keys (id, hash, hint, group_id, used_nano, created_at) VALUES ('k', 'h', 'sk-…', 'g', 100, 1)`)
    await expect(sql.run(`INSERT INTO api_keys (id, hash, hint, group_id, created_at) VALUES ('k2', 'h', 'sk-…', 'g', 1)`)).rejects.toMatchObject({
      code: '23505',
    })
    await sql.run(`UPDATE api_keys SET used_nano = used_nano + 5 WHERE id = 'k'`)
    await expect(sql.run(`UPDATE api_keys SET used_nano = 99 WHERE id = 'k'`)).rejects.toThrow('used_nano must not fall')
    expect(await sql.get('SELECT used_nano FROM api_keys')).toEqual({ used_nano: 105 })
  })

  it('migrates once when four replicas start together on a fresh database', async () => {
    const url = await freshDatabase()
    const pools = [1, 2, 3, 4].map(() => createPgPool({ url, max: 1, log: () => {} }))
    await Promise.all(pools.map((p) => migratePg(p)))
    await migratePg(pools[0])
    const versions = await pgSql(pools[0]).all<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version')
    expect(versions).toEqual(PG_MIGRATIONS.map((_, i) => ({ version: i + 1 })))
    expect(await pgSql(pools[0]).all('SELECT id FROM account')).toEqual([{ id: 1 }])
    await Promise.all(pools.map((p) => p.end()))
  })
})
