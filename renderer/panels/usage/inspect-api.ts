import type { CapturedExchange, GroupSummary, RequestLogEntry } from '../../../shared/admin'
import { ADMIN_PREFIX } from '../../../shared/admin'
import { adminRequest } from '../../api/admin'
import { jsonBody, jsonOf } from '../../api/http'

const path = (id: string, tail: string) => `${ADMIN_PREFIX}/requests/${encodeURIComponent(id)}/${tail}`

export interface ReplayResult {
  replayOf: string
  quote: { expected: number; max: number }
  replay: RequestLogEntry
}

/** The inspector's calls to the admin API: a request's kept bodies, a replay, the groups (their models and accounts). */
export const inspectApi = {
  body: async (id: string) => jsonOf<CapturedExchange>(await adminRequest(path(id, 'body'))),
  replay: async (id: string, body: { account?: string; model?: string }) => jsonOf<ReplayResult>(await adminRequest(path(id, 'replay'), jsonBody('POST', body))),
  groups: async () => jsonOf<GroupSummary[]>(await adminRequest(`${ADMIN_PREFIX}/groups`)),
}
