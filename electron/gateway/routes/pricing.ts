import type { CatalogModel } from '../../../shared/types.js'
import type { RequestContext } from '../context.js'
import { sendJson } from '../respond.js'
import type { Services } from '../services.js'

/** Catalog fields of video models that say what a priced second buys (and what a form may offer). */
const VIDEO_OPTIONS = ['resolutions', 'durations', 'aspectRatios', 'modes', 'maxDurationByResolution'] as const

const videoOptions = (m: CatalogModel) =>
  m.type === 'video' ? Object.fromEntries(VIDEO_OPTIONS.filter((f) => m[f] !== undefined).map((f) => [f, m[f]])) : {}

/** GET /api/v1/models/pricing: list prices of every current catalog model (public). */
export async function pricingList(ctx: RequestContext, { registry }: Services): Promise<void> {
  const data = registry.catalog
    .all()
    .filter((m) => !m.retired)
    .map((m) => ({ model: m.id, type: m.type, family: m.family, vendor: m.vendor, pricing: m.pricing, deprecated: m.deprecated !== undefined, ...videoOptions(m) }))
  sendJson(ctx.res, 200, { object: 'list', currency: 'USD', data })
}
