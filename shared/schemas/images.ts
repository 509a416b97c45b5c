/**
 * JSON Schemas (2020-12) of POST /v1/images/generations and /v1/images/edits (spec §4.2), and the pieces
 * the per-model request-body schemas published at GET /spec/models/index.json are built from (each image
 * family module builds its part: electron/gateway/families/<family>.ts `imageSchema`; the index is put
 * together in families/image-schemas.ts). Model bounds come from the catalog entry; the constants below
 * are rules the spec (or, for Kling/Grok, the vendor doc) states for a whole family. The gateway's image
 * rules import these constants and `pixelSizeProblem`, so the published schema and the gateway's 400s
 * share one source of truth; the renderer imports them too, so nothing here imports gateway code.
 */
import type { CatalogModel } from '../types.js'

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

// ---- schema pieces of the per-model request bodies (each image family module builds its own from these) ----

export type JsonSchema = Record<string, unknown>
/** Body properties; `false`: the field must not be sent. */
export type BodyProperties = Record<string, JsonSchema | false>
/** An image family's part of one model's request-body schema on one endpoint (`model` and the envelope are added around it). */
export interface ImageBodySchema { required: string[]; properties: BodyProperties; allOf?: JsonSchema[] }

/** A closed value list (or null). An empty catalog list (deprecated entries carry no variant data) constrains nothing, as in the rules. */
export const enumOrNull = (values: readonly string[], extra: JsonSchema = {}): JsonSchema =>
  values.length ? { enum: [...values, null], ...extra } : { type: ['string', 'null'], ...extra }
export const nonEmptyPrompt = (extra: JsonSchema = {}): JsonSchema => ({
  type: 'string', minLength: 1, pattern: '\\S', title: 'Prompt', description: 'required; must not be empty once trimmed', ...extra,
})
const HTTP_PATTERN = '^[hH][tT][tT][pP][sS]?://'
const DATA_PATTERN = '^[dD][aA][tT][aA]:[^,]*,'
/** An HTTP(S) URL or a Data URL. */
export const REFERENCE_PATTERN = `${HTTP_PATTERN}|${DATA_PATTERN}`

/** One reference image: an HTTP(S) URL or a Data URL (raw base64 and file ids are refused). */
function referenceItem(dataUrlMax?: number): JsonSchema {
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
export function references(model: CatalogModel, required: boolean, dataUrlMax?: number): JsonSchema {
  const item = referenceItem(dataUrlMax)
  const max = catalogNumber(model, 'maxReferenceImages')
  const array: JsonSchema = { type: 'array', items: item, ...(required ? { minItems: 1 } : {}), ...(max !== undefined ? { maxItems: max } : {}) }
  return {
    title: 'Reference images',
    description: `reference image(s)${max !== undefined ? `, at most ${max}` : ''}; multipart edits send files under image or image[] instead (counted together)`,
    anyOf: required ? [item, array] : [item, array, { type: 'null' }],
  }
}

/** `images` of the families that read both fields: optional references that win over `image`. */
export const preferredReferences = (model: CatalogModel): JsonSchema => ({
  ...references(model, false), description: 'reference images; wins over image when both are sent',
})

/** `n`: at most the catalog's maxN; GPT treats values <= 0 as 1, the other families need >= 1. */
export function nSchema(model: CatalogModel, minimum?: number, note = ''): JsonSchema {
  const max = catalogNumber(model, 'maxN')
  return {
    type: ['integer', 'null'], title: 'Number of images', default: 1,
    ...(minimum !== undefined ? { minimum } : {}), ...(max !== undefined ? { maximum: max } : {}),
    description: `images per request${max !== undefined ? `, at most ${max}` : ''}${note}; groups limited to one image answer 400 above 1`,
  }
}

/** `size`: the listed names, or `<W>x<H>` checked by `x-image-size` when the model has a geometry rule. */
export function sizeSchema(names: string[], rule: PixelSizeRule | undefined, description: string, nullable = true): JsonSchema {
  const wxh: JsonSchema = { type: 'string', pattern: WXH_PATTERN, ...(rule ? { 'x-image-size': rule } : {}) }
  const branches = [...(names.length ? [{ enum: names }] : []), wxh, ...(nullable ? [{ type: 'null' }] : [])]
  return { title: 'Size', description, anyOf: branches }
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
