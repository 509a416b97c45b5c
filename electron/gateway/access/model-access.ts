import type { CatalogModel, Endpoint } from '../../../shared/types.js'
import { upstreamCapReached } from '../money/budget.js'
import { endpointsOf } from '../catalog/catalog.js'
import { gatewayError } from '../errors.js'
import type { Group, UpstreamAccount } from '../contract/accounts.js'
import type { Registry } from '../registry.js'
import { adapterFor } from '../upstreams/index.js'
import { imageAdapterFor } from '../upstreams/images/index.js'
import { videoAdapterFor } from '../upstreams/video/index.js'
import type { RelayCapability } from '../contract/upstream.js'

const ENDPOINT_PATHS: Record<Endpoint, string> = {
  'chat.completions': '/v1/chat/completions',
  responses: '/v1/responses',
  messages: '/v1/messages',
  'images.generations': '/v1/images/generations',
  'images.edits': '/v1/images/edits',
  'video.generate': '/v1/video/generate',
  'video.native': '/api/v1/services/aigc/video-generation/video-synthesis',
  interactions: '/v1beta/interactions',
  'audio.speech': '/v1/audio/speech',
}

/**
 * Spec §4.1/§5/§9: the model must be a current catalog model of the key's group that serves this endpoint.
 * Deprecated ids answer 400 naming the replacement; retired and foreign ids 404 `model_not_found`.
 */
export function resolveModel(registry: Registry, group: Group, value: unknown, endpoint: Endpoint): CatalogModel {
  const id = String(value)
  const model = registry.catalog.get(id)
  if (model?.deprecated) {
    throw gatewayError('model_deprecated', 'model_deprecated', { model: id, replacement: model.deprecated.replacement }, { param: 'model' })
  }
  if (model?.retired) throw gatewayError('model_not_found', 'model_retired', { model: id }, { param: 'model' })
  if (model === undefined || !group.modelSet.has(id)) throw gatewayError('model_not_found', 'model_not_found', { model: id }, { param: 'model' })
  if (!endpointsOf(model).includes(endpoint)) {
    if (model.type === 'image' && endpoint === 'chat.completions') throw gatewayError('unsupported_model_endpoint', 'image_model_on_chat', {}, { param: 'model' })
    throw gatewayError('unsupported_model_endpoint', 'model_endpoint_unsupported', { model: id, path: ENDPOINT_PATHS[endpoint] }, { param: 'model' })
  }
  return model
}

/** The accounts that can serve the model with the given capability; 404 (spec §7 rule 1) when there is none. */
export function upstreamsFor(
  registry: Registry,
  group: Group,
  model: CatalogModel,
  capability: RelayCapability | 'images' | 'video',
): UpstreamAccount[] {
  const serves = capability === 'images' ? (u: UpstreamAccount) => imageAdapterFor(u.vendor) !== undefined
    : capability === 'video' ? (u: UpstreamAccount) => videoAdapterFor(u.vendor) !== undefined
      : (u: UpstreamAccount) => adapterFor(u.vendor)?.[capability] !== undefined
  const candidates = registry.candidates(group, model, capability, serves)
  if (candidates.length === 0) throw gatewayError('model_not_found', 'model_no_account', { model: model.id }, { param: 'model' })
  // An account whose cap is reached is skipped; when none is left, the answer names them.
  const open = candidates.filter((u) => !upstreamCapReached(u))
  if (open.length === 0) throw gatewayError('insufficient_quota', 'upstream_budget_reached', { model: model.id, accounts: candidates.map((u) => u.id).join(', ') })
  return open
}

/** Models the key can call right now: in its group, current, and served by an account of the group. */
export function callableModels(registry: Registry, group: Group): CatalogModel[] {
  return group.models
    .map((id) => registry.catalog.get(id))
    .filter((m): m is CatalogModel => m !== undefined && !m.retired && !m.deprecated)
    .filter((m) => group.upstreams.some((id) => {
      const upstream = registry.upstreams.get(id)
      return upstream !== undefined && registry.serves(upstream, m)
    }))
}
