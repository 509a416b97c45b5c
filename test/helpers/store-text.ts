import type { Sql } from '../../electron/gateway/store/sql.js'

/** The store's tables: from SQLite's catalog, or PostgreSQL's for the connection's schema. */
const TABLES = {
  sqlite: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
  postgres: 'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name',
} as const

/**
 * Every value of every row of every table of a store, as one text (bytes as latin1), read through `store.sql`:
 * what a copy of the database would show, on either engine.
 */
export async function storeText(sql: Sql): Promise<string> {
  const tables = (await sql.all<{ name: string }>(TABLES[sql.dialect])).map((t) => t.name)
  const texts: string[] = []
  for (const table of tables) {
    for (const row of await sql.all<Record<string, unknown>>(`SELECT * FROM "${table}"`)) {
      texts.push(`${table}: ${Object.values(row).map((v) => (Buffer.isBuffer(v) ? v.toString('latin1') : String(v))).join('\t')}`)
    }
  }
  return texts.join('\n')
}
