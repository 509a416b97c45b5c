import { join } from 'node:path'
import type { RunningGateway } from '../../electron/gateway/gateway.js'
import { walkDir } from './walk-dir.js'

/**
 * Every path a gateway's kept media holds bytes at, a write's temporary part included, sorted: files under the
 * data dir's media/ on SQLite, `media_chunks` rows on PostgreSQL (electron/gateway/media/media-files.ts).
 */
export async function storedMediaPaths(gw: RunningGateway): Promise<string[]> {
  const { sql } = gw.services.store
  if (sql.dialect === 'postgres') return (await sql.all<{ path: string }>('SELECT DISTINCT path FROM media_chunks ORDER BY path')).map((r) => r.path)
  return walkDir(join(gw.services.dataDir, 'media')).filter((e) => !e.dir).map((e) => `media/${e.path}`).sort()
}

/** A write's temporary part: `media/.<random>.part` in the data dir, `.part/<replica>/<start>-<random>` in the database. */
export const isMediaPart = (path: string): boolean => path.endsWith('.part') || path.startsWith('.part/')
