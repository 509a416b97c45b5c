/**
 * JSON Schemas (2020-12) of POST /v1/images/generations and /v1/images/edits (spec §4.2), and the
 * per-model request-body schemas published at GET /spec/models/index.json. Model bounds come from the
 * catalog entry; the constants below are rules the spec (or, for Kling/Grok, the vendor doc) states
 * for a whole family. The gateway's image rules import these constants and `pixelSizeProblem`, so the
 * published schema and the gateway's 400s share one source of truth.
 */
import type { CatalogModel } from '../types.js'

type Schema = Record<string, unknown>

/** A string-array catalog field (`[]` when absent, e.g. on deprecated entries without variant data). */
export const catalogStrings = (m: CatalogModel, key: string): string[] =>
  Array.isArray(m[key]) ? (m[key] as unknown[]).filter((v): v is string => typeof v === 'string') : []

/** A numeric catalog field, or undefined. */
export const catalogNumber = (m: CatalogModel, key: string): number | undefined => (typeof m[key] === 'number' ? (m[key] as number) : undefined)

/** Spec §4.2 "GPT-style models": prompt length, size geometry and the closed value lists. */
export const GPT_IMAGE = {
  promptMax: 32000,
  size: { multipleOf: 16, maxSide: 3840, minRatio: '1:3', maxRatio: '3:1', minPixels: 655360, maxPixels: 8294400 },
  backgrounds: ['auto', 'opaque', 'transparent'],
  transparentFormats: ['png', 'webp'],
  moderation: ['auto', 'low'],
} as const

/** Spec §4.2 "Gemini-style": tier ladder with the long-edge bound of each tier, defaults, official-direct cap. */
export const GEMINI_IMAGE = {
  tiers: ['1K', '2K', '4K'],
  tierLongEdge: { '1K': 1024, '2K': 2048 } as Record<string, number>,
  defaultTier: '1K',
  defaultRatio: '1:1',
  officialDirectMaxBytes: 20 * 1024 * 1024,
} as const

/** Spec §4.2 "Seedream-style": Data URL cap (bytes of the URL text) and the only response format. */
export const SEEDREAM = { dataUrlMaxBytes: 31457280, responseFormats: ['url'] } as const

/** kling.md "Images": prompt and negative_prompt at most 2500 chars; image_reference subject|face; fidelities 0..1. */
export const KLING_IMAGE = { promptMax: 2500, imageReference: ['subject', 'face'] } as const

/** xai.md §2: response_format url (default) or b64_json. */
export const GROK_IMAGE = { responseFormats: ['url', 'b64_json'] } as const

/** Geometry of an explicit `<W>x<H>` size; ratios are W:H strings ("1:3", "16:1"). */
export interface PixelSizeRule {
  multipleOf?: number; maxSide?: number; minRatio?: string; maxRatio?: string; minPixels?: number; maxPixels?: number
}
export type PixelSizeProblem = 'multiple' | 'side' | 'ratio' | 'pixels'

export const WXH_PATTERN = '^[1-9][0-9]*x[1-9][0-9]*$'

/** `"1536x1024"` -> {width, height}; undefined for anything else (no leading zeros, lower-case x). */
export function parseWxH(value: string): { width: number; height: number } | undefined {
  if (!new RegExp(WXH_PATTERN).test(value)) return undefined
  const [width, height] = value.split('x').map(Number)
  return { width, height }
}

/** `"16:9"` -> [16, 9]; undefined for `auto`/`adaptive` and other non-ratios. */
export function parseRatio(ratio: string): [number, number] | undefined {
  const m = /^(\d+(?:\.\d+)?):(\d+(?:\.\d+)?)$/.exec(ratio)
  return m ? [Number(m[1]), Number(m[2])] : undefined
}

/** The first rule an explicit size breaks (bounds inclusive; ratios compared by cross-multiplying, no rounding). */
export function pixelSizeProblem(width: number, height: number, rule: PixelSizeRule): PixelSizeProblem | undefined {
  if (rule.multipleOf && (width % rule.multipleOf !== 0 || height % rule.multipleOf !== 0)) return 'multiple'
  if (rule.maxSide !== undefined && Math.max(width, height) > rule.maxSide) return 'side'
  const min = rule.minRatio ? parseRatio(rule.minRatio) : undefined
  const max = rule.maxRatio ? parseRatio(rule.maxRatio) : undefined
  if (min && width * min[1] < min[0] * height) return 'ratio'
  if (max && width * max[1] > max[0] * height) return 'ratio'
  const pixels = width * height
  if (pixels < (rule.minPixels ?? 0) || pixels > (rule.maxPixels ?? Infinity)) return 'pixels'
  return undefined
}

