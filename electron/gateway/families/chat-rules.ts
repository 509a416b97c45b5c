import type { CatalogModel } from '../../../shared/types.js'

/** A family's request rules: checks (throwing 400) and rewrites of the chat body before forwarding. */
export type ChatRule = (body: Record<string, unknown>, model: CatalogModel) => Record<string, unknown>

const KEPT_SERVICE_TIERS = new Set(['priority', 'flex'])

/** Spec §4.1: `service_tier` is kept only for `priority` and `flex`; other values are removed silently. */
export const dropUnknownServiceTier: ChatRule = (body) => {
  if (body.service_tier === undefined || KEPT_SERVICE_TIERS.has(body.service_tier as string)) return body
  const { service_tier: _dropped, ...rest } = body
  return rest
}

/** Rules of every family, then the family's own (later issues register more families here). */
const FAMILY_RULES: Partial<Record<CatalogModel['family'], ChatRule[]>> = {}

export function applyChatRules(body: Record<string, unknown>, model: CatalogModel): Record<string, unknown> {
  let out = dropUnknownServiceTier(body, model)
  for (const rule of FAMILY_RULES[model.family] ?? []) out = rule(out, model)
  return out
}
