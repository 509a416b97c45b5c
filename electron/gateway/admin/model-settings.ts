import type { ModelSettings } from '../../../shared/admin.js'
import { modelSettingsPatch } from '../../../shared/schemas/admin.js'
import type { CatalogModel, ModelFallback } from '../../../shared/types.js'
import { ConfigError } from '../config/load-config.js'
import type { RequestContext } from '../context.js'
import { sendJson } from '../respond.js'
import type { Services } from '../services.js'
import { applyChange, bodyReader, notFound, segment } from './admin-io.js'

const readPatch = bodyReader<{ fallbacks: ModelFallback[] }>(modelSettingsPatch)

const settingsOf = (m: CatalogModel): ModelSettings => ({ model: m.id, fallbacks: m.fallbacks ?? [] })

/** GET /admin/v1/model-settings: every catalog model's fallbacks (README "Model mapping and fallbacks"). */
export async function listModelSettings(ctx: RequestContext, services: Services): Promise<void> {
  sendJson(ctx.res, 200, services.registry.catalog.all().map(settingsOf))
}

/**
 * PATCH /admin/v1/model-settings/{model}: replaces the model's ordered fallbacks (`[]`: none). Kept in its catalog
 * override with the rest of that override unchanged; a config file's row for the model replaces it at the next start.
 */
export async function updateModelSettings(ctx: RequestContext, services: Services, params: string[]): Promise<void> {
  const id = segment(params[0], 'model')
  const model = services.registry.catalog.get(id)
  if (!model) throw notFound('model', id)
  const { fallbacks } = await readPatch(ctx)
  await applyChange(services, async (tx) => {
    const overrides = await tx.modelOverrides.all()
    const known = new Set([...services.registry.builtinModels.map((m) => m.id), ...overrides.map((o) => o.id)])
    fallbacks.forEach((f, i) => {
      if (f.model === id) throw new ConfigError(`fallbacks[${i}].model`, `"${id}" cannot fall back to itself`)
      if (!known.has(f.model)) throw new ConfigError(`fallbacks[${i}].model`, `unknown model "${f.model}"`)
    })
    const current = overrides.find((o) => o.id === id) ?? { id, created: model.created, type: model.type }
    await tx.modelOverrides.upsert({ ...current, fallbacks })
  })
  sendJson(ctx.res, 200, settingsOf(services.registry.catalog.get(id)!))
}
