/**
 * The image request rules (spec §4.2), by model family: every rule answers 400 before any upstream
 * call (spec §7 rule 6: not billed); a passing request comes back normalized for the vendor adapters.
 */
import { imageEditRequest, imageGenerationRequest } from '../../../shared/schemas/images.js'
import type { CatalogModel } from '../../../shared/types.js'
import { compileValidator } from '../validate.js'
import { checkGeminiImage } from './gemini-image-rules.js'
import { checkGptImage } from './gpt-image-rules.js'
import { checkGrokImage } from './grok-image-rules.js'
import { coerceFormFields } from './image-fields.js'
import type { ImageCheckOptions, ImageRule, NormalizedImageRequest } from './image-request.js'
import { checkKlingImage } from './kling-image-rules.js'
import { checkSeedream } from './seedream-rules.js'

export type { ImageCheckOptions, NormalizedImageRequest } from './image-request.js'

const validateGenerations = compileValidator(imageGenerationRequest)
const validateEdits = compileValidator(imageEditRequest)

const RULES: Partial<Record<CatalogModel['family'], ImageRule>> = {
  'gpt-image': checkGptImage,
  'gemini-image': checkGeminiImage,
  seedream: checkSeedream,
  'kling-image': checkKlingImage,
  'grok-image': checkGrokImage,
}

/** Checks an image request against its model's family rules and catalog data; throws a 400 GatewayError. */
export function checkImageRequest(body: Record<string, unknown>, model: CatalogModel, opts: ImageCheckOptions): NormalizedImageRequest {
  const rule = RULES[model.family]
  // Routing sends only image models here; anything else is a gateway bug, not a client error.
  if (!rule) throw new Error(`no image rules for family ${model.family} (model ${model.id})`)
  const fields = opts.multipart ? coerceFormFields(body) : body
  const request = rule(fields, model, opts)
  // The family rules word the errors of the fields they read; the endpoint's published schema then refuses a
  // wrong type in any other field it declares (one a family forwards, or one another family reads).
  const problem = (opts.endpoint === 'edits' ? validateEdits : validateGenerations)(fields)
  if (problem) throw problem
  return request
}
