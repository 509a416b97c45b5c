import { timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { ADMIN_COOKIE, ADMIN_SESSION_HEADER, MEDIA_TOKEN_PARAM } from '../../../shared/admin.js'
import type { AdminAuth, AdminSessionEntry, SessionTable } from '../access/admin-access.js'
import { createSessionTable, DEFAULT_SESSION_LIMITS, newSecret, type SessionLimits } from './session-table.js'

/** Equal secrets, compared in constant time (for equal lengths; a length says nothing about a random secret). */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

function cookieOf(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie
  if (!header) return undefined
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim()
  }
  return undefined
}

const mediaTokenOf = (req: IncomingMessage) => new URLSearchParams((req.url ?? '').split('?')[1] ?? '').get(MEDIA_TOKEN_PARAM) ?? undefined

/** The sessions of one process, in its memory (session-table.ts). */
export function memorySessionTable(limits: SessionLimits = DEFAULT_SESSION_LIMITS, now?: () => number, sessionEnded?: (id: string) => void): SessionTable {
  const table = createSessionTable(limits, now, sessionEnded)
  const presents = (secret: string | undefined, expected: string) => secret !== undefined && sameSecret(secret, expected)
  return {
    open: async () => table.open(),
    async prove(id, proof) {
      const session = table.find(id)
      if (!session || !(presents(proof.token, session.token) || presents(proof.mediaToken, session.mediaToken))) return undefined
      table.touch(session)
      return session
    },
    close: async (id) => table.close(id),
    endsAt: (id) => table.endsAt(id),
    get size() {
      return table.size
    },
  }
}

/**
 * Who may use the admin API. The admin token lives in memory only and changes at every start:
 * - the admin token, handed to the desktop window by the preload (sent as `Authorization: Bearer`);
 * - sessions: an HttpOnly SameSite=Strict cookie plus a token the page sends in `x-gatehouse-session`, opened for
 *   the admin token or a spent sign-in code (codes live in the store, so another process can issue one: login-codes.ts).
 *   They live in this process's memory, or in team mode in the shared database (`sessions`: db-session-table.ts).
 * Cookies are not port-scoped, so any other local service the browser visits receives the cookie: the cookie
 * alone opens nothing, and the session token is never sent to anyone who holds only the cookie.
 */
export function createAdminAuth(limits: SessionLimits = DEFAULT_SESSION_LIMITS, now?: () => number, sessionEnded?: (id: string) => void, table?: SessionTable): AdminAuth {
  const token = newSecret()
  // `sessionEnded` hears of every session that ends (signed out, expired, evicted): its downloads end with it.
  const sessions = table ?? memorySessionTable(limits, now, sessionEnded)
  const bearerOf = (req: IncomingMessage) => /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1]
  const hasToken = (req: IncomingMessage): boolean => {
    const bearer = bearerOf(req)
    return bearer !== undefined && sameSecret(bearer, token)
  }
  /**
   * The signed-in session: a live cookie together with its token in the header, or, where `media` allows it
   * (the kept-media route, for `<img>`/`<video>`), together with its media token in the query. Counts as a use.
   */
  const session = async (req: IncomingMessage, media = false): Promise<AdminSessionEntry | undefined> => {
    const id = cookieOf(req, ADMIN_COOKIE)
    if (id === undefined) return undefined
    const header = req.headers[ADMIN_SESSION_HEADER]
    const proof = { token: typeof header === 'string' ? header : undefined, mediaToken: media ? mediaTokenOf(req) : undefined }
    if (proof.token === undefined && proof.mediaToken === undefined) return undefined
    return sessions.prove(id, proof)
  }

  return {
    token,
    sessions,
    openSession: () => sessions.open(),
    hasToken,
    session,
    /** Signed in: the admin token, or a session proven as `session()` says. */
    async allows(req: IncomingMessage, media = false): Promise<boolean> {
      return hasToken(req) || (await session(req, media)) !== undefined
    },
    /** Forgets the request's session (logout). */
    async close(req: IncomingMessage): Promise<void> {
      const id = cookieOf(req, ADMIN_COOKIE)
      if (id !== undefined) await sessions.close(id)
    },
    /** When the session expires unless used again (ms since the epoch); undefined: it has ended. */
    sessionEndsAt: (id: string): number | undefined => sessions.endsAt(id),
    /** The Set-Cookie value for a session (no Max-Age: it ends with the browser session, the gateway, or its own expiry). */
    cookie: (session: AdminSessionEntry) => `${ADMIN_COOKIE}=${session.id}; Path=/; HttpOnly; SameSite=Strict`,
    /** The Set-Cookie value that makes the browser drop the cookie. */
    clearedCookie: `${ADMIN_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`,
  }
}
