import type { Sql } from './sql.js'

export interface MediaRow {
  id: string
  request_id: string
  kind: 'image' | 'video'
  source_url: string | null
  /** where `services.media` keeps the bytes (relative to the data dir when they are files there) */
  path: string
  mime_type: string
  created_at: number
}

/** Images and videos the gateway kept (`services.media` holds the bytes), so the app still shows them after a vendor's link expires. */
export function mediaRepo(sql: Sql) {
  return {
    get: (id: string) => sql.get<MediaRow>('SELECT * FROM media WHERE id = ?', [id]),
    insert: async (row: MediaRow) =>
      void (await sql.run(
        `INSERT INTO media (id, request_id, kind, source_url, path, mime_type, created_at)
          VALUES (@id, @request_id, @kind, @source_url, @path, @mime_type, @created_at) ON CONFLICT DO NOTHING`,
        { ...row },
      )),
    byRequest: (requestId: string) => sql.all<MediaRow>('SELECT * FROM media WHERE request_id = ? ORDER BY id', [requestId]),
    /** Forgets the rows of a request or task; answers them, so their bytes can go too. */
    removeByRequest: async (requestId: string): Promise<MediaRow[]> => {
      const rows = await sql.all<MediaRow>('SELECT * FROM media WHERE request_id = ? ORDER BY id', [requestId])
      await sql.run('DELETE FROM media WHERE request_id = ?', [requestId])
      return rows
    },
  }
}
