import type { UpstreamCtx } from '../contract/upstream.js'

/**
 * The model id the vendor knows: the account's own name for it (`upstreams[].models` mapping), else the catalog's
 * `upstreamModel`, else the catalog id.
 */
export const upstreamModel = (ctx: Pick<UpstreamCtx, 'model' | 'upstream'>): string =>
  ctx.upstream.modelNames?.get(ctx.model.id) ?? (typeof ctx.model.upstreamModel === 'string' ? ctx.model.upstreamModel : ctx.model.id)
