/**
 * Request rules of the Gemini-style image models (spec §4.2 "Gemini-style image models"). Tiers
 * (imageSizes), per-tier n caps (maxNByTier), aspect ratios and maxReferenceImages come from the
 * catalog; the tier ladder, defaults and the official-direct 20 MiB cap are family rules (GEMINI_IMAGE).
 * The same rules are published as each model's request-body schema (`imageSchema`, GET /spec/models/index.json).
 * "Catalog" data here is the model's effective data: the family defaults at the end of this file under
 * its catalog or config row (families/index.ts).
 * @see ../../../docs/vendors/gemini.md (generationConfig.imageConfig)
 */
import {
  catalogStrings, enumOrNull, GEMINI_IMAGE, nonEmptyPrompt, nSchema, preferredReferences, references, sizeSchema,
  type BodyProperties, type ImageBodySchema, type JsonSchema,
} from '../../../shared/schemas/images.js'
import type { CatalogModel } from '../../../shared/types.js'
import type { ImageRule } from '../contract/image-request.js'
import { invalid, isAbsent, isObj, omit, readN, readPrompt, readStream, refuseMask, show, type Obj } from './kit/image-fields.js'
import { readReferences } from './kit/image-references.js'
import { normalizedImageRequest } from './kit/image-request.js'
import { mapSizeToRatioTier } from './kit/image-size.js'
import type { FamilyModule } from '../contract/family.js'

/** The three equivalent homes of image_size / aspect_ratio, in precedence order (top level first). */
const CONFIG_PATHS = [[], ['google', 'image_config'], ['extra_body', 'google', 'image_config']] as const

const CONSUMED = ['model', 'prompt', 'n', 'size', 'image_size', 'aspect_ratio', 'image', 'image[]', 'images', 'stream', 'background']

function dig(body: Obj, path: readonly string[]): Obj | undefined {
  let node: unknown = body
  for (const key of path) node = isObj(node) ? node[key] : undefined
  return isObj(node) ? node : undefined
}

/** The first non-null value of `key` among the three forms, with the field path that carried it. */
function configValue(body: Obj, key: string): { value: unknown; param: string } | undefined {
  for (const path of CONFIG_PATHS) {
    const value = dig(body, path)?.[key]
    if (!isAbsent(value)) return { value, param: [...path, key].join('.') }
  }
  return undefined
}

function readImageSize(body: Obj, model: CatalogModel, sizes: string[]): string | undefined {
  const found = configValue(body, 'image_size')
  if (!found) return undefined
  if (typeof found.value === 'string' && sizes.includes(found.value)) return found.value
  throw invalid('image_tier_unsupported', { model: model.id, tier: show(found.value), field: found.param, allowed: sizes.join(', ') }, found.param)
}

function readAspectRatio(body: Obj, model: CatalogModel, ratios: string[]): string | undefined {
  const found = configValue(body, 'aspect_ratio')
  if (!found) return undefined
  if (typeof found.value === 'string' && ratios.includes(found.value)) return found.value
  const params = { field: found.param, value: show(found.value), model: model.id, allowed: ratios.join(', ') }
  throw invalid('image_value_unsupported', params, found.param)
}

/** n beyond the tier's cap (catalog maxNByTier: 2K <= 5, 4K <= 2) answers 400. */
function checkTierN(n: number, tier: string, model: CatalogModel): void {
  const caps = isObj(model.maxNByTier) ? model.maxNByTier : {}
  const max = caps[tier]
  if (typeof max === 'number' && n > max) throw invalid('image_n_tier_limit', { n, max, tier, model: model.id }, 'n')
}

/** The body without the consumed fields and without google.image_config in either form. */
function forwardOf(body: Obj): Obj {
  const out = omit(body, CONSUMED)
  const stripConfig = (google: unknown) => (isObj(google) ? omit(google, ['image_config']) : google)
  if ('google' in out) out.google = stripConfig(out.google)
  if (isObj(out.extra_body) && 'google' in out.extra_body) out.extra_body = { ...out.extra_body, google: stripConfig(out.extra_body.google) }
  return out
}

export const checkGeminiImage: ImageRule = (body, model, opts) => {
  const prompt = readPrompt(body, model, 'image_prompt_empty')
  refuseMask(body, model, opts)
  if (body.background === 'transparent') throw invalid('image_transparent_unsupported', { model: model.id }, 'background')
  if (readStream(body)) throw invalid('image_stream_unsupported', { model: model.id }, 'stream')
  const sizes = catalogStrings(model, 'imageSizes')
  const ratios = catalogStrings(model, 'aspectRatios')
  const imageSize = readImageSize(body, model, sizes)
  const aspect = readAspectRatio(body, model, ratios)
  // image_size wins over the tier derived from size, aspect_ratio over the ratio derived from it.
  const fromSize = mapSizeToRatioTier(body.size, model, { available: sizes, ratios, anyCase: false, tierOverridden: imageSize !== undefined })
  const defaultTier = sizes.includes(GEMINI_IMAGE.defaultTier) ? GEMINI_IMAGE.defaultTier : sizes[0] ?? GEMINI_IMAGE.defaultTier
  const tier = imageSize ?? fromSize.tier ?? defaultTier
  const n = readN(body, model, opts)
  checkTierN(n, tier, model)
  const refs = readReferences(body, model, opts, {
    fields: ['image', 'image[]'],
    preferred: 'images',
    decodedMaxBytes: opts.officialDirect ? GEMINI_IMAGE.officialDirectMaxBytes : undefined,
    requireOnEdits: false,
  })
  return normalizedImageRequest(model, opts, {
    prompt,
    n,
    tier,
    aspectRatio: aspect ?? fromSize.aspectRatio ?? GEMINI_IMAGE.defaultRatio,
    refs,
    // stream: true was refused above
    stream: false,
    forward: forwardOf(body),
  })
}

