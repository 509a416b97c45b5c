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

/** A ledger row as the log lists it: with the request it replayed (`replays`), null for any other. */
export type LoggedRequest = LedgerEntry & { replay_of: string | null }

/** The request log, newest first, read from the ledger's table (the ledger writes it; this only reads). */
export function requestLogRepo(sql: Sql) {
  // A bare parameter tested only for NULL has no type PostgreSQL can infer: each is cast (a no-op on SQLite).
  const page = `
    SELECT requests.*, replays.original_id AS replay_of FROM requests LEFT JOIN replays ON replays.request_id = requests.id
    WHERE (CAST(@id AS TEXT) IS NULL OR requests.id = @id)
      AND (CAST(@group AS TEXT) IS NULL OR group_id = @group)
      AND (CAST(@key AS TEXT) IS NULL OR key_id = @key)
      AND (CAST(@model AS TEXT) IS NULL OR requests.model = @model)
      AND (CAST(@endpoint AS TEXT) IS NULL OR endpoint = @endpoint)
      AND (CAST(@status AS INTEGER) IS NULL OR status = @status)
      AND (CAST(@ok AS INTEGER) IS NULL OR (@ok = 1 AND status < 400) OR (@ok = 0 AND status >= 400))
      AND (CAST(@since AS BIGINT) IS NULL OR created_at >= @since)
      AND (CAST(@until AS BIGINT) IS NULL OR created_at <= @until)
      AND (CAST(@beforeAt AS BIGINT) IS NULL OR created_at < @beforeAt OR (created_at = @beforeAt AND requests.id < @beforeId))
      AND ${housekeepingFilter('requests')}
    ORDER BY created_at DESC, requests.id DESC
    LIMIT @limit`
  return {
    page: (f: RequestLogFilter): Promise<LoggedRequest[]> =>
      sql.all<LoggedRequest>(page, {
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
