/** JSON Schema of a kept copy's state (shared/kept-copy.ts), as GET /admin/v1/media-copies answers it. */
import { COPY_FAILURES, COPY_STATES } from '../kept-copy.js'
import { mediaItem } from './admin.js'

const intOrNull = { type: ['integer', 'null'] }

export const keptCopy = {
  type: 'object',
  required: ['requestId', 'index', 'kind', 'state', 'sourceUrl', 'linkExpiresAt', 'attempts'],
  properties: {
    requestId: { type: 'string' },
    index: { type: 'integer', minimum: 0 },
    kind: { enum: ['image', 'video'] },
    state: { enum: COPY_STATES, description: 'saving → kept, or failed → retrying → kept | failed' },
    sourceUrl: { type: ['string', 'null'], description: "the vendor's link" },
    linkExpiresAt: { ...intOrNull, description: "ms since 1970 when the vendor's link stops working" },
    attempts: { type: 'integer', minimum: 1, description: 'download attempts started' },
    reason: {
      type: 'object', required: ['code'], description: 'why the last attempt failed',
      properties: { code: { enum: COPY_FAILURES }, detail: { type: 'string', description: 'the HTTP status (vendor_status), the byte limit (too_large)' } },
    },
    retryAt: { ...intOrNull, description: 'ms since 1970 of the next automatic attempt; null: none (Retry starts one)' },
    media: mediaItem,
  },
} as const
