import type { GroupProtocol } from '../../../shared/types.js'
import type { Db } from './db.js'

export interface GroupRecord {
  id: string
  name: string | null
  protocol: GroupProtocol
  models: string[]
  upstreams: string[]
}

/** Groups: a fixed model list, one protocol and upstream accounts in failover order. */
export function groupsRepo(db: Db) {
  const all = db.prepare('SELECT * FROM groups')
  const upsert = db.prepare(`
    INSERT INTO groups (id, name, protocol, models, upstreams) VALUES (@id, @name, @protocol, @models, @upstreams)
    ON CONFLICT (id) DO UPDATE SET name = excluded.name, protocol = excluded.protocol,
      models = excluded.models, upstreams = excluded.upstreams`)
  return {
    all: (): GroupRecord[] =>
      (all.all() as Array<Record<string, string>>).map((r) => ({
        id: r.id,
        name: r.name,
        protocol: r.protocol as GroupProtocol,
        models: JSON.parse(r.models) as string[],
        upstreams: JSON.parse(r.upstreams) as string[],
      })),
    upsert: (g: GroupRecord) =>
      void upsert.run({ ...g, models: JSON.stringify(g.models), upstreams: JSON.stringify(g.upstreams) }),
  }
}
