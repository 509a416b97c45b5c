import type { CatalogModel } from '../../../shared/types.js'
import type { RequestContext } from '../context.js'
import { gatewayError } from '../errors.js'
import { callableModels } from '../access/model-access.js'
import { decodeSegment } from '../guards/path-segment.js'
import { sendJson } from '../respond.js'
import type { Services } from '../services.js'

const toEntry = (m: CatalogModel) => ({ id: m.id, object: 'model', created: m.created, owned_by: m.vendor, type: m.type, family: m.family })

/** GET /v1/models: exactly the models the key can call (spec §1, §4.3). */
export async function listModels(ctx: RequestContext, { registry }: Services): Promise<void> {
  sendJson(ctx.res, 200, { object: 'list', data: callableModels(registry, ctx.group!).map(toEntry) })
}

/** GET /v1/models/{id}: one entry of that list. */
export async function getModel(ctx: RequestContext, { registry }: Services, params: string[]): Promise<void> {
  const id = decodeSegment(params[0])
  const model = callableModels(registry, ctx.group!).find((m) => m.id === id)
  if (!model) throw gatewayError('model_not_found', 'model_not_found', { model: id })
  sendJson(ctx.res, 200, toEntry(model))
}
