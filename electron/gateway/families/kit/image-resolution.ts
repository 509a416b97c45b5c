/**
 * `aspect_ratio`, `resolution` and `size` of the Kling and Grok image models, whose vendors take a
 * ratio and a resolution (1k/2k) instead of a pixel size. Allowed values come from the catalog
 * (aspectRatios, resolutions); an OpenAI-style `size` is mapped onto them as for Gemini.
 * @see ../../../../docs/vendors/kling.md "Images", ../../../../docs/vendors/xai.md §2
 */
import { catalogStrings } from '../../../../shared/schemas/images.js'
import type { CatalogModel } from '../../../../shared/types.js'
import { invalid, isAbsent, show, type Obj } from './image-fields.js'
import { mapSizeToRatioTier } from './image-size.js'

export interface RatioResolution {
  /** ladder spelling for pricing (2K) */
  tier?: string
  /** vendor spelling (2k) */
  resolution?: string
  aspectRatio?: string
}

/** `resolution`, any case (vendors document lower case; catalog _spec says upper case occurs on the wire). */
function readResolution(body: Obj, model: CatalogModel, resolutions: string[]): string | undefined {
  const value = body.resolution
  if (isAbsent(value)) return undefined
  const match = typeof value === 'string' ? resolutions.find((r) => r.toLowerCase() === value.toLowerCase()) : undefined
  if (match) return match
  throw invalid('image_value_unsupported', { field: 'resolution', value: show(value), model: model.id, allowed: resolutions.join(', ') }, 'resolution')
}

function readAspectRatio(body: Obj, model: CatalogModel, ratios: string[]): string | undefined {
  const value = body.aspect_ratio
  if (isAbsent(value)) return undefined
  if (typeof value === 'string' && ratios.includes(value)) return value
  throw invalid('image_value_unsupported', { field: 'aspect_ratio', value: show(value), model: model.id, allowed: ratios.join(', ') }, 'aspect_ratio')
}

/** Explicit aspect_ratio / resolution win over what `size` maps to; absent all three, the vendor default applies. */
export function readRatioResolution(body: Obj, model: CatalogModel): RatioResolution {
  const resolutions = catalogStrings(model, 'resolutions')
  const ratios = catalogStrings(model, 'aspectRatios')
  const resolution = readResolution(body, model, resolutions)
  const aspect = readAspectRatio(body, model, ratios)
  const fromSize = mapSizeToRatioTier(body.size, model, {
    available: resolutions.map((r) => r.toUpperCase()),
    ratios,
    anyCase: true,
    tierOverridden: false,
  })
  const tier = resolution?.toUpperCase() ?? fromSize.tier
  const aspectRatio = aspect ?? fromSize.aspectRatio
  return {
    ...(tier !== undefined ? { tier, resolution: resolutions.find((r) => r.toUpperCase() === tier) ?? tier.toLowerCase() } : {}),
    ...(aspectRatio !== undefined ? { aspectRatio } : {}),
  }
}
