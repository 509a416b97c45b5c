import type { Sql } from './sql.js'

/** The desktop app's saved panel state (conversations, image history, video notes, UI), one JSON document per name. */
export function appStateRepo(sql: Sql) {
  return {
    get: (name: string) => sql.get<{ value: string; updated_at: number }>('SELECT value, updated_at FROM app_state WHERE name = ?', [name]),
    put: async (name: string, value: string) =>
      void (await sql.run(
        `INSERT INTO app_state (name, value, updated_at) VALUES (?, ?, ?)
          ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
        [name, value, Date.now()],
      )),
  }
}
