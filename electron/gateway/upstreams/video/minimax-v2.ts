import type { HttpSpec } from '../../http.js'
import type { UpstreamCtx } from '../types.js'
import type { VideoPoll, VideoSubmission } from './types.js'
import {
  asObject, bearer, failedPoll, idOf, inFlight, jsonGet, jsonPost, num, str, succeededPoll, unknownWord, upperTier,
  upstreamModel, withExtra, type Json,
} from './common.js'

/**
 * MiniMax's v2 video contract (H3 / Hailuo-03 class models): a content array like Ark's, and a query answer that
 * carries the video URL itself (no file step).
 * @see ../../../../docs/vendors/minimax.md "Newer v2 contract"; platform.minimax.io api-reference video-generation-v2-query
 *
 * Status words (`task.status`):
 * | queued → queued | running → running | succeeded → succeeded (content.url) | failed → failed (error.code) |
 * | cancelled → canceled | expired → failed, code `expired` |
 */

/** Models on the v2 contract: the H series (MiniMax-H3 …); Hailuo 02 / 2.3 stay on v1. */
export const isV2Model = (ctx: UpstreamCtx): boolean => /^MiniMax-H\d/i.test(upstreamModel(ctx))

const ROLE = { first_frame: 'first_frame', last_frame: 'last_frame', reference: 'reference_image' } as const

export function v2Start(sub: VideoSubmission, ctx: UpstreamCtx, root: string): HttpSpec {
  const content: Json[] = []
  if (sub.prompt) content.push({ type: 'text', text: sub.prompt })
  for (const image of sub.images ?? []) content.push({ type: 'image_url', image_url: { url: image.url }, role: ROLE[image.role] })
  const body = withExtra(sub.extra, {
    model: upstreamModel(ctx),
    content,
    resolution: upperTier(sub.resolution), // 768P | 2K
    duration: sub.duration,
    ratio: sub.aspect_ratio,
    // No seed in the v2 contract: dropped.
  })
  return jsonPost(`${root}/v2/video_generation`, bearer(ctx.upstream.apiKey), body)
}

export const v2Poll = (taskId: string, ctx: UpstreamCtx, root: string): HttpSpec =>
  jsonGet(`${root}/v2/query/video_generation/${encodeURIComponent(taskId)}`, bearer(ctx.upstream.apiKey))

/** The `task` object of a v2 query answer. */
export function fromV2Task(task: Json): VideoPoll {
  const status = str(task.status) ?? ''
  switch (status) {
    case 'queued': return inFlight('queued', status)
    case 'running': return inFlight('running', status)
    case 'succeeded': {
      const content = asObject(task.content)
      const url = str(content?.url)
      return succeededPoll(status, url ? [url] : [], num(content?.duration) ?? num(asObject(task.usage)?.output_seconds))
    }
    case 'failed': {
      const error = asObject(task.error)
      return failedPoll(status, idOf(error?.code) ?? 'task_failed', str(error?.message) ?? 'the MiniMax task failed')
    }
    case 'cancelled': case 'canceled': return failedPoll(status, 'canceled', 'the MiniMax task was cancelled', 'canceled')
    case 'expired': return failedPoll(status, 'expired', 'the MiniMax task expired')
    default: return unknownWord(status)
  }
}
