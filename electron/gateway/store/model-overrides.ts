import type { Db } from './db.js'

/** Catalog entries added or overridden by configuration, kept as JSON. */
export function modelOverridesRepo(db: Db) {
  const all = db.prepare('SELECT data FROM model_overrides')
  const upsert = db.prepare('INSERT INTO model_overrides (id, data) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET data = excluded.data')
  return {
    all: () => (all.all() as Array<{ data: string }>).map((r) => JSON.parse(r.data) as Record<string, unknown> & { id: string }),
    upsert: (entry: { id: string; [field: string]: unknown }) => void upsert.run(entry.id, JSON.stringify(entry)),
  }
}
