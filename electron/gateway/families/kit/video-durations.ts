/** A video model's durations cut to its vendor's real range (contract/family.ts DurationRule). */
import type { CatalogModel } from '../../../../shared/types.js'
import type { DurationRule } from '../../contract/family.js'

/** The rule for a model id: the first whose prefix matches, or undefined. */
export function durationRuleOf(rules: readonly DurationRule[] | undefined, id: string): DurationRule | undefined {
  return rules?.find((r) => id.startsWith(r.prefix))
}

/** Every whole second the rule allows, shortest first. */
export function allowedDurations(rule: DurationRule): number[] {
  if (rule.only) return rule.only.filter((d) => d >= rule.min && d <= rule.max)
  return Array.from({ length: rule.max - rule.min + 1 }, (_, i) => rule.min + i)
}

/**
 * The model with `durations` cut to the rule (the rule's own list when the row lists none) and `maxDurationSeconds`
 * no longer than the longest of them. A model no rule covers is returned as it is.
 */
export function withVendorDurations(model: CatalogModel, rules: readonly DurationRule[] | undefined): CatalogModel {
  const rule = durationRuleOf(rules, model.id)
  if (!rule) return model
  const allowed = new Set(allowedDurations(rule))
  const listed = Array.isArray(model.durations) ? (model.durations as unknown[]).filter((d): d is number => typeof d === 'number') : [...allowed]
  const durations = listed.filter((d) => allowed.has(d))
  const longest = durations.length > 0 ? Math.max(...durations) : rule.max
  const rowMax = typeof model.maxDurationSeconds === 'number' ? model.maxDurationSeconds : longest
  return { ...model, durations, maxDurationSeconds: Math.min(rowMax, longest) }
}
