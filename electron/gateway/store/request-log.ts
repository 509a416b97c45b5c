import { HOUSEKEEPING_ENDPOINTS } from '../../../shared/admin.js'
import type { LedgerEntry } from './ledger.js'
import type { Sql } from './sql.js'

export interface RequestLogFilter {
  id?: string
  group?: string
  key?: string
  model?: string
  endpoint?: string
  /** `ok` (below 400), `error` (400 and above) or one status code */
  status?: 'ok' | 'error' | number
  /** milliseconds since the epoch, inclusive */
  since?: number
  until?: number
  /** the `created_at:id` cursor of the last row of the previous page */
  before?: { createdAt: number; id: string }
  limit: number
  /** false: leaves out the app's housekeeping calls (shared/admin.ts HOUSEKEEPING_ENDPOINTS) */
  housekeeping?: boolean
}

/**
 * SQL condition on a `requests` row (as `alias`): false for the app's housekeeping calls when the statement's
 * `@housekeeping` is 0 (an app key's calls to HOUSEKEEPING_ENDPOINTS). A revoked app key's rows are no longer recognized.
 */
export const housekeepingFilter = (alias: string) => `(@housekeeping = 1 OR ${alias}.endpoint NOT IN (${HOUSEKEEPING_ENDPOINTS.map((e) => `'${e}'`).join(', ')})
      OR NOT EXISTS (SELECT 1 FROM api_keys k WHERE k.id = ${alias}.key_id AND k.app_secret_enc IS NOT NULL))`

/** The request log, newest first, read from the ledger's table (the ledger writes it; this only reads). */
export function requestLogRepo(sql: Sql) {
  // Each filter compares first and tests for NULL second: PostgreSQL types a parameter by its first use, and a bare
  // `@x IS NULL` leaves it untyped ("could not determine data type of parameter").
  const page = `
    SELECT * FROM requests
    WHERE (id = @id OR @id IS NULL)
      AND (group_id = @group OR @group IS NULL)
      AND (key_id = @key OR @key IS NULL)
      AND (model = @model OR @model IS NULL)
      AND (endpoint = @endpoint OR @endpoint IS NULL)
      AND (status = @status OR @status IS NULL)
      AND ((@ok = 1 AND status < 400) OR (@ok = 0 AND status >= 400) OR @ok IS NULL)
      AND (created_at >= @since OR @since IS NULL)
      AND (created_at <= @until OR @until IS NULL)
      AND (created_at < @beforeAt OR (created_at = @beforeAt AND id < @beforeId) OR @beforeAt IS NULL)
      AND ${housekeepingFilter('requests')}
    ORDER BY created_at DESC, id DESC
    LIMIT @limit`
  return {
    page: (f: RequestLogFilter): Promise<LedgerEntry[]> =>
      sql.all<LedgerEntry>(page, {
        id: f.id ?? null,
        group: f.group ?? null,
        key: f.key ?? null,
        model: f.model ?? null,
        endpoint: f.endpoint ?? null,
        status: typeof f.status === 'number' ? f.status : null,
        ok: f.status === 'ok' ? 1 : f.status === 'error' ? 0 : null,
        since: f.since ?? null,
        until: f.until ?? null,
        beforeAt: f.before?.createdAt ?? null,
        beforeId: f.before?.id ?? null,
        limit: f.limit,
        housekeeping: f.housekeeping === false ? 0 : 1,
      }),
  }
}
