/**
 * Request rules of the GPT-style image models (spec §4.2 "GPT-style models (shared fields)"). Model
 * data (size tiers of the variant, output formats, maxN, maxReferenceImages) comes from the catalog;
 * the size geometry and value lists are the spec's family rules (GPT_IMAGE).
 * The same rules are published as each model's request-body schema (`imageSchema`, GET /spec/models/index.json).
 * "Catalog" data here is the model's effective data: the family defaults at the end of this file under
 * its catalog or config row (families/index.ts).
 * @see ../../../docs/vendors/openai.md §3
 */
import {
  catalogStrings, enumOrNull, GPT_IMAGE, nonEmptyPrompt, nSchema, REFERENCE_PATTERN, references, sizeSchema,
  type BodyProperties, type ImageBodySchema, type JsonSchema,
} from '../../../shared/schemas/images.js'
import type { CatalogModel } from '../../../shared/types.js'
import type { ImageCheckOptions, ImageEndpoint, ImageRule } from '../contract/image-request.js'
import { invalid, isAbsent, omit, readChoice, readN, readNumber, readPrompt, readStream, readString, type Obj } from './kit/image-fields.js'
import { checkReference, readReferences } from './kit/image-references.js'
import { normalizedImageRequest } from './kit/image-request.js'
import { readExplicitSize } from './kit/image-size.js'
import type { FamilyModule } from '../contract/family.js'

/** Fields the rules turn into normalized ones; `response_format` is always ignored (output is always b64_json). */
const CONSUMED = ['model', 'prompt', 'n', 'size', 'quality', 'background', 'output_format', 'output_compression', 'stream', 'response_format']
/** Edits read `image` (and its multipart spelling `image[]`), never `images`. */
const EDITS_CONSUMED = ['image', 'image[]', 'images', 'mask']
/** Spec §4.2: JSON edits and async tasks do not keep these (nor output_compression, response_format). */
const SYNC_ONLY = ['moderation', 'user']

/** `background: transparent` needs output_format png or webp (absent output_format means png). */
function readBackground(body: Obj, model: CatalogModel, outputFormat: string | undefined): string | undefined {
  const background = readChoice(body, 'background', GPT_IMAGE.backgrounds, model)
  const transparentOk = outputFormat === undefined || (GPT_IMAGE.transparentFormats as readonly string[]).includes(outputFormat)
  if (background === 'transparent' && !transparentOk) {
    throw invalid('image_transparent_needs_format', { format: outputFormat ?? 'png' }, 'background')
  }
  return background
}

/** Edits mask: a file part (multipart), or a URL/data URL in a JSON body. */
function readMask(body: Obj, opts: ImageCheckOptions): string | true | undefined {
  if (opts.maskFile) return true
  return isAbsent(body.mask) ? undefined : checkReference(body.mask, 'mask')
}

/** Output compression survives only synchronous JSON generations and multipart edits. */
const keepsSyncOnlyFields = (opts: ImageCheckOptions): boolean => !opts.async && (opts.endpoint === 'generations' || opts.multipart === true)

export const checkGptImage: ImageRule = (body, model, opts) => {
  const prompt = readPrompt(body, model, 'image_prompt_empty', GPT_IMAGE.promptMax)
  const tiers = catalogStrings(model, 'sizeTiers').filter((t) => t !== 'auto')
  const { size, tier } = readExplicitSize(body.size, model, { auto: true, tiers, rule: GPT_IMAGE.size, nullRefused: false })
  const n = readN(body, model, opts, true)
  const outputFormat = readChoice(body, 'output_format', catalogStrings(model, 'outputFormats'), model)
  const background = readBackground(body, model, outputFormat)
  const compression = readNumber(body, 'output_compression', 0, 100, true)
  readChoice(body, 'moderation', GPT_IMAGE.moderation, model)
  readString(body, 'user')
  const quality = readString(body, 'quality') // forwarded, not validated (spec §4.2)
  const stream = readStream(body)
  const edits = opts.endpoint === 'edits'
  const refs = edits ? readReferences(body, model, opts, { fields: ['image', 'image[]'], requireOnEdits: true }) : { references: [], count: 0 }
  const mask = edits ? readMask(body, opts) : undefined
  const keep = keepsSyncOnlyFields(opts)
  return normalizedImageRequest(model, opts, {
    prompt,
    n,
    size,
    tier,
    outputFormat,
    background,
    quality,
    outputCompression: keep ? compression : undefined,
    refs,
    mask,
    stream,
    forward: omit(body, [...CONSUMED, ...(edits ? EDITS_CONSUMED : []), ...(keep ? [] : SYNC_ONLY)]),
  })
}

/** The request-body schema of a GPT-style model: the fields checkGptImage reads, with its bounds. */
export function gptImageSchema(model: CatalogModel, endpoint: ImageEndpoint): ImageBodySchema {
  const tiers = catalogStrings(model, 'sizeTiers').filter((t) => t !== 'auto')
  const r = GPT_IMAGE.size
  const properties: BodyProperties = {
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
  const transparent: JsonSchema = {
    if: { required: ['background'], properties: { background: { const: 'transparent' } } },
    then: { properties: { output_format: enumOrNull(GPT_IMAGE.transparentFormats) } },
  }
  if (endpoint !== 'edits') return { required: ['prompt'], properties, allOf: [transparent] }
  const image = references(model, true)
  properties.image = image
  properties['image[]'] = { ...image, description: 'same as image (multipart field name)' }
  properties.mask = { type: ['string', 'null'], pattern: REFERENCE_PATTERN, description: 'PNG with alpha (transparent = area to edit): URL or data: URL in JSON, a file in multipart' }
  return { required: ['prompt', 'image'], properties, allOf: [transparent] }
}

/** GPT-style defaults (spec §4.2): n 1..10, 1..16 references, png/jpeg/webp. */
export const gptImageFamily: FamilyModule = {
  name: 'gpt-image',
  type: 'image',
  defaults: {
    endpoints: ['images.generations', 'images.edits'],
    // Output tokens of one 1024x1024 image by quality: OpenAI's published table (catalog _spec `imageOutputTokens`).
    imageOutputTokens: { low: 272, medium: 1056, high: 4160 },
    // Input tokens of one reference image on an edit, at high input fidelity (catalog _spec `referenceInputTokens`).
    referenceInputTokens: 3050,
    // The newest API generation: no size-tier names, the widest quality list (a 2.0 row names its own).
    variant: '2.5',
    sizeTiers: [],
    quality: ['auto', 'low', 'medium', 'high', 'xhigh', 'max'],
    maxN: 10,
    maxReferenceImages: 16,
    outputFormats: ['png', 'jpeg', 'webp'],
    // Prefer: respond-async answers 202 with a task; stream: true answers the images SSE (spec §4.2).
    delivery: ['async', 'stream', 'sync'],
  },
  imageRule: checkGptImage,
  imageSchema: gptImageSchema,
}
