/**
 * The `size` field (spec §4.2). GPT and Seedream take it literally (`auto`, a tier, or a checked
 * `<W>x<H>`); Gemini, Kling and Grok map it onto an output tier and the closest official aspect ratio.
 */
import type { CatalogModel } from '../../../../shared/types.js'
import { GEMINI_IMAGE, parseRatio, parseWxH, pixelSizeProblem, type PixelSizeProblem, type PixelSizeRule } from '../../../../shared/schemas/images.js'
import type { GatewayError } from '../../errors.js'
import { invalid, isAbsent, show } from './image-fields.js'

type Reason = { en: string; zh: string }

export const sizeError = (model: CatalogModel, value: unknown, reason: Reason, param = 'size'): GatewayError =>
  invalid('image_size_invalid', { value: show(value), model: model.id, reason }, param)

/** Why an explicit size breaks the geometry rule, in both languages. */
export function problemReason(problem: PixelSizeProblem, rule: PixelSizeRule, width: number, height: number): Reason {
  switch (problem) {
    case 'multiple': return { en: `width and height must be multiples of ${rule.multipleOf}`, zh: `宽和高必须是 ${rule.multipleOf} 的倍数` }
    case 'side': return { en: `each side must be at most ${rule.maxSide} pixels`, zh: `每边最多 ${rule.maxSide} 像素` }
    case 'ratio': return { en: `the width:height ratio must be between ${rule.minRatio} and ${rule.maxRatio}`, zh: `宽高比必须在 ${rule.minRatio} 到 ${rule.maxRatio} 之间` }
    case 'pixels': return {
      en: `the total pixels (${width * height}) must be between ${rule.minPixels ?? 1} and ${rule.maxPixels ?? 'any'}`,
      zh: `总像素数（${width * height}）必须在 ${rule.minPixels ?? 1} 到 ${rule.maxPixels ?? '任意'} 之间`,
    }
  }
}

const TIER_LIKE = /^\d+(?:\.\d+)?[kK]$/

export interface ExplicitSizeSpec {
  /** `auto` is a value (GPT). */
  auto: boolean
  /** Tier names the model accepts in `size` (catalog sizeTiers). */
  tiers: string[]
  rule: PixelSizeRule | undefined
  /** `size: null` answers 400 (Seedream) instead of meaning "not sent". */
  nullRefused: boolean
}

/** GPT/Seedream `size`: undefined (not sent), `auto`, a tier name, or a checked width x height. */
export function readExplicitSize(value: unknown, model: CatalogModel, spec: ExplicitSizeSpec): { size?: { width: number; height: number } | 'auto'; tier?: string } {
  const forms = [spec.auto ? 'auto' : '', spec.tiers.length ? `a tier (${spec.tiers.join(', ')})` : ''].filter(Boolean)
  const zhForms = [spec.auto ? 'auto' : '', spec.tiers.length ? `档位（${spec.tiers.join('、')}）` : ''].filter(Boolean)
  const syntax = {
    en: `use ${forms.length ? `${forms.join(', ')} or ` : ''}<W>x<H>`,
    zh: `请使用 ${zhForms.length ? `${zhForms.join('、')}或 ` : ''}<W>x<H>`,
  }
  if (value === undefined || (value === null && !spec.nullRefused)) return {}
  if (typeof value !== 'string') throw sizeError(model, value, syntax)
  if (spec.auto && value === 'auto') return { size: 'auto' }
  if (spec.tiers.includes(value)) return { tier: value }
  const wxh = parseWxH(value)
  if (!wxh) {
    // A tier name the model lacks (e.g. 1K on the GPT 2.5 variant) deserves its own explanation.
    if (TIER_LIKE.test(value)) throw sizeError(model, value, { en: `the size tier ${value} is not accepted by this model; ${syntax.en}`, zh: `此模型不接受尺寸档位 ${value}；${syntax.zh}` })
    throw sizeError(model, value, syntax)
  }
  const problem = spec.rule && pixelSizeProblem(wxh.width, wxh.height, spec.rule)
  if (problem && spec.rule) throw sizeError(model, value, problemReason(problem, spec.rule, wxh.width, wxh.height))
  return { size: wxh }
}

/** The model ratio closest to W:H by |ln(W/H) - ln(a/b)|; ties keep the catalog's order. Non-ratios (auto) are skipped. */
export function closestAspectRatio(width: number, height: number, ratios: readonly string[]): string | undefined {
  const target = Math.log(width / height)
  let best: { ratio: string; distance: number } | undefined
  for (const ratio of ratios) {
    const r = parseRatio(ratio)
    if (!r) continue
    const distance = Math.abs(Math.log(r[0] / r[1]) - target)
    if (!best || distance < best.distance) best = { ratio, distance }
  }
  return best?.ratio
}

const LADDER: readonly string[] = GEMINI_IMAGE.tiers

/** Spec §4.2 Gemini: the tier of a long edge (<= 1024 -> 1K, <= 2048 -> 2K, else 4K). */
export function tierForLongEdge(edge: number): string {
  return LADDER.find((tier) => edge <= (GEMINI_IMAGE.tierLongEdge[tier] ?? Infinity)) ?? LADDER[LADDER.length - 1]
}

/** The highest available tier not above `tier` (silent lowering); the lowest available when all are above. */
export function lowerToAvailable(tier: string, available: readonly string[]): string {
  const rank = LADDER.indexOf(tier)
  const ranked = available.filter((t) => LADDER.includes(t)).sort((a, b) => LADDER.indexOf(a) - LADDER.indexOf(b))
  return ranked.filter((t) => LADDER.indexOf(t) <= rank).at(-1) ?? ranked[0] ?? tier
}

export interface RatioTierSpec {
  /** Tiers the model has, in ladder spelling (1K, 2K, 4K). */
  available: string[]
  ratios: string[]
  /** Tier names also match in lower case (Kling/Grok spell resolutions 1k, 2k). */
  anyCase: boolean
  /** The tier is sent explicitly elsewhere (Gemini image_size), so a tier in size is ignored, not refused. */
  tierOverridden: boolean
}

/** Gemini/Kling/Grok `size`: `auto`, a tier, or `<W>x<H>` at any ratio -> { tier, aspectRatio }. */
export function mapSizeToRatioTier(value: unknown, model: CatalogModel, spec: RatioTierSpec): { tier?: string; aspectRatio?: string } {
  const syntax = { en: `use auto, a tier (${spec.available.join(', ')}) or <W>x<H>`, zh: `请使用 auto、档位（${spec.available.join('、')}）或 <W>x<H>` }
  if (isAbsent(value) || value === 'auto') return {}
  if (typeof value !== 'string') throw sizeError(model, value, syntax)
  const tier = spec.anyCase ? value.toUpperCase() : value
  if (LADDER.includes(tier)) {
    if (spec.available.includes(tier)) return { tier }
    if (spec.tierOverridden) return {}
    throw invalid('image_tier_unsupported', { model: model.id, tier: value, field: 'size', allowed: spec.available.join(', ') }, 'size')
  }
  const wxh = parseWxH(value)
  if (!wxh) throw sizeError(model, value, syntax)
  return {
    tier: lowerToAvailable(tierForLongEdge(Math.max(wxh.width, wxh.height)), spec.available),
    aspectRatio: closestAspectRatio(wxh.width, wxh.height, spec.ratios),
  }
}
