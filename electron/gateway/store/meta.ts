import type { Sql } from './sql.js'

/** Named values of the install (the sealed key-hashing secret). */
export function metaRepo(sql: Sql) {
  const get = async (name: string) => (await sql.get<{ value: string }>('SELECT value FROM meta WHERE name = ?', [name]))?.value
  return {
    get,
    /** The stored value, or `make()` stored first; two processes starting at once agree on one value. */
    async ensure(name: string, make: () => string): Promise<string> {
      if ((await get(name)) === undefined) await sql.run('INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT DO NOTHING', [name, make()])
      return (await get(name))!
    },
  }
}
