import type { Sql } from './sql.js'

/** Catalog entries added or overridden by configuration, kept as JSON. */
export function modelOverridesRepo(sql: Sql) {
  return {
    all: async () =>
      (await sql.all<{ data: string }>('SELECT data FROM model_overrides')).map((r) => JSON.parse(r.data) as Record<string, unknown> & { id: string }),
    upsert: async (entry: { id: string; [field: string]: unknown }) =>
      void (await sql.run('INSERT INTO model_overrides (id, data) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET data = excluded.data', [entry.id, JSON.stringify(entry)])),
  }
}
