/**
 * The request-body schema the Kling and Grok image families share: aspect_ratio / resolution from the
 * catalog, `size` mapped onto them (images/image-resolution.ts readRatioResolution), no mask. Each
 * family adds its own prompt bound and fields.
 */
import {
  catalogStrings, enumOrNull, nSchema, references, sizeSchema, type BodyProperties, type ImageBodySchema, type JsonSchema,
} from '../../../../shared/schemas/images.js'
import type { CatalogModel } from '../../../../shared/types.js'
import type { ImageEndpoint } from '../../contract/image-request.js'

export function ratioResolutionSchema(model: CatalogModel, endpoint: ImageEndpoint, prompt: JsonSchema, familyFields: BodyProperties): ImageBodySchema {
  const resolutions = catalogStrings(model, 'resolutions')
  const properties: BodyProperties = {
    prompt,
    n: nSchema(model, 1),
    aspect_ratio: enumOrNull(catalogStrings(model, 'aspectRatios'), { description: 'wins over size' }),
    resolution: enumOrNull(resolutions, { description: 'wins over the tier derived from size' }),
    size: sizeSchema(['auto', ...resolutions, ...resolutions.map((r) => r.toUpperCase())], undefined, 'auto, a resolution, or <W>x<H> (mapped to the closest aspect_ratio and a resolution from the long edge)'),
    image: references(model, false),
    mask: false,
    ...familyFields,
  }
  // Edits need a reference (xai.md §2: editing takes the source image(s)); Kling has no edits endpoint.
  const oneOf = (field: string) => ({ required: [field], properties: { [field]: references(model, true) } })
  const needsReference = endpoint === 'edits' ? { allOf: [{ anyOf: [oneOf('image'), oneOf('images')] }] } : {}
  return { required: ['prompt'], properties, ...needsReference }
}
