import { ADMIN_PREFIX, type GroupSummary } from '../../../shared/admin'
import type { ConnectBody, ConnectOverview, ConnectResult, ConnectTool } from '../../../shared/connect'
import { adminRequest } from '../../api/admin'
import { jsonOf } from '../../api/http'
import { useAppStore } from '../../stores/app-store'

/** An admin call in the app's language: a refusal (a file that does not parse, say) comes back in it. */
async function call<T>(path: string, body?: object): Promise<T> {
  const headers: Record<string, string> = { 'accept-language': useAppStore.getState().language }
  const init: RequestInit = body === undefined ? { headers } : { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) }
  return jsonOf<T>(await adminRequest(`${ADMIN_PREFIX}${path}`, init))
}

/** The Connect tools calls (GET/POST /admin/v1/connect…). */
export const connectApi = {
  overview: () => call<ConnectOverview>('/connect'),
  groups: () => call<GroupSummary[]>('/groups'),
  connect: (tool: ConnectTool, body: ConnectBody) => call<ConnectResult>(`/connect/${tool}`, body),
  release: (tool: ConnectTool, how: 'disconnect' | 'undo', dryRun: boolean) => call<ConnectResult>(`/connect/${tool}/${how}`, dryRun ? { dryRun: true } : {}),
}
