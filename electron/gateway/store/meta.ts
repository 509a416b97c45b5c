import type { Db } from './db.js'

/** Named values of the install (the sealed key-hashing secret). */
export function metaRepo(db: Db) {
  const get = db.prepare('SELECT value FROM meta WHERE name = ?')
  const insert = db.prepare('INSERT OR IGNORE INTO meta (name, value) VALUES (?, ?)')
  return {
    get: (name: string) => (get.get(name) as { value: string } | undefined)?.value,
    /** The stored value, or `make()` stored first; two processes starting at once agree on one value. */
    ensure(name: string, make: () => string): string {
      if (get.get(name) === undefined) insert.run(name, make())
      return (get.get(name) as { value: string }).value
    },
  }
}
