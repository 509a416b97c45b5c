import type { RequestContext } from '../context.js'
import { sendJson } from '../respond.js'
import type { Services } from '../services.js'

/** GET /api/v1/models/pricing: list prices of every current catalog model (public). */
export async function pricingList(ctx: RequestContext, { registry }: Services): Promise<void> {
  const data = registry.catalog
    .all()
    .filter((m) => !m.retired)
    .map((m) => ({ model: m.id, type: m.type, family: m.family, vendor: m.vendor, pricing: m.pricing, deprecated: m.deprecated !== undefined }))
  sendJson(ctx.res, 200, { object: 'list', currency: 'USD', data })
}
