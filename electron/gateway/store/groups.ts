import type { GroupProtocol } from '../../../shared/types.js'
import type { GroupOptions } from '../contract/accounts.js'
import type { Sql } from './sql.js'

export interface GroupRecord {
  id: string
  name: string | null
  protocol: GroupProtocol
  models: string[]
  upstreams: string[]
  options: GroupOptions
}

/** A new row is numbered after the others (`seq`: the order groups were added in). */
const UPSERT = `
  INSERT INTO groups (id, name, protocol, models, upstreams, options, seq)
  VALUES (@id, @name, @protocol, @models, @upstreams, @options, (SELECT COALESCE(MAX(seq), 0) + 1 FROM groups))
  ON CONFLICT (id) DO UPDATE SET name = excluded.name, protocol = excluded.protocol,
    models = excluded.models, upstreams = excluded.upstreams, options = excluded.options`

/** Groups: a fixed model list, one protocol and upstream accounts in failover order. */
export function groupsRepo(sql: Sql) {
  return {
    all: async (): Promise<GroupRecord[]> =>
      (await sql.all<Record<string, string>>('SELECT id, name, protocol, models, upstreams, options FROM groups ORDER BY seq, id')).map((r) => ({
        id: r.id,
        name: r.name,
        protocol: r.protocol as GroupProtocol,
        models: JSON.parse(r.models) as string[],
        upstreams: JSON.parse(r.upstreams) as string[],
        options: r.options ? (JSON.parse(r.options) as GroupOptions) : {},
      })),
    /** True in a store that was just created: groups are seeded at the first start, and one always remains after. */
    isEmpty: async () => (await sql.get('SELECT 1 AS one FROM groups LIMIT 1')) === undefined,
    upsert: async (g: GroupRecord) =>
      void (await sql.run(UPSERT, { ...g, models: JSON.stringify(g.models), upstreams: JSON.stringify(g.upstreams), options: JSON.stringify(g.options) })),
    remove: async (id: string) => (await sql.run('DELETE FROM groups WHERE id = ?', [id])).changes > 0,
  }
}
