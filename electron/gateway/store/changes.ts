import { notifyChanges } from './pg-notify.js'
import type { Sql } from './sql.js'

/** Tells the other replicas of a shared database that configuration changed (team mode); nothing to tell on SQLite. */
export function changesRepo(sql: Sql) {
  return {
    /** Within a transaction, sent at its commit (and not at all when it rolls back). */
    announce: async (topic?: string): Promise<void> => {
      if (sql.dialect === 'postgres') await notifyChanges(sql, topic)
    },
  }
}
