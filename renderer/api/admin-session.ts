/**
 * The page's side of an admin session, free of DOM and React: where the session token is kept, which requests
 * carry it, and how kept-media URLs carry the media token. The HttpOnly cookie alone opens nothing (another
 * service on another port of this host receives it too), so every admin call also sends the session token.
 */
import { ADMIN_PREFIX, ADMIN_SESSION_HEADER, MEDIA_TOKEN_PARAM, SESSION_FRAGMENT } from '../../shared/admin'
import { ApiError } from './http'

/** The sessionStorage key of the session token: sessionStorage is per origin (so per gateway port) and per tab. */
export const SESSION_TOKEN_KEY = 'gatehouse.session'

/** What the token is kept in: `sessionStorage` in the page, a Map in tests. */
export interface TokenStorage {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

/**
 * The session token the one-time login address put in the fragment (`#session=…`), and the fragment without it,
 * which is what the address bar keeps.
 */
export function tokenFromFragment(hash: string): { token?: string; rest: string } {
  const params = new URLSearchParams(hash.replace(/^#/, ''))
  const token = params.get(SESSION_FRAGMENT) ?? undefined
  if (token === undefined) return { rest: hash }
  params.delete(SESSION_FRAGMENT)
  const rest = params.toString()
  return { token: token || undefined, rest: rest ? `#${rest}` : '' }
}

/** True for the gateway's own admin paths: only those ever get the session token (never another host or a vendor link). */
export const isAdminPath = (url: string): boolean => url.startsWith(`${ADMIN_PREFIX}/`)

/** `init` with the session header added, for an admin path and when there is a token; otherwise unchanged. */
export function withSessionHeader(url: string, init: RequestInit, token: string | undefined): RequestInit {
  if (!token || !isAdminPath(url)) return init
  const headers = new Headers(init.headers)
  headers.set(ADMIN_SESSION_HEADER, token)
  return { ...init, headers }
}

/**
 * A kept-media URL (`/admin/v1/media/{id}`) with the session's media token in the query, so `<img>` and
 * `<video>`, which cannot send headers, load it; any other URL unchanged. Saved state keeps the bare URL.
 */
export function withMediaToken(url: string, mediaToken: string | null | undefined): string {
  if (!mediaToken || !url.startsWith(`${ADMIN_PREFIX}/media/`)) return url
  return `${url}${url.includes('?') ? '&' : '?'}${MEDIA_TOKEN_PARAM}=${encodeURIComponent(mediaToken)}`
}

/** The admin API's 401: the session ended (idle, too old, signed out, or the gateway restarted). */
export const isSessionEnded = (err: unknown): boolean => err instanceof ApiError && err.status === 401

/** The session token (kept in `storage`, or in memory without one) and the media token (in memory: the gateway repeats it). */
export function createSessionTokens(storage: TokenStorage | undefined) {
  let memory: string | undefined
  let mediaToken: string | null = null
  return {
    token: (): string | undefined => (storage ? (storage.getItem(SESSION_TOKEN_KEY) ?? undefined) : memory),
    save(token: string): void {
      if (storage) storage.setItem(SESSION_TOKEN_KEY, token)
      else memory = token
    },
    mediaToken: () => mediaToken,
    setMediaToken(token: string | null): void {
      mediaToken = token
    },
    clear(): void {
      storage?.removeItem(SESSION_TOKEN_KEY)
      memory = undefined
      mediaToken = null
    },
  }
}
