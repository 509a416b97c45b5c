import { nativeVideoRequest, videoGenerateRequest } from '../../../shared/schemas/video.js'
import { admit, jsonAdmission, serveWithFallbacks } from '../admission.js'
import type { RequestContext } from '../context.js'
import { gatewayError } from '../errors.js'
import { decodeSegment } from '../guards/path-segment.js'
import { sendJson } from '../respond.js'
import { mediaHeaders, sendStored } from '../media/send-file.js'
import type { Services } from '../services.js'
import type { VideoTaskRow } from '../store/tasks.js'
import { checkOrder, generateOrder, nativeOrder, type VideoOrder } from '../tasks/video-request.js'
import { holdVideo, refusedShape, submitVideo, type VideoHold } from '../tasks/video-submit.js'
import { nativeCreated, nativeTaskView, videoTaskView } from '../tasks/video-view.js'
import { compileValidator } from '../validate.js'
import { videoQuote } from '../tasks/video-pricing.js'
import type { Quotable } from './quotable.js'

const REPLAYED = { 'idempotent-replayed': 'true' }

/** A video endpoint's admission: schema, model, the catalog's rules, the vendor's refusals, then the reservation. */
function videoAdmission(endpoint: 'video.generate' | 'video.native') {
  const native = endpoint === 'video.native'
  return jsonAdmission<VideoOrder, VideoHold>({
    endpoint,
    capability: 'video',
    validate: compileValidator(native ? nativeVideoRequest : videoGenerateRequest),
    rules: (body, model) => {
      const order = native ? nativeOrder(body) : generateOrder(body)
      checkOrder(order, model, native ? 'input' : 'images')
      return order
    },
    accounts: refusedShape,
    funds: (ctx, services, order, model, candidates) => holdVideo(ctx, services, order, model, endpoint, candidates),
  })
}

const GENERATE = videoAdmission('video.generate')
const NATIVE = videoAdmission('video.native')

const videoQuotable = (admission: typeof GENERATE): Quotable<VideoOrder> => ({ admission, price: async (order, model) => videoQuote(model, order) })
export const VIDEO_QUOTES = { generate: videoQuotable(GENERATE), native: videoQuotable(NATIVE) }

/**
 * POST /v1/video/generate: 202 with the new task (its id, status_url and reservation); 200 with the earlier task
 * and `idempotent_replay: true` when the same key sent the same body within 10 minutes, or the same Idempotency-Key.
 */
export async function videoGenerate(ctx: RequestContext, services: Services): Promise<void> {
  const { task, replay } = await serveWithFallbacks(ctx, services, GENERATE, await admit(ctx, services, GENERATE), (admitted) => submitVideo(ctx, services, admitted))
  const view = { ...videoTaskView(task, await services.store.media.byRequest(task.id), ctx.redact), idempotent_replay: replay }
  sendJson(ctx.res, replay ? 200 : 202, view, replay ? REPLAYED : {})
}

/** The calling key's video task, or 404 `task_not_found` (another key's task is not shown either). */
async function ownTask(ctx: RequestContext, services: Services, id: string): Promise<VideoTaskRow> {
  const task = await services.store.tasks.video.get(decodeSegment(id))
  if (!task || task.key_id !== ctx.key!.id) throw gatewayError('task_not_found', 'task_not_found', { id })
  return task
}

/** GET /v1/video/tasks/{task_id}: the stored task; no upstream call and no concurrency slot (spec §8). */
export async function videoTask(ctx: RequestContext, services: Services, params: string[]): Promise<void> {
  const task = await ownTask(ctx, services, params[0])
  sendJson(ctx.res, 200, videoTaskView(task, await services.store.media.byRequest(task.id), ctx.redact))
}

/** GET /v1/video/tasks/{task_id}/content[?index=n]: the saved copy, streamed, with Range support so players can seek. */
export async function videoContent(ctx: RequestContext, services: Services, params: string[]): Promise<void> {
  const task = await ownTask(ctx, services, params[0])
  const index = Number(new URLSearchParams((ctx.req.url ?? '').split('?')[1] ?? '').get('index') ?? 0)
  const media = (await services.store.media.byRequest(task.id)).find((m) => m.id === `${task.id}-${index}`)
  const file = media ? await services.media.read(media.path) : undefined
  if (!media || !file) throw gatewayError('video_content_not_available', 'video_content_not_ready', { id: task.id, index: String(index) })
  await sendStored(ctx, file, { ...mediaHeaders(media.mime_type), 'cache-control': 'private, max-age=86400' })
}

/**
 * POST /api/v1/services/aigc/video-generation/video-synthesis: DashScope's native body for `wan` models, answered
 * natively (`{request_id, output: {task_id, task_status}}`, HTTP 200 as DashScope does); same reservation,
 * duplicate guard, poller and settlement as /v1/video/generate.
 */
export async function nativeVideoSynthesis(ctx: RequestContext, services: Services): Promise<void> {
  const { task, replay } = await serveWithFallbacks(ctx, services, NATIVE, await admit(ctx, services, NATIVE), (admitted) => submitVideo(ctx, services, admitted))
  sendJson(ctx.res, 200, nativeCreated(ctx.id, task), replay ? REPLAYED : {})
}

/** GET /api/v1/tasks/{task_id}: DashScope's native task answer, built from the stored task. */
export async function nativeVideoTask(ctx: RequestContext, services: Services, params: string[]): Promise<void> {
  const id = decodeSegment(params[0])
  const task = await services.store.tasks.video.get(id)
  sendJson(ctx.res, 200, nativeTaskView(ctx.id, task?.key_id === ctx.key!.id ? task : undefined, id, ctx.redact))
}
