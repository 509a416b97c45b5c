/**
 * Request rules of the GPT-style image models (spec §4.2 "GPT-style models (shared fields)"). Model
 * data (size tiers of the variant, output formats, maxN, maxReferenceImages) comes from the catalog;
 * the size geometry and value lists are the spec's family rules (GPT_IMAGE).
 * "Catalog" data here is the model's effective data: the family defaults at the end of this file under
 * its catalog or config row (families/index.ts).
 * @see ../../../docs/vendors/openai.md §3
 */
import { catalogStrings, GPT_IMAGE } from '../../../shared/schemas/images.js'
import type { CatalogModel } from '../../../shared/types.js'
import type { ImageCheckOptions, ImageRule } from '../images/image-request.js'
import { invalid, isAbsent, omit, readChoice, readN, readNumber, readPrompt, readStream, readString, type Obj } from '../images/image-fields.js'
import { checkReference, readReferences } from '../images/image-references.js'
import { readExplicitSize } from '../images/image-size.js'
import type { FamilyModule } from './family.js'

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
  return {
    model: model.id,
    family: model.family,
    endpoint: opts.endpoint,
    prompt,
    n,
    ...(size !== undefined ? { size } : {}),
    ...(tier !== undefined ? { tier } : {}),
    ...(outputFormat !== undefined ? { outputFormat } : {}),
    ...(background !== undefined ? { background } : {}),
    ...(quality !== undefined ? { quality } : {}),
    ...(keep && compression !== undefined ? { outputCompression: compression } : {}),
    references: refs.references,
    referenceCount: refs.count,
    ...(mask !== undefined ? { mask } : {}),
    // A 202 task answers at once: there is no stream to keep open.
    stream: stream && !opts.async,
    async: opts.async,
    forward: omit(body, [...CONSUMED, ...(edits ? EDITS_CONSUMED : []), ...(keep ? [] : SYNC_ONLY)]),
  }
}

/** GPT-style defaults (spec §4.2): n 1..10, 1..16 references, png/jpeg/webp. */
export const gptImageFamily: FamilyModule = {
  name: 'gpt-image',
  type: 'image',
  defaults: {
    endpoints: ['images.generations', 'images.edits'],
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
}
