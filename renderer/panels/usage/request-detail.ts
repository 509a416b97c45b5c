/** What a request log row's detail says, worked out from the row alone (no React): models, accounts, timings. */
import type { RequestLogEntry } from '../../../shared/admin'

export interface RequestFacts {
  /** the model the client named: the failover loop's first model when it ran, else the row's */
  requested: string | null
  /** the model that answered (a fallback's when one served); null when none did */
  served: string | null
  /** the account that answered; null when none did */
  servedBy: string | null
  /** every account the failover loop tried or skipped, in order, each once */
  accounts: string[]
  /** milliseconds spent in upstream calls, all attempts together; null when none was made */
  upstreamMs: number | null
}

export function requestFacts(r: RequestLogEntry): RequestFacts {
  const attempts = r.attempts ?? []
  const ok = attempts.find((a) => a.outcome === 'ok')
  const answered = r.status < 400
  return {
    requested: attempts[0]?.model ?? r.model,
    served: ok?.model ?? (answered ? r.model : null),
    servedBy: ok?.account ?? (answered ? r.upstream : null),
    accounts: [...new Set(attempts.map((a) => a.account))],
    upstreamMs: attempts.length === 0 ? null : attempts.reduce((sum, a) => sum + a.ms, 0),
  }
}
