/**
 * The image request rules (spec §4.2), by model family (each family module's `imageRule`): every rule
 * answers 400 before any upstream call (spec §7 rule 6: not billed); a passing request comes back
 * normalized for the vendor adapters.
 */
import { imageEditRequest, imageGenerationRequest } from '../../../shared/schemas/images.js'
import type { CatalogModel } from '../../../shared/types.js'
import { compileValidator } from '../validate.js'
import { familyModule } from '../families/index.js'
import { coerceFormFields } from '../families/kit/image-fields.js'
import type { ImageCheckOptions, NormalizedImageRequest } from '../contract/image-request.js'

export type { ImageCheckOptions, NormalizedImageRequest } from '../contract/image-request.js'

const validateGenerations = compileValidator(imageGenerationRequest)
const validateEdits = compileValidator(imageEditRequest)

/** Checks an image request against its family's rule (families/<family>.ts) and the model's data; throws a 400 GatewayError. */
export function checkImageRequest(body: Record<string, unknown>, model: CatalogModel, opts: ImageCheckOptions): NormalizedImageRequest {
  const rule = familyModule(model.family).imageRule
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
