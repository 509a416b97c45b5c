import type { IncomingMessage } from 'node:http'

/**
 * One admin session. `id` rides in the cookie; `token` is what the page sends in a header; `mediaToken` is what
 * `<img>`/`<video>` URLs carry in the query (they cannot send headers), and opens nothing but kept media.
 */
export interface AdminSessionEntry {
  id: string
  token: string
  mediaToken: string
  createdAt: number
  lastUsedAt: number
}

/**
 * Where sessions live: this process's memory (admin/admin-auth.ts), or in team mode the shared database
 * (admin/db-session-table.ts), so that any replica serves a browser signed in on another.
 */
export interface SessionTable {
  open(): Promise<AdminSessionEntry>
  /**
   * The live session whose cookie id is `id`, when `proof` proves it (its header token, or its media token where
   * allowed); counts as a use. Undefined: unknown, ended, or not proven.
   */
  prove(id: string, proof: { token?: string; mediaToken?: string }): Promise<AdminSessionEntry | undefined>
  close(id: string): Promise<void>
  /** When the session expires unless used again (ms), as this process last saw it; undefined: it has ended. */
  endsAt(id: string): number | undefined
  readonly size: number
}

/**
 * Who may use the admin API: what the server and the admin routes ask of it. Kept apart from its implementation
 * (admin/admin-auth.ts), so that the services every route gets do not depend on the admin API.
 */
export interface AdminAuth {
  /** the admin token of this run (the desktop window gets it from the preload) */
  readonly token: string
  /** the live sessions (in team mode: those this replica served) */
  readonly sessions: { readonly size: number }
  /** A new session (for the admin token's holder, or a sign-in code just spent: admin/login-codes.ts). */
  openSession(): Promise<AdminSessionEntry>
  /** The request carries the admin token. */
  hasToken(req: IncomingMessage): boolean
  /** The signed-in session of the request (`media`: its media token in the query also proves it). Counts as a use. */
  session(req: IncomingMessage, media?: boolean): Promise<AdminSessionEntry | undefined>
  /** Signed in: the admin token, or a session proven as `session()` says. */
  allows(req: IncomingMessage, media?: boolean): Promise<boolean>
  /** Forgets the request's session (logout). */
  close(req: IncomingMessage): Promise<void>
  /** When the session expires unless used again (ms since the epoch); undefined: it has ended. */
  sessionEndsAt(id: string): number | undefined
  /** The Set-Cookie value for a session. */
  cookie(session: AdminSessionEntry): string
  /** The Set-Cookie value that makes the browser drop the cookie. */
  readonly clearedCookie: string
}