const within = (key: string, inner: JsonSchema): JsonSchema => ({ type: 'object', required: [key], properties: { [key]: inner } })
const at = (path: readonly string[], inner: JsonSchema): JsonSchema => path.reduceRight((acc, key) => within(key, acc), inner)
const IMAGE_SIZE_PATHS = CONFIG_PATHS.map((path) => [...path, 'image_size'])

/** The effective image_size (first of its three equivalent forms sent, top level first) is `tier`; any tier when omitted. */
function imageSizeIs(tier?: string): JsonSchema {
  const value = tier === undefined ? { type: 'string' } : { const: tier }
  return {
    anyOf: IMAGE_SIZE_PATHS.map((path, i) => ({
      allOf: [at(path, value), ...IMAGE_SIZE_PATHS.slice(0, i).map((earlier) => ({ not: at(earlier, { type: 'string' }) }))],
    })),
  }
}

/** The request-body schema of a Gemini-style model (the same on both endpoints): the fields checkGeminiImage reads, with its bounds. */
export function geminiImageSchema(model: CatalogModel): ImageBodySchema {
  const sizes = catalogStrings(model, 'imageSizes')
  // Tiers the model lacks: refused in size, unless image_size is sent (it wins, so size's tier is ignored).
  const missing = GEMINI_IMAGE.tiers.filter((t) => !sizes.includes(t))
  const config = {
    image_size: enumOrNull(sizes, { default: GEMINI_IMAGE.defaultTier, description: 'output tier; wins over the tier derived from size' }),
    aspect_ratio: enumOrNull(catalogStrings(model, 'aspectRatios'), { default: GEMINI_IMAGE.defaultRatio, description: 'wins over size' }),
  }
  const imageConfig = { type: 'object', properties: { image_config: { type: 'object', properties: config } } }
  const byTier = Object.entries((model.maxNByTier ?? {}) as Record<string, number>)
  // The cap of a tier named in image_size or size; a tier derived from <W>x<H> is beyond plain JSON Schema.
  const tierCaps = byTier.map(([tier, max]) => ({
    if: { anyOf: [imageSizeIs(tier), { allOf: [{ not: imageSizeIs() }, within('size', { const: tier })] }] },
    then: { properties: { n: { type: ['integer', 'null'], maximum: max } } },
  }))
  const properties: BodyProperties = {
    prompt: nonEmptyPrompt(),
    n: nSchema(model, 1, byTier.length ? `; by output tier at most ${byTier.map(([t, m]) => `${m} at ${t}`).join(', ')}` : ''),
    ...config,
    size: sizeSchema(['auto', ...GEMINI_IMAGE.tiers], undefined, `auto, a tier (${sizes.join(', ')}), or <W>x<H> at any ratio (closest of aspect_ratio's values; tier from the long edge, lowered to ${sizes.at(-1) ?? '1K'})`),
    google: imageConfig,
    extra_body: { type: 'object', properties: { google: imageConfig } },
    image: references(model, false),
    images: preferredReferences(model),
    mask: false,
    background: { not: { const: 'transparent' }, description: 'transparent is not supported' },
    stream: { enum: [false, null], description: 'streaming is not supported' },
  }
  const missingTier = missing.length ? [{ if: { not: imageSizeIs() }, then: { properties: { size: { not: { enum: missing } } } } }] : []
  return { required: ['prompt'], properties, allOf: [...tierCaps, ...missingTier] }
}

/** Gemini-style defaults (spec §4.2): the official ratios, tiers 1K/2K/4K with their n caps, up to 14 references. */
export const geminiImageFamily: FamilyModule = {
  name: 'gemini-image',
  type: 'image',
  defaults: {
    endpoints: ['images.generations', 'images.edits'],
    maxN: 10,
    imageSizes: ['1K', '2K', '4K'],
    maxNByTier: { '1K': 10, '2K': 5, '4K': 2 },
    aspectRatios: ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'],
    maxReferenceImages: 14,
    outputFormats: ['png', 'jpeg'],
    // Prefer: respond-async answers 202 with a task; stream: true answers 400 (spec §4.2).
    delivery: ['async', 'sync'],
  },
  imageRule: checkGeminiImage,
  imageSchema: geminiImageSchema,
}
