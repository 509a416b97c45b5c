import type { GroupProtocol } from '../../../shared/types.js'
import type { Db } from './db.js'

/** What a group allows beyond its model list (spec §4.2's group-specific image limits). */
export interface GroupOptions {
  /** the group generates one image per request: n > 1 answers 400 */
  singleImage?: boolean
  /** the Gemini official-direct group: no edits endpoint, reference images at most 20 MiB decoded */
  officialDirect?: boolean
}

export interface GroupRecord {
  id: string
  name: string | null
  protocol: GroupProtocol
  models: string[]
  upstreams: string[]
  options: GroupOptions
}

/** Groups: a fixed model list, one protocol and upstream accounts in failover order. */
export function groupsRepo(db: Db) {
  const all = db.prepare('SELECT * FROM groups ORDER BY rowid')
  const remove = db.prepare('DELETE FROM groups WHERE id = ?')
  const upsert = db.prepare(`
    INSERT INTO groups (id, name, protocol, models, upstreams, options) VALUES (@id, @name, @protocol, @models, @upstreams, @options)
    ON CONFLICT (id) DO UPDATE SET name = excluded.name, protocol = excluded.protocol,
      models = excluded.models, upstreams = excluded.upstreams, options = excluded.options`)
  return {
    all: (): GroupRecord[] =>
      (all.all() as Array<Record<string, string>>).map((r) => ({
        id: r.id,
        name: r.name,
        protocol: r.protocol as GroupProtocol,
        models: JSON.parse(r.models) as string[],
        upstreams: JSON.parse(r.upstreams) as string[],
        options: r.options ? (JSON.parse(r.options) as GroupOptions) : {},
      })),
    upsert: (g: GroupRecord) =>
      void upsert.run({ ...g, models: JSON.stringify(g.models), upstreams: JSON.stringify(g.upstreams), options: JSON.stringify(g.options) }),
    remove: (id: string) => remove.run(id).changes > 0,
  }
}
