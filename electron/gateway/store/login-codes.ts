import type { Sql } from './sql.js'

/** Sign-in codes, kept as their hashes until spent or expired (`expiresAt`: ms since the epoch). */
export function loginCodesRepo(sql: Sql) {
  return {
    /** Keeps a new code's hash; the codes that expired by `now` are forgotten first. */
    async add(hash: string, expiresAt: number, now: number): Promise<void> {
      await sql.run('DELETE FROM login_codes WHERE expires_at <= ?', [now])
      await sql.run('INSERT INTO login_codes (hash, expires_at) VALUES (?, ?)', [hash, expiresAt])
    },
    /**
     * Removes the code and answers when it was to expire; undefined when there is no such code (never issued, or
     * spent already). One statement: of two processes spending one code at once, only one gets its row.
     */
    async take(hash: string): Promise<number | undefined> {
      return (await sql.get<{ expires_at: number }>('DELETE FROM login_codes WHERE hash = ? RETURNING expires_at', [hash]))?.expires_at
    },
  }
}