/** The explicit-size geometry of a model: GPT's family rule, Seedream's from the catalog; others any size. */
export function pixelSizeRuleOf(model: CatalogModel): PixelSizeRule | undefined {
  if (model.family === 'gpt-image') return GPT_IMAGE.size
  if (model.family !== 'seedream') return undefined
  const rule: PixelSizeRule = {
    minRatio: typeof model.minRatio === 'string' ? model.minRatio : undefined,
    maxRatio: typeof model.maxRatio === 'string' ? model.maxRatio : undefined,
    minPixels: catalogNumber(model, 'minPixels'),
    maxPixels: catalogNumber(model, 'maxPixels'),
  }
  return Object.fromEntries(Object.entries(rule).filter(([, v]) => v !== undefined)) as PixelSizeRule
}

/**
 * Ajv keyword definition of `x-image-size` (value: a PixelSizeRule): a `<W>x<H>` string must satisfy
 * it. Plain JSON Schema cannot do arithmetic on a string; validators that skip unknown keywords
 * (Ajv `strict: false`) accept any `<W>x<H>` instead. Register with `ajv.addKeyword(imageSizeKeyword)`.
 */
export const imageSizeKeyword = {
  keyword: 'x-image-size',
  type: 'string',
  schemaType: 'object',
  errors: false,
  validate: (rule: PixelSizeRule, data: string): boolean => {
    const size = parseWxH(data)
    return size !== undefined && pixelSizeProblem(size.width, size.height, rule) === undefined
  },
} as const

// ---- schema building blocks ----

// An empty catalog list (deprecated entries carry no variant data) constrains nothing, as in the rules.
const enumOrNull = (values: readonly string[], extra: Schema = {}): Schema =>
  values.length ? { enum: [...values, null], ...extra } : { type: ['string', 'null'], ...extra }
const nonEmptyPrompt = (extra: Schema = {}): Schema => ({
  type: 'string', minLength: 1, pattern: '\\S', title: 'Prompt', description: 'required; must not be empty once trimmed', ...extra,
})
const HTTP_PATTERN = '^[hH][tT][tT][pP][sS]?://'
const DATA_PATTERN = '^[dD][aA][tT][aA]:[^,]*,'
const REFERENCE_PATTERN = `${HTTP_PATTERN}|${DATA_PATTERN}`

/** One reference image: an HTTP(S) URL or a Data URL (raw base64 and file ids are refused). */
function referenceItem(dataUrlMax?: number): Schema {
  const description = 'an HTTP(S) URL or a data: URL (raw base64 and file ids are not accepted)'
  if (dataUrlMax === undefined) return { type: 'string', pattern: REFERENCE_PATTERN, description }
  return {
    description: `${description}; a data: URL at most ${dataUrlMax} bytes`,
    anyOf: [
      { type: 'string', pattern: HTTP_PATTERN },
      { type: 'string', pattern: DATA_PATTERN, maxLength: dataUrlMax },
    ],
  }
}

/** `image` / `images`: one reference or an array of them, at most the model's `maxReferenceImages`. */
function references(model: CatalogModel, required: boolean, dataUrlMax?: number): Schema {
  const item = referenceItem(dataUrlMax)
  const max = catalogNumber(model, 'maxReferenceImages')
  const array: Schema = { type: 'array', items: item, ...(required ? { minItems: 1 } : {}), ...(max !== undefined ? { maxItems: max } : {}) }
  return {
    title: 'Reference images',
    description: `reference image(s)${max !== undefined ? `, at most ${max}` : ''}; multipart edits send files under image or image[] instead (counted together)`,
    anyOf: required ? [item, array] : [item, array, { type: 'null' }],
  }
}

/** `n`: at most the catalog's maxN; GPT treats values <= 0 as 1, the other families need >= 1. */
function nSchema(model: CatalogModel, minimum?: number, note = ''): Schema {
  const max = catalogNumber(model, 'maxN')
  return {
    type: ['integer', 'null'], title: 'Number of images', default: 1,
    ...(minimum !== undefined ? { minimum } : {}), ...(max !== undefined ? { maximum: max } : {}),
    description: `images per request${max !== undefined ? `, at most ${max}` : ''}${note}; groups limited to one image answer 400 above 1`,
  }
}

