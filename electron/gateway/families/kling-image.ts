/**
 * Request rules of the Kling image models (spec §4.2 names them; their limits are the vendor's).
 * From kling.md "Images": prompt and negative_prompt at most 2500 characters; n 1..9 (catalog maxN);
 * aspect_ratio and resolution from the catalog; image_reference subject|face; image_fidelity and
 * human_fidelity 0..1. Reference count per model: catalog maxReferenceImages (kling-v2-1: 1).
 * Kling has no mask and no edits endpoint (catalog endpoints: generations only).
 * The same rules are published as each model's request-body schema (`imageSchema`, GET /spec/models/index.json).
 * "Catalog" data here is the model's effective data: the family defaults at the end of this file under
 * its catalog or config row (families/index.ts).
 * @see ../../../docs/vendors/kling.md
 */
import { enumOrNull, KLING_IMAGE, nonEmptyPrompt, type ImageBodySchema } from '../../../shared/schemas/images.js'
import type { CatalogModel } from '../../../shared/types.js'
import type { ImageEndpoint, ImageRule } from '../contract/image-request.js'
import { checkLength, omit, readChoice, readN, readNumber, readPrompt, readStream, readString, refuseMask } from './kit/image-fields.js'
import { readReferences } from './kit/image-references.js'
import { normalizedImageRequest } from './kit/image-request.js'
import { readRatioResolution } from './kit/image-resolution.js'
import type { FamilyModule } from '../contract/family.js'
import { ratioResolutionSchema } from './kit/ratio-resolution-schema.js'

/** The Kling adapter builds its body from the normalized fields; `size` is never sent (Kling has none). */
const CONSUMED = ['model', 'prompt', 'n', 'size', 'aspect_ratio', 'resolution', 'image', 'image[]', 'stream']

export const checkKlingImage: ImageRule = (body, model, opts) => {
  const prompt = readPrompt(body, model, 'image_prompt_empty', KLING_IMAGE.promptMax)
  const negative = readString(body, 'negative_prompt')
  if (negative !== undefined) checkLength(negative, 'negative_prompt', KLING_IMAGE.promptMax, model)
  refuseMask(body, model, opts)
  const sizing = readRatioResolution(body, model)
  const n = readN(body, model, opts)
  readChoice(body, 'image_reference', KLING_IMAGE.imageReference, model)
  readNumber(body, 'image_fidelity', 0, 1, false)
  readNumber(body, 'human_fidelity', 0, 1, false)
  const refs = readReferences(body, model, opts, { fields: ['image', 'image[]'], requireOnEdits: true })
  return normalizedImageRequest(model, opts, {
    prompt,
    n,
    ...sizing,
    refs,
    stream: readStream(body),
    forward: omit(body, CONSUMED),
  })
}

/** The request-body schema of a Kling image model: the fields checkKlingImage reads, with its bounds. */
export const klingImageSchema = (model: CatalogModel, endpoint: ImageEndpoint): ImageBodySchema =>
  ratioResolutionSchema(model, endpoint, nonEmptyPrompt({ maxLength: KLING_IMAGE.promptMax }), {
    negative_prompt: { type: ['string', 'null'], maxLength: KLING_IMAGE.promptMax },
    image_reference: enumOrNull(KLING_IMAGE.imageReference),
    image_fidelity: { type: ['number', 'null'], minimum: 0, maximum: 1 },
    human_fidelity: { type: ['number', 'null'], minimum: 0, maximum: 1 },
  })

/** Kling image defaults (kling.md "Images"): generations only, n 1..9, its ratios and 1k/2k. */
export const klingImageFamily: FamilyModule = {
  name: 'kling-image',
  type: 'image',
  defaults: {
    endpoints: ['images.generations'],
    maxN: 9,
    aspectRatios: ['16:9', '9:16', '1:1', '4:3', '3:4', '3:2', '2:3', '21:9'],
    resolutions: ['1k', '2k'],
    maxReferenceImages: 10,
    delivery: ['sync', 'async', 'stream'],
  },
  imageRule: checkKlingImage,
  imageSchema: klingImageSchema,
}
