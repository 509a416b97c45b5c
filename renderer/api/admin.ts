import type {
  AccountSummary, AdminSession, CreatedKey, GroupSummary, KeySummary, MediaItem, OpenedAdminSession, RequestLogPage, Settings,
  StateName, TaskSummary, UpstreamSummary, UpstreamTestResult, UsageSummary,
} from '../../shared/admin'
import { ADMIN_PREFIX } from '../../shared/admin'
import type { KeptCopy } from '../../shared/kept-copy'
import type { Vendor } from '../../shared/types'
import { createSessionTokens, isSessionEnded, tokenFromFragment, withMediaToken, withSessionHeader, type TokenStorage } from './admin-session'
import { ApiError, jsonBody, jsonOf, request, requestJson } from './http'

const url = (path: string, query?: Record<string, string | number | undefined>) => {
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== '') params.set(k, String(v))
  const qs = params.toString()
  return `${ADMIN_PREFIX}${path}${qs ? `?${qs}` : ''}`
}

/** The tab's sessionStorage; none outside a page (unit tests) or where the browser refuses it. */
function pageStorage(): TokenStorage | undefined {
  try {
    return globalThis.sessionStorage ?? undefined
  } catch {
    return undefined
  }
}

const tokens = createSessionTokens(pageStorage())
const endedListeners = new Set<() => void>()

/** Calls `listener` when the admin API answers 401 (the session ended); returns the unsubscribe. */
export function onSessionEnded(listener: () => void): () => void {
  endedListeners.add(listener)
  return () => void endedListeners.delete(listener)
}

function sessionEnded(): void {
  tokens.clear()
  for (const listener of endedListeners) listener()
}

/** A request to an admin path with the session header; a 401 ends the session (the app shows the sign-in state). */
export async function adminRequest(path: string, init: RequestInit = {}): Promise<Response> {
  try {
    return await request(path, withSessionHeader(path, init, tokens.token()))
  } catch (err) {
    if (isSessionEnded(err)) sessionEnded()
    throw err
  }
}

const adminJson = async <T>(path: string, init: RequestInit = {}): Promise<T> => jsonOf<T>(await adminRequest(path, init))

/** A kept-media URL as `<img>`/`<video>`/download links use it: with the session's media token. */
export const mediaSrc = (mediaUrl: string): string => withMediaToken(mediaUrl, tokens.mediaToken())