/** `size`: the listed names, or `<W>x<H>` checked by `x-image-size` when the model has a geometry rule. */
function sizeSchema(names: string[], rule: PixelSizeRule | undefined, description: string, nullable = true): Schema {
  const wxh: Schema = { type: 'string', pattern: WXH_PATTERN, ...(rule ? { 'x-image-size': rule } : {}) }
  const branches = [...(names.length ? [{ enum: names }] : []), wxh, ...(nullable ? [{ type: 'null' }] : [])]
  return { title: 'Size', description, anyOf: branches }
}

const ratioNames = (model: CatalogModel): string[] => catalogStrings(model, 'aspectRatios')

// ---- per family ----

/** `false`: the field must not be sent. */
type Props = Record<string, Schema | false>
interface BodySchema { required: string[]; properties: Props; allOf?: Schema[] }

function gptImage(model: CatalogModel, edits: boolean): BodySchema {
  const tiers = catalogStrings(model, 'sizeTiers').filter((t) => t !== 'auto')
  const r = GPT_IMAGE.size
  const properties: Props = {
    prompt: nonEmptyPrompt({ maxLength: GPT_IMAGE.promptMax }),
    n: nSchema(model, undefined, '; values <= 0 are treated as 1'),
    size: sizeSchema(['auto', ...tiers], r, `auto${tiers.length ? `, a tier (${tiers.join(', ')})` : ''} or <W>x<H>: sides multiples of ${r.multipleOf}, each at most ${r.maxSide}, long:short at most 3:1, ${r.minPixels}..${r.maxPixels} pixels`),
    quality: { type: ['string', 'null'], examples: catalogStrings(model, 'quality'), description: 'forwarded, not validated by the gateway; higher tiers cost more' },
    background: enumOrNull(GPT_IMAGE.backgrounds, { description: 'transparent requires output_format png or webp' }),
    output_format: enumOrNull(catalogStrings(model, 'outputFormats'), { default: 'png', description: 'format of the decoded b64_json' }),
    output_compression: { type: ['integer', 'null'], minimum: 0, maximum: 100, default: 100, description: 'jpeg/webp only; kept only in synchronous JSON generations and multipart edits' },
    moderation: enumOrNull(GPT_IMAGE.moderation, { description: 'dropped on JSON edits and async tasks' }),
    user: { type: ['string', 'null'], description: 'end-user id; dropped on JSON edits and async tasks' },
    response_format: { description: 'ignored: output is always b64_json' },
    stream: { type: ['boolean', 'null'], default: false, description: 'true: gateway images SSE (keepalives, last data event is the images JSON, then [DONE])' },
  }
  const transparent: Schema = {
    if: { required: ['background'], properties: { background: { const: 'transparent' } } },
    then: { properties: { output_format: enumOrNull(GPT_IMAGE.transparentFormats) } },
  }
  if (!edits) return { required: ['prompt'], properties, allOf: [transparent] }
  const image = references(model, true)
  properties.image = image
  properties['image[]'] = { ...image, description: 'same as image (multipart field name)' }
  properties.mask = { type: ['string', 'null'], pattern: REFERENCE_PATTERN, description: 'PNG with alpha (transparent = area to edit): URL or data: URL in JSON, a file in multipart' }
  return { required: ['prompt', 'image'], properties, allOf: [transparent] }
}

const within = (key: string, inner: Schema): Schema => ({ type: 'object', required: [key], properties: { [key]: inner } })
const IMAGE_SIZE_PATHS = [['image_size'], ['google', 'image_config', 'image_size'], ['extra_body', 'google', 'image_config', 'image_size']]
const at = (path: string[], inner: Schema): Schema => path.reduceRight((acc, key) => within(key, acc), inner)

/** The effective image_size (first of its three equivalent forms sent, top level first) is `tier`; any tier when omitted. */
function imageSizeIs(tier?: string): Schema {
  const value = tier === undefined ? { type: 'string' } : { const: tier }
  return {
    anyOf: IMAGE_SIZE_PATHS.map((path, i) => ({
      allOf: [at(path, value), ...IMAGE_SIZE_PATHS.slice(0, i).map((earlier) => ({ not: at(earlier, { type: 'string' }) }))],
    })),
  }
}

