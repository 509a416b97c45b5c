import type { Sql } from './sql.js'

export interface RequestBodyRow {
  request_id: string
  created_at: number
  /** the stored bytes of `request` and `answer` (UTF-8) */
  bytes: number
  /** JSON: the request as the client sent it (client/capture.ts) */
  request: string
  /** JSON: the answer as it was delivered, and its timings */
  answer: string
  /** the request a replay sent again; null: not a replay (table `replays`) */
  replay_of: string | null
}

const INSERT_BODY = `INSERT INTO request_bodies (request_id, created_at, bytes, request, answer) VALUES (?, ?, ?, ?, ?)
  ON CONFLICT (request_id) DO NOTHING`

const PRUNE_BODIES = `DELETE FROM request_bodies WHERE request_id IN (
    SELECT request_id FROM (
      SELECT request_id, ROW_NUMBER() OVER (ORDER BY created_at DESC, request_id DESC) AS n,
             SUM(bytes) OVER (ORDER BY created_at DESC, request_id DESC) AS total
      FROM request_bodies) t
    WHERE n > @keep OR total > @totalBytes)`

/**
 * Kept request and answer bodies, the newest `count` within `totalBytes`; a ledger row's deletion erases its body
 * (a trigger on `requests`). Replays (`replays`) name the request they sent again.
 */
export function requestBodiesRepo(sql: Sql) {
  return {
    get: (requestId: string) =>
      sql.get<RequestBodyRow>(
        `SELECT b.*, r.original_id AS replay_of FROM request_bodies b LEFT JOIN replays r ON r.request_id = b.request_id WHERE b.request_id = ?`,
        [requestId],
      ),
    /**
     * Stores bodies in one transaction and, with `prune`, forgets in it the oldest beyond the newest `keep` or past
     * `totalBytes` in all (client/capture-writer.ts decides how often).
     */
    put: (rows: readonly Omit<RequestBodyRow, 'replay_of'>[], prune: { keep: number; totalBytes: number } | undefined): Promise<void> =>
      sql.transaction(async (tx) => {
        for (const r of rows) await tx.run(INSERT_BODY, [r.request_id, r.created_at, r.bytes, r.request, r.answer])
        if (prune) await tx.run(PRUNE_BODIES, prune)
      }),
    /** Forgets one request's body. */
    remove: async (requestId: string): Promise<boolean> => (await sql.run('DELETE FROM request_bodies WHERE request_id = ?', [requestId])).changes > 0,
    /** Marks a request as the replay of another. */
    markReplay: async (requestId: string, originalId: string, upstreamId: string | null, model: string | null) =>
      void (await sql.run(`INSERT INTO replays (request_id, original_id, upstream_id, model) VALUES (?, ?, ?, ?) ON CONFLICT (request_id) DO NOTHING`, [
        requestId, originalId, upstreamId, model,
      ])),
  }
}
