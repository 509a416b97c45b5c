import type { Sql } from './sql.js'

/**
 * An admin session as team mode's database keeps it (`admin_sessions`, PostgreSQL only): the hashes of its cookie id
 * and of its header token, its media token sealed (the page asks for it again on any replica), and its times (ms).
 * A copy of the database opens no session.
 */
export interface AdminSessionRow {
  id_hash: string
  token_hash: string
  media_sealed: string
  created_at: number
  last_used_at: number
}

/** Team mode's admin sessions, shared by every replica (admin/db-session-table.ts). */
export function adminSessionsRepo(sql: Sql) {
  return {
    /** Keeps a new session: the ended ones go first, then the oldest while more than `max - 1` are left. */
    async add(row: AdminSessionRow, ended: { idleBefore: number; openedBefore: number }, max: number): Promise<string[]> {
      return sql.transaction(async (tx) => {
        const gone = await tx.all<{ id_hash: string }>(
          `DELETE FROM admin_sessions WHERE last_used_at <= ? OR created_at <= ?
             OR id_hash IN (SELECT id_hash FROM admin_sessions ORDER BY created_at DESC, id_hash OFFSET ?)
           RETURNING id_hash`,
          [ended.idleBefore, ended.openedBefore, Math.max(0, max - 1)],
        )
        await tx.run(
          'INSERT INTO admin_sessions (id_hash, token_hash, media_sealed, created_at, last_used_at) VALUES (?, ?, ?, ?, ?)',
          [row.id_hash, row.token_hash, row.media_sealed, row.created_at, row.last_used_at],
        )
        return gone.map((g) => g.id_hash)
      })
    },
    get: (idHash: string) => sql.get<AdminSessionRow>('SELECT * FROM admin_sessions WHERE id_hash = ?', [idHash]),
    /** Records a use; false when the session is gone (signed out on another replica, or ended). */
    async touch(idHash: string, at: number): Promise<boolean> {
      return (await sql.run('UPDATE admin_sessions SET last_used_at = GREATEST(last_used_at, ?) WHERE id_hash = ?', [at, idHash])).changes > 0
    },
    async remove(idHash: string): Promise<void> {
      await sql.run('DELETE FROM admin_sessions WHERE id_hash = ?', [idHash])
    },
  }
}