function geminiImage(model: CatalogModel): BodySchema {
  const sizes = catalogStrings(model, 'imageSizes')
  // Tiers the model lacks: refused in size, unless image_size is sent (it wins, so size's tier is ignored).
  const missing = GEMINI_IMAGE.tiers.filter((t) => !sizes.includes(t))
  const config = {
    image_size: enumOrNull(sizes, { default: GEMINI_IMAGE.defaultTier, description: 'output tier; wins over the tier derived from size' }),
    aspect_ratio: enumOrNull(ratioNames(model), { default: GEMINI_IMAGE.defaultRatio, description: 'wins over size' }),
  }
  const imageConfig = { type: 'object', properties: { image_config: { type: 'object', properties: config } } }
  const byTier = Object.entries((model.maxNByTier ?? {}) as Record<string, number>)
  // The cap of a tier named in image_size or size; a tier derived from <W>x<H> is beyond plain JSON Schema.
  const tierCaps = byTier.map(([tier, max]) => ({
    if: { anyOf: [imageSizeIs(tier), { allOf: [{ not: imageSizeIs() }, within('size', { const: tier })] }] },
    then: { properties: { n: { type: ['integer', 'null'], maximum: max } } },
  }))
  const properties: Props = {
    prompt: nonEmptyPrompt(),
    n: nSchema(model, 1, byTier.length ? `; by output tier at most ${byTier.map(([t, m]) => `${m} at ${t}`).join(', ')}` : ''),
    ...config,
    size: sizeSchema(['auto', ...GEMINI_IMAGE.tiers], undefined, `auto, a tier (${sizes.join(', ')}), or <W>x<H> at any ratio (closest of aspect_ratio's values; tier from the long edge, lowered to ${sizes.at(-1) ?? '1K'})`),
    google: imageConfig,
    extra_body: { type: 'object', properties: { google: imageConfig } },
    image: references(model, false),
    images: { ...references(model, false), description: 'reference images; wins over image when both are sent' },
    mask: false,
    background: { not: { const: 'transparent' }, description: 'transparent is not supported' },
    stream: { enum: [false, null], description: 'streaming is not supported' },
  }
  const missingTier = missing.length ? [{ if: { not: imageSizeIs() }, then: { properties: { size: { not: { enum: missing } } } } }] : []
  return { required: ['prompt'], properties, allOf: [...tierCaps, ...missingTier] }
}

function seedream(model: CatalogModel, edits: boolean): BodySchema {
  const tiers = catalogStrings(model, 'sizeTiers')
  const rule = pixelSizeRuleOf(model)
  const properties: Props = {
    prompt: nonEmptyPrompt({ description: 'required; must not be empty once trimmed (else 400 missing prompt)' }),
    size: sizeSchema(tiers, rule, `a tier (${tiers.join(', ')}) or <W>x<H> with ${rule?.minPixels}..${rule?.maxPixels} pixels and W:H within ${rule?.minRatio}..${rule?.maxRatio}; null is refused`, false),
    n: nSchema(model, 1),
    output_format: enumOrNull(catalogStrings(model, 'outputFormats')),
    response_format: enumOrNull(SEEDREAM.responseFormats, { default: 'url', description: 'signed link valid 24 hours' }),
    optimize_prompt_options: { type: 'object', properties: { mode: enumOrNull(catalogStrings(model, 'optimizeModes')) } },
    watermark: { description: 'always false server-side; sending it has no effect' },
    image: references(model, edits, SEEDREAM.dataUrlMaxBytes),
    stream: { type: ['boolean', 'null'], default: false },
    ...(edits ? { mask: false } : {}),
  }
  return { required: edits ? ['prompt', 'image'] : ['prompt'], properties }
}

/** Kling and Grok: aspect_ratio / resolution from the catalog; `size` is mapped onto them. */
function ratioResolution(model: CatalogModel, edits: boolean): BodySchema {
  const resolutions = catalogStrings(model, 'resolutions')
  const kling = model.family === 'kling-image'
  const properties: Props = {
    prompt: nonEmptyPrompt(kling ? { maxLength: KLING_IMAGE.promptMax } : {}),
    n: nSchema(model, 1),
    aspect_ratio: enumOrNull(ratioNames(model), { description: 'wins over size' }),
    resolution: enumOrNull(resolutions, { description: 'wins over the tier derived from size' }),
    size: sizeSchema(['auto', ...resolutions, ...resolutions.map((r) => r.toUpperCase())], undefined, 'auto, a resolution, or <W>x<H> (mapped to the closest aspect_ratio and a resolution from the long edge)'),
    image: references(model, false),
    mask: false,
  }
  if (kling) {
    properties.negative_prompt = { type: ['string', 'null'], maxLength: KLING_IMAGE.promptMax }
    properties.image_reference = enumOrNull(KLING_IMAGE.imageReference)
    properties.image_fidelity = { type: ['number', 'null'], minimum: 0, maximum: 1 }
    properties.human_fidelity = { type: ['number', 'null'], minimum: 0, maximum: 1 }
  } else {
    properties.images = { ...references(model, false), description: 'reference images; wins over image when both are sent' }
    properties.output_format = enumOrNull(catalogStrings(model, 'outputFormats'))
    properties.response_format = enumOrNull(GROK_IMAGE.responseFormats)
  }
  // Edits need a reference (xai.md §2: editing takes the source image(s)); Kling has no edits endpoint.
  const oneOf = (field: string) => ({ required: [field], properties: { [field]: references(model, true) } })
  const needsReference = edits ? { allOf: [{ anyOf: [oneOf('image'), oneOf('images')] }] } : {}
  return { required: ['prompt'], properties, ...needsReference }
}

