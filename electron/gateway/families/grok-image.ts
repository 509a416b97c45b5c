/**
 * Request rules of the Grok image models (spec §4.2 names them; their limits are the vendor's).
 * From xai.md §2: n 1..10 (catalog maxN); aspect_ratio and resolution from the catalog; output is
 * JPEG (catalog outputFormats); response_format url|b64_json; OpenAI's size is not supported
 * upstream, so the gateway maps it onto aspect_ratio/resolution and never forwards it. Editing takes
 * the source image(s) as URL or data URI; the field name is unverified, so `image` and `images`
 * (which wins, as for Gemini) are both read; at most the catalog's maxReferenceImages.
 * xAI documents no mask: one answers 400 instead of an unmasked edit.
 * The same rules are published as each model's request-body schema (`imageSchema`, GET /spec/models/index.json).
 * "Catalog" data here is the model's effective data: the family defaults at the end of this file under
 * its catalog or config row (families/index.ts).
 * @see ../../../docs/vendors/xai.md §2
 */
import { catalogStrings, enumOrNull, GROK_IMAGE, nonEmptyPrompt, preferredReferences, type ImageBodySchema } from '../../../shared/schemas/images.js'
import type { CatalogModel } from '../../../shared/types.js'
import type { ImageEndpoint, ImageRule } from '../contract/image-request.js'
import { omit, readChoice, readN, readPrompt, readStream, readString, refuseMask } from './kit/image-fields.js'
import { readReferences } from './kit/image-references.js'
import { normalizedImageRequest } from './kit/image-request.js'
import { readRatioResolution } from './kit/image-resolution.js'
import type { FamilyModule } from '../contract/family.js'
import { ratioResolutionSchema } from './kit/ratio-resolution-schema.js'

const CONSUMED = ['model', 'prompt', 'n', 'size', 'aspect_ratio', 'resolution', 'image', 'image[]', 'images', 'output_format', 'quality', 'stream']

export const checkGrokImage: ImageRule = (body, model, opts) => {
  const prompt = readPrompt(body, model, 'image_prompt_empty')
  refuseMask(body, model, opts)
  const sizing = readRatioResolution(body, model)
  const n = readN(body, model, opts)
  const outputFormat = readChoice(body, 'output_format', catalogStrings(model, 'outputFormats'), model)
  readChoice(body, 'response_format', GROK_IMAGE.responseFormats, model)
  const quality = readString(body, 'quality') // meaningful on some models only; forwarded unchecked
  const refs = readReferences(body, model, opts, { fields: ['image', 'image[]'], preferred: 'images', requireOnEdits: true })
  return normalizedImageRequest(model, opts, {
    prompt,
    n,
    ...sizing,
    outputFormat,
    quality,
    refs,
    stream: readStream(body),
    forward: omit(body, CONSUMED),
  })
}

/** The request-body schema of a Grok image model: the fields checkGrokImage reads, with its bounds. */
export const grokImageSchema = (model: CatalogModel, endpoint: ImageEndpoint): ImageBodySchema =>
  ratioResolutionSchema(model, endpoint, nonEmptyPrompt(), {
    images: preferredReferences(model),
    output_format: enumOrNull(catalogStrings(model, 'outputFormats')),
    response_format: enumOrNull(GROK_IMAGE.responseFormats),
  })

/** Grok image defaults (xai.md §2): n 1..10, its ratios, 1k/2k, JPEG, up to 4 references. */
export const grokImageFamily: FamilyModule = {
  name: 'grok-image',
  type: 'image',
  defaults: {
    endpoints: ['images.generations', 'images.edits'],
    maxN: 10,
    aspectRatios: ['1:1', '3:4', '4:3', '9:16', '16:9', '2:3', '3:2', '9:19.5', '19.5:9', '9:20', '20:9', '1:2', '2:1', 'auto'],
    resolutions: ['1k', '2k'],
    maxReferenceImages: 4,
    outputFormats: ['jpeg'],
    delivery: ['sync', 'async', 'stream'],
  },
  imageRule: checkGrokImage,
  imageSchema: grokImageSchema,
}
