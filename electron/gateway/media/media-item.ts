import { ADMIN_PREFIX, type MediaItem } from '../../../shared/admin.js'
import type { MediaRow } from '../store/media.js'

/** A kept file as the admin API shows it: where the app fetches it (`/admin/v1/media/{id}`). */
export const mediaItemOf = (m: MediaRow): MediaItem => ({
  id: m.id, requestId: m.request_id, kind: m.kind, mimeType: m.mime_type, url: `${ADMIN_PREFIX}/media/${encodeURIComponent(m.id)}`,
  sourceUrl: m.source_url, createdAt: m.created_at,
})
