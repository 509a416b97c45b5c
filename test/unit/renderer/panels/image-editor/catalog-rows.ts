/// <reference types="node" />
// Runs in Node (vitest): the gateway's family modules it imports speak of Buffer.
/** Image catalog models (the fields the schema builder reads), as the gateway's catalog has them: models.json rows with their family's delivery. */
import type { CatalogModel } from '../../../../../shared/types'
import { imageSchemaIndex } from '../../../../../electron/gateway/families/image-schemas'

const base = { vendor: 'openai', type: 'image', created: 0, pricing: { unit: 'image', price: 0.01 } } as const

export const ROWS: CatalogModel[] = [
  { ...base, id: 'gpt-image-2', family: 'gpt-image', delivery: ['async', 'stream', 'sync'], endpoints: ['images.generations', 'images.edits'], maxN: 10, maxReferenceImages: 16, outputFormats: ['png', 'jpeg', 'webp'], variant: '2.0', sizeTiers: ['auto', '1K', '2K', '4K'], quality: ['auto', 'low', 'medium', 'high'] },
  { ...base, id: 'gpt-image-2.5-flare', family: 'gpt-image', delivery: ['async', 'stream', 'sync'], endpoints: ['images.generations', 'images.edits'], maxN: 10, maxReferenceImages: 16, outputFormats: ['png', 'jpeg', 'webp'], variant: '2.5', sizeTiers: [], quality: ['auto', 'low', 'medium', 'high', 'xhigh', 'max'] },
  { ...base, id: 'gpt-image-1.5', family: 'gpt-image', delivery: ['async', 'stream', 'sync'], endpoints: ['images.generations', 'images.edits'], deprecated: { replacement: 'gpt-image-2.5-flare' } },
  { ...base, vendor: 'gemini', id: 'gemini-3-pro-image', family: 'gemini-image', delivery: ['async', 'sync'], endpoints: ['images.generations', 'images.edits'], maxN: 10, aspectRatios: ['1:1', '2:3', '3:2', '16:9'], outputFormats: ['png', 'jpeg'], imageSizes: ['1K', '2K', '4K'], maxNByTier: { '1K': 10, '2K': 5, '4K': 2 }, maxReferenceImages: 14 },
  { ...base, vendor: 'gemini', id: 'gemini-3.1-flash-lite-image', family: 'gemini-image', delivery: ['async', 'sync'], endpoints: ['images.generations', 'images.edits'], maxN: 10, aspectRatios: ['1:1', '16:9'], imageSizes: ['1K'], maxNByTier: { '1K': 10 }, maxReferenceImages: 3 },
  { ...base, vendor: 'ark', id: 'doubao-seedream-5-5-261028', family: 'seedream', delivery: ['stream', 'sync'], endpoints: ['images.generations', 'images.edits'], maxN: 1, minRatio: '1:16', maxRatio: '16:1', sizeTiers: ['1K', '1.5K', '2K'], minPixels: 921600, maxPixels: 4624220, outputFormats: ['png', 'jpeg'], maxReferenceImages: 10, optimizeModes: ['standard', 'fast'] },
  { ...base, vendor: 'kling', id: 'kling-v3-image', family: 'kling-image', delivery: ['sync', 'async', 'stream'], endpoints: ['images.generations'], maxN: 9, aspectRatios: ['16:9', '1:1'], resolutions: ['1k', '2k'], maxReferenceImages: 10 },
  { ...base, vendor: 'xai', id: 'grok-imagine-image', family: 'grok-image', delivery: ['sync', 'async', 'stream'], endpoints: ['images.generations', 'images.edits'], maxN: 10, aspectRatios: ['1:1', 'auto'], resolutions: ['1k', '2k'], outputFormats: ['jpeg'], maxReferenceImages: 4 },
] as CatalogModel[]

/** GET /spec/models/index.json as the gateway builds it from these rows. */
export const INDEX = imageSchemaIndex(ROWS)

/** GET /v1/models entries for ids. */
export const listed = (...ids: string[]) => ids.map((id) => ({ id, type: 'image' as const, family: ROWS.find((r) => r.id === id)?.family ?? 'x', owned_by: 'gatehouse' }))