/** Moves a session token from the address bar's fragment (the login redirect) into sessionStorage, and clears it there. */
function takeTokenFromAddress(): void {
  const { token, rest } = tokenFromFragment(window.location.hash)
  if (token === undefined && rest === window.location.hash) return
  if (token) tokens.save(token)
  window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}${rest}`)
}

/** The session the saved token proves, or undefined when it has none or it ended. */
async function resumeSession(): Promise<AdminSession | undefined> {
  if (!tokens.token()) return undefined
  try {
    return await requestJson<AdminSession>(url('/session'), withSessionHeader(url('/session'), {}, tokens.token()))
  } catch (err) {
    if (!isSessionEnded(err)) throw err
    tokens.clear()
    return undefined
  }
}

/** Inside the desktop window: trades the preload's admin token for a session (the cookie, and the token in the body). */
async function openDesktopSession(): Promise<AdminSession | undefined> {
  if (!window.api) return undefined
  const { adminToken } = await window.api.getSession()
  try {
    const { sessionToken, ...session } = await requestJson<OpenedAdminSession>(url('/session'), { method: 'POST', headers: { authorization: `Bearer ${adminToken}` } })
    tokens.save(sessionToken)
    return session
  } catch (err) {
    if (isSessionEnded(err)) return undefined
    throw err
  }
}

/**
 * Signs in: with the token the login address put in the fragment or the tab kept, else (desktop window) by
 * trading the preload's admin token. Returns undefined when not signed in.
 */
export async function signIn(): Promise<AdminSession | undefined> {
  takeTokenFromAddress()
  const session = (await resumeSession()) ?? (await openDesktopSession())
  tokens.setMediaToken(session?.mediaToken ?? null)
  return session
}

/** Signs out: the gateway forgets the session and clears the cookie. */
export async function signOut(): Promise<void> {
  try {
    await adminRequest(url('/session'), { method: 'DELETE' })
  } finally {
    sessionEnded()
  }
}

/** The admin API, one function per operation (shared/admin.ts lists the routes). */
export const admin = {
  groups: () => adminJson<GroupSummary[]>(url('/groups')),
  createGroup: (body: object) => adminJson<GroupSummary>(url('/groups'), jsonBody('POST', body)),
  updateGroup: (id: string, body: object) => adminJson<GroupSummary>(url(`/groups/${encodeURIComponent(id)}`), jsonBody('PATCH', body)),
  deleteGroup: (id: string) => adminJson<void>(url(`/groups/${encodeURIComponent(id)}`), { method: 'DELETE' }),
  appKey: (group: string) => adminJson<{ key: string }>(url(`/groups/${encodeURIComponent(group)}/app-key`), { method: 'POST' }),
  upstreams: () => adminJson<UpstreamSummary[]>(url('/upstreams')),
  createUpstream: (body: object) => adminJson<UpstreamSummary>(url('/upstreams'), jsonBody('POST', body)),
  updateUpstream: (id: string, body: object) => adminJson<UpstreamSummary>(url(`/upstreams/${encodeURIComponent(id)}`), jsonBody('PATCH', body)),
  deleteUpstream: (id: string) => adminJson<void>(url(`/upstreams/${encodeURIComponent(id)}`), { method: 'DELETE' }),
  /** Test connection: the vendor's model list for an account given whole, or stored (`{id}`). */
  testUpstream: (body: { vendor: Vendor; baseUrl: string; apiKey: string } | { id: string }) => adminJson<UpstreamTestResult>(url('/upstreams/test'), jsonBody('POST', body)),
  keys: (group?: string) => adminJson<KeySummary[]>(url('/keys', { group })),
  createKey: (body: object) => adminJson<CreatedKey>(url('/keys'), jsonBody('POST', body)),
  updateKey: (id: string, body: object) => adminJson<KeySummary>(url(`/keys/${encodeURIComponent(id)}`), jsonBody('PATCH', body)),
  revokeKey: (id: string) => adminJson<void>(url(`/keys/${encodeURIComponent(id)}`), { method: 'DELETE' }),
  account: () => adminJson<AccountSummary>(url('/account')),
  updateAccount: (body: { budget?: number | null; balance?: number; concurrency?: number }) => adminJson<AccountSummary>(url('/account'), jsonBody('PATCH', body)),
  requests: (query: Record<string, string | number | undefined>) => adminJson<RequestLogPage>(url('/requests', query)),
  usageSummary: (query: Record<string, string>) => adminJson<UsageSummary>(url('/usage/summary', query)),
  tasks: (kind: 'image' | 'video', limit = 100) => adminJson<TaskSummary[]>(url('/tasks', { kind, limit })),
  /** forgets a finished task and what was kept for it (409 while it runs) */
  deleteTask: (id: string) => adminJson<void>(url(`/tasks/${encodeURIComponent(id)}`), { method: 'DELETE' }),
  media: (requestId: string) => adminJson<MediaItem[]>(url('/media', { request: requestId })),
  /** the gateway's copies of a request's (or video task's) linked results, each in one state (shared/kept-copy.ts) */
  copies: (requestId: string) => adminJson<KeptCopy[]>(url('/media-copies', { request: requestId })),
  retryCopy: (requestId: string, index: number) => adminJson<KeptCopy[]>(url('/media-copies/retry', { request: requestId, index }), { method: 'POST' }),
  uploadMedia: (requestId: string, blob: Blob) =>
    adminJson<MediaItem>(url('/media', { request: requestId }), { method: 'POST', headers: { 'content-type': blob.type || 'application/octet-stream' }, body: blob }),
  settings: () => adminJson<Settings>(url('/settings')),
  saveSettings: (body: Settings) => adminJson<Settings>(url('/settings'), jsonBody('PUT', body)),
  loadState: async (name: StateName): Promise<unknown> => {
    try {
      return (await adminJson<{ value: unknown }>(url(`/state/${name}`))).value
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return undefined
      throw err
    }
  },
  /** A kept image or video as a blob (for a player or a download). */
  mediaBlob: async (mediaUrl: string, signal?: AbortSignal): Promise<Blob> => (await adminRequest(mediaUrl, { signal })).blob(),
  /** An image a chat answer links to, fetched by the gateway through its link guard (the page's CSP loads no remote image). */
  linkedImage: async (link: string, language: string, signal?: AbortSignal): Promise<Blob> =>
    (await adminRequest(url('/linked-image'), { ...jsonBody('POST', { url: link }), headers: { 'content-type': 'application/json', 'accept-language': language }, signal })).blob(),
  saveState: (name: StateName, value: unknown) => adminRequest(url(`/state/${name}`), jsonBody('PUT', { value })).then(() => undefined),
}
