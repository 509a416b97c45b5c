import { randomBytes } from 'node:crypto'
import type { AdminSessionEntry } from '../access/admin-access.js'

/** A session ends after this long without an admin call. */
export const SESSION_IDLE_MS = 30 * 60_000
/** A session ends this long after it was opened, however busy. */
export const SESSION_LIFETIME_MS = 12 * 60 * 60_000
/** Live sessions at most; opening one more evicts the oldest. */
export const MAX_SESSIONS = 32

export interface SessionLimits {
  idleMs: number
  lifetimeMs: number
  max: number
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = { idleMs: SESSION_IDLE_MS, lifetimeMs: SESSION_LIFETIME_MS, max: MAX_SESSIONS }

/** A random secret of 256 bits, URL-safe. */
export const newSecret = () => randomBytes(32).toString('base64url')

/**
 * The live sessions, in opening order, forgetting the expired ones as it meets them. `now` is injectable for tests.
 * `forgotten` hears of every session that ends (signed out, expired, evicted), so what it still runs can end too.
 */
export function createSessionTable(limits: SessionLimits, now: () => number = Date.now, forgotten: (id: string) => void = () => {}) {
  const sessions = new Map<string, AdminSessionEntry>()
  const expired = (s: AdminSessionEntry, t: number) => t - s.lastUsedAt >= limits.idleMs || t - s.createdAt >= limits.lifetimeMs
  const forget = (id: string) => {
    if (sessions.delete(id)) forgotten(id)
  }

  function sweep(t: number): void {
    for (const [id, s] of sessions) if (expired(s, t)) forget(id)
  }

  return {
    /** A new session; the oldest live one goes when the table is full. */
    open(): AdminSessionEntry {
      const t = now()
      sweep(t)
      // A Map iterates in insertion order: the first entry is the oldest session.
      while (sessions.size >= limits.max) forget(sessions.keys().next().value!)
      const session = { id: newSecret(), token: newSecret(), mediaToken: newSecret(), createdAt: t, lastUsedAt: t }
      sessions.set(session.id, session)
      return session
    },
    /** The live session with this cookie id (an expired one is forgotten here). */
    find(id: string): AdminSessionEntry | undefined {
      const session = sessions.get(id)
      if (session && expired(session, now())) {
        forget(id)
        return undefined
      }
      return session
    },
    /** When the live session with this id expires unless used again (ms); undefined: it has ended. */
    endsAt(id: string): number | undefined {
      const session = sessions.get(id)
      if (session === undefined || expired(session, now())) return void forget(id)
      return Math.min(session.lastUsedAt + limits.idleMs, session.createdAt + limits.lifetimeMs)
    },
    /** Records a use: the idle timeout starts again. */
    touch(session: AdminSessionEntry): void {
      session.lastUsedAt = now()
    },
    close(id: string): void {
      forget(id)
    },
    get size(): number {
      return sessions.size
    },
  }
}
