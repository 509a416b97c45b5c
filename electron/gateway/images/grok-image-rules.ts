/**
 * Request rules of the Grok image models (spec §4.2 names them; their limits are the vendor's).
 * From xai.md §2: n 1..10 (catalog maxN); aspect_ratio and resolution from the catalog; output is
 * JPEG (catalog outputFormats); response_format url|b64_json; OpenAI's size is not supported
 * upstream, so the gateway maps it onto aspect_ratio/resolution and never forwards it. Editing takes
 * the source image(s) as URL or data URI; the field name is unverified, so `image` and `images`
 * (which wins, as for Gemini) are both read; at most the catalog's maxReferenceImages.
 * xAI documents no mask: one answers 400 instead of an unmasked edit.
 * @see ../../../docs/vendors/xai.md §2
 */
import { catalogStrings, GROK_IMAGE } from '../../../shared/schemas/images.js'
import type { ImageRule } from './image-request.js'
import { omit, readChoice, readN, readPrompt, readStream, readString, refuseMask } from './image-fields.js'
import { readReferences } from './image-references.js'
import { readRatioResolution } from './image-resolution.js'

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
  return {
    model: model.id,
    family: model.family,
    endpoint: opts.endpoint,
    prompt,
    n,
    ...sizing,
    ...(outputFormat !== undefined ? { outputFormat } : {}),
    ...(quality !== undefined ? { quality } : {}),
    references: refs.references,
    referenceCount: refs.count,
    stream: readStream(body) && !opts.async,
    async: opts.async,
    forward: omit(body, CONSUMED),
  }
}
