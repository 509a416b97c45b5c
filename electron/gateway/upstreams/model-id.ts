import type { UpstreamCtx } from '../contract/upstream.js'

/** The model id the vendor knows (catalog `upstreamModel`, else the catalog id). */
export const upstreamModel = (ctx: Pick<UpstreamCtx, 'model'>): string =>
  typeof ctx.model.upstreamModel === 'string' ? ctx.model.upstreamModel : ctx.model.id
