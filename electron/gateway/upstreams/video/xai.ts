import type { VideoAdapter, VideoPoll } from '../../contract/video-upstream.js'
import { vendorError } from '../vendor-error.js'
import {
  asObject, bearer, failedPoll, idOf, imagesOf, inFlight, jsonGet, jsonPost, malformed, num, onlyRoles, parseJson, str,
  succeededPoll, unknownWord, upstreamModel, withExtra,
} from './adapter-helpers.js'

/**
 * xAI Grok Imagine video (deferred requests): `POST {baseUrl}/videos/generations` → `request_id`,
 * poll `GET {baseUrl}/videos/{request_id}`. The account's base URL is the SDK's (`https://api.x.ai/v1`).
 * Both outcomes of a finished job come with HTTP 200; `status` tells them apart.
 * @see ../../../../docs/vendors/xai.md §3
 *
 * Status words (`status`):
 * | pending → running (xAI's one in-flight word) | queued → queued | processing → running |
 * | done → succeeded (video.url; withheld by moderation without a URL → failed `empty_output`) |
 * | failed → failed (error.code) | expired → failed, code `expired` (the result is no longer available) |
 */
export const xai: VideoAdapter = {
  toStart(sub, ctx) {
    onlyRoles(sub, ['first_frame'], 'Grok')
    const [first] = imagesOf(sub, 'first_frame')
    const body = withExtra(sub.extra, {
      model: upstreamModel(ctx),
      prompt: sub.prompt,
      duration: sub.duration,
      aspect_ratio: sub.aspect_ratio,
      resolution: sub.resolution,
      image: first === undefined ? undefined : { url: first },
      // xAI documents no seed for video: dropped.
    })
    return jsonPost(`${ctx.upstream.baseUrl}/videos/generations`, bearer(ctx.upstream.apiKey), body)
  },

  fromStart(body) {
    const id = idOf(asObject(body)?.request_id)
    if (id === undefined) throw malformed('the xAI create answer has no request_id')
    return id
  },

  toPoll: (taskId, ctx) => jsonGet(`${ctx.upstream.baseUrl}/videos/${encodeURIComponent(taskId)}`, bearer(ctx.upstream.apiKey)),

  fromPoll(body): VideoPoll {
    const obj = asObject(body)
    if (obj === undefined) throw malformed('the xAI video answer is not a JSON object')
    // An answer with only the request id (older behaviour, HTTP 202) means the job is not done yet.
    const status = str(obj.status) ?? (obj.request_id !== undefined ? 'pending' : undefined)
    if (status === undefined) throw malformed('the xAI video answer has no status')
    const progress = num(obj.progress)
    switch (status) {
      case 'queued': return inFlight('queued', status, progress)
      case 'pending': case 'processing': return inFlight('running', status, progress)
      case 'done': {
        const video = asObject(obj.video)
        const url = str(video?.url)
        return succeededPoll(status, url ? [url] : [], num(video?.duration))
      }
      case 'failed': {
        const error = asObject(obj.error)
        return failedPoll(status, str(error?.code) ?? 'task_failed', str(error?.message) ?? 'the xAI video job failed')
      }
      case 'expired': return failedPoll(status, 'expired', 'the xAI video job expired')
      default: return unknownWord(status)
    }
  },

  fromError(status, text) {
    const body = asObject(parseJson(text))
    // xAI's body is flat `{code: "<gRPC status text>", error: "<message>"}`; OpenAI-shaped surfaces nest it.
    const nested = asObject(body?.error)
    if (nested) return vendorError(status, str(nested.code), str(nested.message))
    const message = str(body?.error)
    // xAI refuses a bad key with 400; as 401 it reads as the account's credentials, which callers fail over on.
    const resolved = status === 400 && /api key/i.test(message ?? '') ? 401 : status
    return vendorError(resolved, str(body?.code), message)
  },
}
