import type { Db } from './db.js'

export interface MediaRow {
  id: string
  request_id: string
  kind: 'image' | 'video'
  source_url: string | null
  /** relative to the data dir */
  path: string
  mime_type: string
  created_at: number
}

/** Images and videos kept in the data dir, so the app still shows them after a vendor's link expires. */
export function mediaRepo(db: Db) {
  const insert = db.prepare('INSERT OR IGNORE INTO media (id, request_id, kind, source_url, path, mime_type, created_at) VALUES (@id, @request_id, @kind, @source_url, @path, @mime_type, @created_at)')
  const byRequest = db.prepare('SELECT * FROM media WHERE request_id = ? ORDER BY id')
  const byId = db.prepare('SELECT * FROM media WHERE id = ?')
  return {
    get: (id: string) => byId.get(id) as MediaRow | undefined,
    insert: (row: MediaRow) => void insert.run(row),
    byRequest: (requestId: string) => byRequest.all(requestId) as MediaRow[],
  }
}
