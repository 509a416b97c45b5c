/**
 * The normalized image request (spec §4.2) as every image family ends its rule: who asked and for what, the
 * family's own fields, the references, how it is delivered and what is forwarded. The family checks; this builds.
 */
import type { CatalogModel } from '../../../../shared/types.js'
import type { ImageCheckOptions, NormalizedImageRequest } from '../../contract/image-request.js'
import type { Obj } from './image-fields.js'
import type { References } from './image-references.js'

/** The fields a family sets when it has them, in the contract's order; one left undefined is not sent. */
const OPTIONAL = ['size', 'tier', 'resolution', 'aspectRatio', 'outputFormat', 'background', 'quality', 'outputCompression'] as const

type Optional = Partial<Pick<NormalizedImageRequest, (typeof OPTIONAL)[number] | 'mask'>>

export interface ImageRequestParts extends Optional {
  prompt: string
  n: number
  refs: References
  /** `stream` as read: a 202 task answers at once, so there is no stream to keep open. */
  stream: boolean
  /** false for a family that answers synchronously whatever Prefer says (Seedream); else the route's. */
  async?: false
  /** The body without the fields the family consumed or dropped. */
  forward: Obj
}

function definedOnly(parts: ImageRequestParts): Optional {
  const out: Record<string, unknown> = {}
  for (const key of OPTIONAL) if (parts[key] !== undefined) out[key] = parts[key]
  return out
}

export function normalizedImageRequest(model: CatalogModel, opts: ImageCheckOptions, parts: ImageRequestParts): NormalizedImageRequest {
  const async = parts.async ?? opts.async
  return {
    model: model.id,
    family: model.family,
    endpoint: opts.endpoint,
    prompt: parts.prompt,
    n: parts.n,
    ...definedOnly(parts),
    references: parts.refs.references,
    referenceCount: parts.refs.count,
    ...(parts.mask !== undefined ? { mask: parts.mask } : {}),
    stream: parts.stream && !async,
    async,
    forward: parts.forward,
  }
}
