import type { AbortedFlag, ChatRule } from '../contract/family.js'
import type { CatalogModel } from '../../../shared/types.js'
import { familyModule } from './index.js'

const KEPT_SERVICE_TIERS = new Set(['priority', 'flex'])

/** Spec §4.1: `service_tier` is kept only for `priority` and `flex`; other values are removed silently. */
export const dropUnknownServiceTier: ChatRule = (body) => {
  if (body.service_tier === undefined || KEPT_SERVICE_TIERS.has(body.service_tier as string)) return body
  const { service_tier: _dropped, ...rest } = body
  return rest
}

/** Each family's own rules (its module's `chatRules`), after the rules of every family (spec §4.1). Gemini's live in its adapter. */
export async function applyChatRules(body: Record<string, unknown>, model: CatalogModel, signal?: AbortedFlag): Promise<Record<string, unknown>> {
  let out = dropUnknownServiceTier(body, model)
  for (const rule of familyModule(model.family).chatRules ?? []) {
    const result = rule(out, model, signal)
    // Only the Qwen input-length check ever waits; the others answer at once.
    out = result instanceof Promise ? await result : result
  }
  return out
}
