import { timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { ADMIN_COOKIE, ADMIN_SESSION_HEADER, MEDIA_TOKEN_PARAM } from '../../../shared/admin.js'
import type { AdminAuth, AdminSessionEntry } from '../access/admin-access.js'
import { createSessionTable, DEFAULT_SESSION_LIMITS, newSecret, type SessionLimits } from './session-table.js'

/** Equal secrets, compared in constant time (for equal lengths; a length says nothing about a random secret). */
function sameSecret(a: string, b: string): boolean {
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

/**
 * Who may use the admin API. Secrets live in memory only and change at every start:
 * - the admin token, handed to the desktop window by the preload (sent as `Authorization: Bearer`);
 * - sessions: an HttpOnly SameSite=Strict cookie plus a token the page sends in `x-gatehouse-session`, opened for
 *   the admin token or a spent sign-in code (codes live in the store, so another process can issue one: login-codes.ts).
 * Cookies are not port-scoped, so any other local service the browser visits receives the cookie: the cookie
 * alone opens nothing, and the session token is never sent to anyone who holds only the cookie.
 */
export function createAdminAuth(limits: SessionLimits = DEFAULT_SESSION_LIMITS, now?: () => number, sessionEnded?: (id: string) => void): AdminAuth {
  const token = newSecret()
  // `sessionEnded` hears of every session that ends (signed out, expired, evicted): its downloads end with it.
  const sessions = createSessionTable(limits, now, sessionEnded)
  const bearerOf = (req: IncomingMessage) => /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1]
  const sessionOf = (req: IncomingMessage) => {
    const id = cookieOf(req, ADMIN_COOKIE)
    return id === undefined ? undefined : sessions.find(id)
  }
  const presents = (secret: string | string[] | undefined, expected: string) => typeof secret === 'string' && sameSecret(secret, expected)

  return {
    token,
    sessions,
    openSession: (): AdminSessionEntry => sessions.open(),
    hasToken(req: IncomingMessage): boolean {
      const bearer = bearerOf(req)
      return bearer !== undefined && sameSecret(bearer, token)
    },
    /**
     * The signed-in session: a live cookie together with its token in the header, or, where `media` allows it
     * (the kept-media route, for `<img>`/`<video>`), together with its media token in the query. Counts as a use.
     */
    session(req: IncomingMessage, media = false): AdminSessionEntry | undefined {
      const session = sessionOf(req)
      if (!session) return undefined
      const proven = presents(req.headers[ADMIN_SESSION_HEADER], session.token) || (media && presents(mediaTokenOf(req), session.mediaToken))
      if (!proven) return undefined
      sessions.touch(session)
      return session
    },
    /** Signed in: the admin token, or a session proven as `session()` says. */
    allows(req: IncomingMessage, media = false): boolean {
      return this.hasToken(req) || this.session(req, media) !== undefined
    },
    /** Forgets the request's session (logout). */
    close(req: IncomingMessage): void {
      const id = cookieOf(req, ADMIN_COOKIE)
      if (id !== undefined) sessions.close(id)
    },
    /** When the session expires unless used again (ms since the epoch); undefined: it has ended. */
    sessionEndsAt: (id: string): number | undefined => sessions.endsAt(id),
    /** The Set-Cookie value for a session (no Max-Age: it ends with the browser session, the gateway, or its own expiry). */
    cookie: (session: AdminSessionEntry) => `${ADMIN_COOKIE}=${session.id}; Path=/; HttpOnly; SameSite=Strict`,
    /** The Set-Cookie value that makes the browser drop the cookie. */
    clearedCookie: `${ADMIN_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`,
  }
}
