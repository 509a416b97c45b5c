import type { Db } from './db.js'

/** The desktop app's saved panel state (conversations, image history, video notes, UI), one JSON document per name. */
export function appStateRepo(db: Db) {
  const get = db.prepare('SELECT value, updated_at FROM app_state WHERE name = ?')
  const put = db.prepare(`INSERT INTO app_state (name, value, updated_at) VALUES (?, ?, ?)
    ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`)
  return {
    get: (name: string) => get.get(name) as { value: string; updated_at: number } | undefined,
    put: (name: string, value: string) => void put.run(name, value, Date.now()),
  }
}