const BUILDERS: Partial<Record<CatalogModel['family'], (m: CatalogModel, edits: boolean) => BodySchema>> = {
  'gpt-image': gptImage, 'gemini-image': geminiImage, seedream, 'kling-image': ratioResolution, 'grok-image': ratioResolution,
}

/** The request-body schema of one image model on one endpoint, built from its catalog entry. */
export function imageModelSchema(model: CatalogModel, endpoint: 'generations' | 'edits'): object {
  const build = BUILDERS[model.family]
  if (!build) throw new Error(`${model.id} is not an image model`)
  const body = build(model, endpoint === 'edits')
  const deprecated = model.deprecated ? ` Deprecated: use ${model.deprecated.replacement}.` : ''
  return {
    title: `${model.name ?? model.id}: POST /v1/images/${endpoint}`,
    description: `Request body for ${model.id} (${model.family}).${endpoint === 'edits' ? ' JSON or multipart/form-data with the same field names.' : ''} Fields not listed are forwarded unchanged.${deprecated}`,
    type: 'object',
    required: ['model', ...body.required],
    properties: { model: { const: model.id, title: 'Model' }, ...body.properties },
    ...(body.allOf ? { allOf: body.allOf } : {}),
    additionalProperties: true,
  }
}

const imageEndpoints = (m: CatalogModel): Array<'generations' | 'edits'> =>
  (m.endpoints ?? ['images.generations', 'images.edits']).flatMap((e) => (e === 'images.generations' ? ['generations' as const] : e === 'images.edits' ? ['edits' as const] : []))

/** GET /spec/models/index.json: every non-retired image model with its delivery modes and per-endpoint body schemas. */
export function imageSchemaIndex(models: CatalogModel[]): object {
  const entries = models
    .filter((m) => m.type === 'image' && !m.retired && BUILDERS[m.family])
    .map((m) => {
      const endpoints = imageEndpoints(m)
      const schemas = Object.fromEntries(endpoints.map((e) => [e, imageModelSchema(m, e)]))
      const delivery = catalogStrings(m, 'delivery')
      return [m.id, { family: m.family, endpoints, delivery, ...(m.deprecated ? { deprecated: m.deprecated } : {}), ...schemas }]
    })
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    version: '2026-09-25',
    description:
      'Per-image-model request-body JSON Schemas; x-image-size is a vocabulary keyword for <W>x<H> geometry (see imageSizeKeyword). ' +
      'delivery: how the model answers, in the order a client should prefer: async (Prefer: respond-async gives 202 and a task), stream (stream: true gives the images SSE), sync (one response).',
    models: Object.fromEntries(entries),
  }
}

const text = { type: ['string', 'null'] }
const refs = { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }, { type: 'null' }] }

/** Spec §4.2 shared fields of POST /v1/images/generations, model-independent (per-model detail: imageModelSchema). */
export const imageGenerationRequest = {
  type: 'object',
  required: ['model', 'prompt'],
  properties: {
    model: { type: 'string', minLength: 1, description: 'a model id listed by GET /v1/models for the key' },
    prompt: { type: 'string', minLength: 1 },
    n: { type: ['integer', 'null'] },
    size: { ...text, description: 'auto, a tier or <W>x<H>; rules per model family' },
    ...Object.fromEntries(['quality', 'background', 'output_format', 'moderation', 'user', 'image_size', 'aspect_ratio'].map((k) => [k, text])),
    output_compression: { type: ['integer', 'null'], minimum: 0, maximum: 100 },
    response_format: { description: 'ignored for GPT-style models; `url` only for Seedream-style' },
    stream: { type: ['boolean', 'null'] },
    image: refs,
    images: refs,
  },
  additionalProperties: true,
}

/** Spec §4.2 edits fields (JSON form; multipart uses the same names, files under image / image[] / mask). */
export const imageEditRequest = {
  ...imageGenerationRequest,
  properties: { ...imageGenerationRequest.properties, 'image[]': refs, mask: { description: 'GPT-style only: PNG with alpha' } },
}
