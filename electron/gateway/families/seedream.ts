/**
 * Request rules of the Seedream-style models (spec §4.2 "Seedream-style models"). Size tiers, pixel
 * range, ratio range, output formats, optimisation modes, maxN and maxReferenceImages come from the
 * catalog; the Data URL cap and the url-only response format are family rules (SEEDREAM).
 * Field names the spec leaves unshown are Ark's: output_format, optimize_prompt_options, image, watermark.
 * The same rules are published as each model's request-body schema (`imageSchema`, GET /spec/models/index.json).
 * "Catalog" data here is the model's effective data: the family defaults at the end of this file under
 * its catalog or config row (families/index.ts).
 * @see ../../../docs/vendors/volcengine-ark.md §1
 */
import {
  catalogStrings, enumOrNull, nonEmptyPrompt, nSchema, pixelSizeRuleOf, references, SEEDREAM, sizeSchema,
  type BodyProperties, type ImageBodySchema,
} from '../../../shared/schemas/images.js'
import type { CatalogModel } from '../../../shared/types.js'
import type { ImageEndpoint, ImageRule } from '../contract/image-request.js'
import { badField, invalid, isObj, maskSent, omit, readChoice, readN, readPrompt, readStream, type Obj } from './kit/image-fields.js'
import { readReferences } from './kit/image-references.js'
import { normalizedImageRequest } from './kit/image-request.js'
import { readExplicitSize } from './kit/image-size.js'
import type { FamilyModule } from '../contract/family.js'

/** `watermark` is the always-false flag: the gateway sends false itself, so the client's value is dropped. */
const CONSUMED = ['model', 'prompt', 'n', 'size', 'output_format', 'response_format', 'image', 'image[]', 'stream', 'watermark']

/** The options object must be an object; its mode one of the model's optimizeModes. */
function checkOptimizeOptions(body: Obj, model: CatalogModel): void {
  if (!('optimize_prompt_options' in body)) return
  const options = body.optimize_prompt_options
  if (!isObj(options)) throw badField('optimize_prompt_options', 'must be an object', '必须是对象')
  readChoice(options, 'mode', catalogStrings(model, 'optimizeModes'), model, 'optimize_prompt_options.mode')
}

export const checkSeedream: ImageRule = (body, model, opts) => {
  const prompt = readPrompt(body, model, 'image_prompt_missing')
  const tiers = catalogStrings(model, 'sizeTiers')
  const { size, tier } = readExplicitSize(body.size, model, { auto: false, tiers, rule: pixelSizeRuleOf(model), nullRefused: true })
  const n = readN(body, model, opts)
  const outputFormat = readChoice(body, 'output_format', catalogStrings(model, 'outputFormats'), model)
  readChoice(body, 'response_format', SEEDREAM.responseFormats, model)
  checkOptimizeOptions(body, model)
  // Spec §4.2: a mask on edits answers 400 even when null.
  if (opts.endpoint === 'edits' && maskSent(body, opts)) throw invalid('image_mask_unsupported', { model: model.id }, 'mask')
  const refs = readReferences(body, model, opts, { fields: ['image', 'image[]'], dataUrlMaxBytes: SEEDREAM.dataUrlMaxBytes, requireOnEdits: true })
  return normalizedImageRequest(model, opts, {
    prompt,
    n,
    size,
    tier,
    outputFormat,
    refs,
    stream: readStream(body),
    // Seedream ignores Prefer: respond-async and answers synchronously (spec §4.2).
    async: false,
    forward: omit(body, CONSUMED),
  })
}

/** The request-body schema of a Seedream-style model: the fields checkSeedream reads, with its bounds. */
export function seedreamSchema(model: CatalogModel, endpoint: ImageEndpoint): ImageBodySchema {
  const edits = endpoint === 'edits'
  const tiers = catalogStrings(model, 'sizeTiers')
  const rule = pixelSizeRuleOf(model)
  const properties: BodyProperties = {
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

/** Seedream-style defaults (spec §4.2): the newest variant's tiers and pixel range (1K/1.5K/2K, 921600..4624220), ratio 1:16..16:1, n 1, up to 10 references; rows of the 2K/3K/4K and 2K/4K variants name their own. */
export const seedreamFamily: FamilyModule = {
  name: 'seedream',
  type: 'image',
  defaults: {
    endpoints: ['images.generations', 'images.edits'],
    sizeTiers: ['1K', '1.5K', '2K'],
    minPixels: 921600,
    maxPixels: 4624220,
    minRatio: '1:16',
    maxRatio: '16:1',
    maxN: 1,
    maxReferenceImages: 10,
    outputFormats: ['png', 'jpeg'],
    optimizeModes: ['standard'],
    // Prefer: respond-async is ignored (answers synchronously); stream: true answers the images SSE (spec §4.2).
    delivery: ['stream', 'sync'],
  },
  imageRule: checkSeedream,
  imageSchema: seedreamSchema,
}
