import type { GatewayError } from '../../errors.js'
import type { VideoAdapter, VideoPoll, VideoSubmission } from '../../contract/video-upstream.js'
import { vendorError } from '../vendor-error.js'
import {
  asObject, bearer, failedPoll, inFlight, jsonGet, jsonPost, malformed, num, parseJson, str, succeededPoll,
  unknownWord, upstreamModel, withExtra, type Json,
} from './adapter-helpers.js'

/**
 * Volcengine Ark Seedance: `POST {baseUrl}/contents/generations/tasks`, poll `GET .../tasks/{id}`.
 * The account's base URL is the SDK's (`https://ark.cn-beijing.volces.com/api/v3`).
 * @see ../../../../docs/vendors/volcengine-ark.md §2
 *
 * Status words (Ark `status`):
 * | queued → queued | running → running | succeeded → succeeded (content.video_url) |
 * | failed → failed (error.code) | cancelled → canceled | expired → failed, code `expired` (ran past execution_expires_after) |
 */
export const ark: VideoAdapter = {
  toStart(sub, ctx) {
    const body = withExtra(sub.extra, {
      model: upstreamModel(ctx),
      content: contentOf(sub),
      // Top-level parameters (the newer style); the legacy `--rs 720p` prompt suffix is left to clients who want it.
      resolution: sub.resolution,
      ratio: sub.aspect_ratio,
      duration: sub.duration,
      seed: sub.seed,
    })
    return jsonPost(`${ctx.upstream.baseUrl}/contents/generations/tasks`, bearer(ctx.upstream.apiKey), body)
  },

  fromStart(body) {
    const obj = asObject(body)
    if (obj?.error) throw fromArkErrorObject(undefined, obj.error)
    const id = str(obj?.id)
    if (id === undefined) throw malformed('the Ark create answer has no id')
    return id
  },

  toPoll: (taskId, ctx) =>
    jsonGet(`${ctx.upstream.baseUrl}/contents/generations/tasks/${encodeURIComponent(taskId)}`, bearer(ctx.upstream.apiKey)),

  fromPoll(body): VideoPoll {
    const task = asObject(body)
    const status = str(task?.status)
    if (task === undefined || status === undefined) throw malformed('the Ark task has no status')
    switch (status) {
      case 'queued': return inFlight('queued', status)
      case 'running': return inFlight('running', status)
      case 'succeeded': {
        const url = str(asObject(task.content)?.video_url)
        return succeededPoll(status, url ? [url] : [], secondsOf(task))
      }
      case 'failed': {
        const error = asObject(task.error)
        return failedPoll(status, str(error?.code) ?? 'task_failed', str(error?.message) ?? 'the Ark task failed')
      }
      case 'cancelled': case 'canceled': return failedPoll(status, 'canceled', 'the Ark task was cancelled', 'canceled')
      // Never started within execution_expires_after: a failure (not billed), not a cancellation by anyone.
      case 'expired': return failedPoll(status, 'expired', 'the Ark task expired before it ran')
      default: return unknownWord(status)
    }
  },

  fromError: (status, text) => fromArkErrorObject(status, asObject(parseJson(text))?.error),
}

const ROLE: Record<NonNullable<VideoSubmission['images']>[number]['role'], string> = {
  first_frame: 'first_frame',
  last_frame: 'last_frame',
  reference: 'reference_image',
}

/** Text first, then each image with its Ark role. */
function contentOf(sub: VideoSubmission): Json[] {
  const content: Json[] = []
  if (sub.prompt !== undefined && sub.prompt !== '') content.push({ type: 'text', text: sub.prompt })
  for (const image of sub.images ?? []) content.push({ type: 'image_url', image_url: { url: image.url }, role: ROLE[image.role] })
  return content
}

/** Ark echoes either `duration` or `frames` (with `framespersecond`). */
function secondsOf(task: Json): number | undefined {
  const duration = num(task.duration)
  if (duration !== undefined && duration > 0) return duration
  const frames = num(task.frames)
  const fps = num(task.framespersecond)
  return frames !== undefined && fps ? frames / fps : undefined
}

/** Ark's error `type` names the HTTP status; used when the status itself is not at hand (an error inside a 200). */
const STATUS_OF_TYPE: Record<string, number> = {
  BadRequest: 400, Unauthorized: 401, Forbidden: 403, NotFound: 404, TooManyRequests: 429, InternalServerError: 500,
}

/** `{"error":{"code","message","param","type"}}` into a GatewayError. */
function fromArkErrorObject(status: number | undefined, error: unknown): GatewayError {
  const e = asObject(error)
  const resolved = status ?? STATUS_OF_TYPE[str(e?.type) ?? ''] ?? 502
  return vendorError(resolved, str(e?.code), str(e?.message))
}
