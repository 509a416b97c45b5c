import { createHash } from 'node:crypto'
import type { AdminSessionEntry, SessionTable } from '../access/admin-access.js'
import type { SecretBox } from '../secrets/secrets.js'
import { adminSessionsRepo } from '../store/admin-sessions.js'
import type { Sql } from '../store/sql.js'
import { sameSecret } from './admin-auth.js'
import { newSecret, type SessionLimits } from './session-table.js'

const hashOf = (secret: string): string => createHash('sha256').update(secret).digest('hex')

/**
 * Team mode's admin sessions, in the shared database (store/admin-sessions.ts), so that a browser signed in on one
 * replica is signed in on all, and signing out on one ends the session everywhere. Each use is checked against the
 * database (one read, one write). The limits are the same as in memory: idle timeout, lifetime, at most `max`
 * sessions (opening one more evicts the oldest). `forgotten` hears of the sessions this replica saw end; what it
 * remembers of the others' sessions is when they end (`endsAt`, for its kept-media downloads).
 */
export function databaseSessionTable(sql: Sql, secrets: SecretBox, limits: SessionLimits, now: () => number = Date.now, forgotten: (id: string) => void = () => {}): SessionTable {
  const repo = adminSessionsRepo(sql)
  // The sessions this replica served lately, by cookie id: their times as it last saw them.
  const seen = new Map<string, { createdAt: number; lastUsedAt: number }>()
  const expired = (s: { createdAt: number; lastUsedAt: number }, t: number) => t - s.lastUsedAt >= limits.idleMs || t - s.createdAt >= limits.lifetimeMs
  const forget = (id: string) => {
    if (seen.delete(id)) forgotten(id)
  }
  const remember = (id: string, times: { createdAt: number; lastUsedAt: number }) => {
    seen.delete(id)
    seen.set(id, times)
    // Bounded: the oldest entries go first (a session evicted here is still in the database).
    while (seen.size > limits.max) seen.delete(seen.keys().next().value!)
  }

  return {
    async open(): Promise<AdminSessionEntry> {
      const t = now()
      const session = { id: newSecret(), token: newSecret(), mediaToken: newSecret(), createdAt: t, lastUsedAt: t }
      const gone = await repo.add(
        { id_hash: hashOf(session.id), token_hash: hashOf(session.token), media_sealed: secrets.encrypt(session.mediaToken), created_at: t, last_used_at: t },
        { idleBefore: t - limits.idleMs, openedBefore: t - limits.lifetimeMs },
        limits.max,
      )
      if (gone.length > 0) for (const id of [...seen.keys()]) if (gone.includes(hashOf(id))) forget(id)
      remember(session.id, session)
      return session
    },
    async prove(id, proof) {
      const idHash = hashOf(id)
      const row = await repo.get(idHash)
      const t = now()
      if (row === undefined || expired({ createdAt: Number(row.created_at), lastUsedAt: Number(row.last_used_at) }, t)) {
        if (row !== undefined) await repo.remove(idHash)
        forget(id)
        return undefined
      }
      const mediaToken = secrets.decrypt(row.media_sealed)
      const proven = (proof.token !== undefined && sameSecret(hashOf(proof.token), row.token_hash))
        || (proof.mediaToken !== undefined && sameSecret(proof.mediaToken, mediaToken))
      if (!proven || !(await repo.touch(idHash, t))) return undefined
      const session = { id, token: proof.token ?? '', mediaToken, createdAt: Number(row.created_at), lastUsedAt: t }
      remember(id, session)
      return session
    },
    async close(id) {
      await repo.remove(hashOf(id))
      forget(id)
    },
    endsAt(id) {
      const session = seen.get(id)
      if (session === undefined || expired(session, now())) return void forget(id)
      return Math.min(session.lastUsedAt + limits.idleMs, session.createdAt + limits.lifetimeMs)
    },
    get size() {
      return seen.size
    },
  }
}
