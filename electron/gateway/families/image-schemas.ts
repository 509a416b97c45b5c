/**
 * The per-model request-body schemas published at GET /spec/models/index.json (and read by the renderer's
 * controls through it): each image family module's `imageSchema` gives a model's fields on an endpoint;
 * this module wraps them in the model's envelope and lists every image model. The pieces and the generic
 * endpoint bodies are in shared/schemas/images.ts.
 */
import { catalogStrings } from '../../../shared/schemas/images.js'
import type { CatalogModel } from '../../../shared/types.js'
import type { ImageEndpoint } from '../contract/image-request.js'
import { familyModule } from './index.js'

/** The request-body schema of one image model on one endpoint, built from its catalog entry. */
export function imageModelSchema(model: CatalogModel, endpoint: ImageEndpoint): object {
  const build = familyModule(model.family).imageSchema
  if (!build) throw new Error(`${model.id} is not an image model`)
  const body = build(model, endpoint)
  const deprecated = model.deprecated ? ` Deprecated: use ${model.deprecated.replacement}.` : ''
  return {
    title: `${model.name ?? model.id}: POST /v1/images/${endpoint}`,
    description: `Request body for ${model.id} (${model.family}).${endpoint === 'edits' ? ' JSON or multipart/form-data with the same field names.' : ''} Fields not listed are forwarded unchanged.${deprecated}`,
    type: 'object',
    required: ['model', ...body.required],
    properties: { model: { const: model.id, title: 'Model' }, ...body.properties },
    ...(body.allOf ? { allOf: body.allOf } : {}),
    additionalProperties: true,
  }
}

const imageEndpoints = (m: CatalogModel): ImageEndpoint[] =>
  (m.endpoints ?? ['images.generations', 'images.edits']).flatMap((e) => (e === 'images.generations' ? ['generations' as const] : e === 'images.edits' ? ['edits' as const] : []))

/** GET /spec/models/index.json: every non-retired image model with its delivery modes and per-endpoint body schemas. */
export function imageSchemaIndex(models: CatalogModel[]): object {
  const entries = models
    .filter((m) => m.type === 'image' && !m.retired && familyModule(m.family).imageSchema)
    .map((m) => {
      const endpoints = imageEndpoints(m)
      const schemas = Object.fromEntries(endpoints.map((e) => [e, imageModelSchema(m, e)]))
      const delivery = catalogStrings(m, 'delivery')
      return [m.id, { family: m.family, endpoints, delivery, ...(m.deprecated ? { deprecated: m.deprecated } : {}), ...schemas }]
    })
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    version: '2026-09-25',
    description:
      'Per-image-model request-body JSON Schemas; x-image-size is a vocabulary keyword for <W>x<H> geometry (see imageSizeKeyword). ' +
      'delivery: how the model answers, in the order a client should prefer: async (Prefer: respond-async gives 202 and a task), stream (stream: true gives the images SSE), sync (one response).',
    models: Object.fromEntries(entries),
  }
}
