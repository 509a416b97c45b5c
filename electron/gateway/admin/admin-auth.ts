import { randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { ADMIN_COOKIE } from '../../../shared/admin.js'

const secret = () => randomBytes(32).toString('base64url')

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

export type AdminAuth = ReturnType<typeof createAdminAuth>

/**
 * Who may use the admin API. Secrets live in memory only and change at every start:
 * - the admin token, handed to the desktop window by the preload (sent as `Authorization: Bearer`);
 * - one-time login codes, printed by the headless gateway as a URL and spent on first use;
 * - sessions, the HttpOnly SameSite=Strict cookie either of the two is exchanged for.
 */
export function createAdminAuth() {
  const token = secret()
  const codes = new Set<string>()
  const sessions = new Set<string>()
  const bearerOf = (req: IncomingMessage) => /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1]

  return {
    token,
    /** A new one-time login code. */
    newLoginCode(): string {
      const code = secret()
      codes.add(code)
      return code
    },
    /** Spends a login code; a new session id when it was valid. */
    redeem(code: string): string | undefined {
      for (const known of codes) {
        if (sameSecret(known, code)) {
          codes.delete(known)
          return this.openSession()
        }
      }
      return undefined
    },
    openSession(): string {
      const session = secret()
      sessions.add(session)
      return session
    },
    hasToken: (req: IncomingMessage): boolean => {
      const bearer = bearerOf(req)
      return bearer !== undefined && sameSecret(bearer, token)
    },
    /** Signed in: a live session cookie, or the admin token. */
    allows(req: IncomingMessage): boolean {
      const session = cookieOf(req, ADMIN_COOKIE)
      if (session !== undefined && sessions.has(session)) return true
      return this.hasToken(req)
    },
    /** The Set-Cookie value for a session (no Max-Age: it ends with the browser session, and with the gateway). */
    cookie: (session: string) => `${ADMIN_COOKIE}=${session}; Path=/; HttpOnly; SameSite=Strict`,
  }
}
