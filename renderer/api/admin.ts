import type {
  AccountSummary, AdminSession, CreatedKey, GroupSummary, KeySummary, MediaItem, RequestLogPage, Settings, StateName,
  TaskSummary, UpstreamSummary,
} from '../../shared/admin'
import { ADMIN_PREFIX } from '../../shared/admin'
import { ApiError, jsonBody, request, requestJson } from './http'

const url = (path: string, query?: Record<string, string | number | undefined>) => {
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== '') params.set(k, String(v))
  const qs = params.toString()
  return `${ADMIN_PREFIX}${path}${qs ? `?${qs}` : ''}`
}

/**
 * Signs in: inside the desktop window the preload hands over an admin token, exchanged here for the
 * session cookie; in a browser the cookie came from the one-time login URL the gateway printed.
 * Returns undefined when not signed in.
 */
export async function signIn(): Promise<AdminSession | undefined> {
  try {
    if (window.api) {
      const { adminToken } = await window.api.getSession()
      return await requestJson<AdminSession>(url('/session'), { method: 'POST', headers: { authorization: `Bearer ${adminToken}` } })
    }
    return await requestJson<AdminSession>(url('/session'))
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return undefined
    throw err
  }
}

/** The admin API, one function per operation (shared/admin.ts lists the routes). */
export const admin = {
  groups: () => requestJson<GroupSummary[]>(url('/groups')),
  createGroup: (body: object) => requestJson<GroupSummary>(url('/groups'), jsonBody('POST', body)),
  updateGroup: (id: string, body: object) => requestJson<GroupSummary>(url(`/groups/${encodeURIComponent(id)}`), jsonBody('PATCH', body)),
  deleteGroup: (id: string) => requestJson<void>(url(`/groups/${encodeURIComponent(id)}`), { method: 'DELETE' }),
  appKey: (group: string) => requestJson<{ key: string }>(url(`/groups/${encodeURIComponent(group)}/app-key`), { method: 'POST' }),
  upstreams: () => requestJson<UpstreamSummary[]>(url('/upstreams')),
  createUpstream: (body: object) => requestJson<UpstreamSummary>(url('/upstreams'), jsonBody('POST', body)),
  updateUpstream: (id: string, body: object) => requestJson<UpstreamSummary>(url(`/upstreams/${encodeURIComponent(id)}`), jsonBody('PATCH', body)),
  deleteUpstream: (id: string) => requestJson<void>(url(`/upstreams/${encodeURIComponent(id)}`), { method: 'DELETE' }),
  keys: (group?: string) => requestJson<KeySummary[]>(url('/keys', { group })),
  createKey: (body: object) => requestJson<CreatedKey>(url('/keys'), jsonBody('POST', body)),
  updateKey: (id: string, body: object) => requestJson<KeySummary>(url(`/keys/${encodeURIComponent(id)}`), jsonBody('PATCH', body)),
  revokeKey: (id: string) => requestJson<void>(url(`/keys/${encodeURIComponent(id)}`), { method: 'DELETE' }),
  account: () => requestJson<AccountSummary>(url('/account')),
  updateAccount: (body: { balance?: number; concurrency?: number }) => requestJson<AccountSummary>(url('/account'), jsonBody('PATCH', body)),
  requests: (query: Record<string, string | number | undefined>) => requestJson<RequestLogPage>(url('/requests', query)),
  tasks: (kind: 'image' | 'video', limit = 100) => requestJson<TaskSummary[]>(url('/tasks', { kind, limit })),
  media: (requestId: string) => requestJson<MediaItem[]>(url('/media', { request: requestId })),
  uploadMedia: (requestId: string, blob: Blob) =>
    requestJson<MediaItem>(url('/media', { request: requestId }), { method: 'POST', headers: { 'content-type': blob.type || 'application/octet-stream' }, body: blob }),
  settings: () => requestJson<Settings>(url('/settings')),
  saveSettings: (body: Settings) => requestJson<Settings>(url('/settings'), jsonBody('PUT', body)),
  loadState: async (name: StateName): Promise<unknown> => {
    try {
      return (await requestJson<{ value: unknown }>(url(`/state/${name}`))).value
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return undefined
      throw err
    }
  },
  saveState: (name: StateName, value: unknown) => request(url(`/state/${name}`), jsonBody('PUT', { value })).then(() => undefined),
}
