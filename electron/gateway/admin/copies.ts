import type { KeptCopy } from '../../../shared/kept-copy.js'
import type { RequestContext } from '../context.js'
import { retryImageCopy } from '../images/save-media.js'
import { copyTracker } from '../media/copy-tracker.js'
import { mediaItemOf } from '../media/media-item.js'
import { sendJson } from '../respond.js'
import type { Services } from '../services.js'
import { retryVideoCopies, videoCopies } from '../tasks/video-copies.js'
import { notFound, queryOf } from './admin-io.js'
import { requestParam } from './media.js'
import { integerParam } from './query-params.js'


/**
 * A request's (or video task's) kept copies of vendor links: a video task's from its task and media; an image
 * request's as this process tracks them, and those kept by an earlier process from the media store.
 */
async function copiesOf(services: Services, requestId: string): Promise<KeptCopy[]> {
  const media = await services.store.media.byRequest(requestId)
  const task = await services.store.tasks.video.get(requestId)
  if (task) return videoCopies(services, task, media)
  const tracked = copyTracker(services).list(requestId)
  const earlier: KeptCopy[] = media
    .filter((m) => m.kind === 'image' && m.source_url !== null && m.id.startsWith(`${requestId}-`) && !tracked.some((c) => c.media?.id === m.id))
    .map((m) => ({ requestId, index: Number(m.id.slice(requestId.length + 1)), kind: 'image', state: 'kept', sourceUrl: m.source_url, linkExpiresAt: null, attempts: 1, media: mediaItemOf(m) }))
  return [...tracked, ...earlier.filter((c) => Number.isInteger(c.index))].sort((a, b) => a.index - b.index)
}

/** GET /admin/v1/media-copies?request=: the state of each copy of a request's (or task's) linked results. */
export async function listCopies(ctx: RequestContext, services: Services): Promise<void> {
  sendJson(ctx.res, 200, await copiesOf(services, requestParam(ctx)))
}

/**
 * POST /admin/v1/media-copies/retry?request=&index=: tries a failed copy again now (a video task's download is due
 * again, its tries counted afresh); answers the request's copies. 404 when there is no failed copy to retry.
 */
export async function retryCopy(ctx: RequestContext, services: Services): Promise<void> {
  const requestId = requestParam(ctx)
  const index = integerParam(queryOf(ctx), 'index', 0, 99, 0)
  const task = await services.store.tasks.video.get(requestId)
  const started = task ? await retryVideoCopies(services, task) : retryImageCopy(services, requestId, index, services.log)
  if (!started) throw notFound('failed copy', `${requestId} #${index}`)
  sendJson(ctx.res, 200, await copiesOf(services, requestId))
}
