import type { GatewayError } from '../../errors.js'
import type { HttpSpec } from '../../contract/http-spec.js'
import type { UpstreamCtx } from '../../contract/upstream.js'
import type { VideoAdapter, VideoPoll, VideoSubmission } from '../../contract/video-upstream.js'
import { vendorError } from '../vendor-error.js'
import {
  asObject, bearer, failedPoll, hostRoot, idOf, imagesOf, inFlight, jsonGet, jsonPost, malformed, num, onlyRoles,
  parseJson, str, succeededPoll, unknownWord, upperTier, upstreamModel, withExtra, type Json,
} from './adapter-helpers.js'

/**
 * MiniMax Hailuo v1: `POST /v1/video_generation`, poll `GET /v1/query/video_generation?task_id=`, then
 * `GET /v1/files/retrieve?file_id=` for the download URL. H-series models use the v2 contract (below).
 * Every body carries `base_resp: {status_code, status_msg}`; a non-zero code is an error even with HTTP 200.
 * @see ../../../../docs/vendors/minimax.md
 *
 * Status words (v1 `status`):
 * | Preparing → queued | Queueing → queued | Processing → running | Success → succeeded (file_id; no URL yet) |
 * | Fail → failed (code: base_resp.status_code when non-zero, e.g. 1027 sensitive output) |
 */
export const minimax: VideoAdapter = {
  toStart(sub, ctx) {
    if (isV2Model(ctx)) return v2Start(sub, ctx, root(ctx))
    onlyRoles(sub, ['first_frame', 'last_frame', 'reference'], 'MiniMax')
    const references = imagesOf(sub, 'reference')
    const body = withExtra(sub.extra, {
      model: upstreamModel(ctx),
      prompt: sub.prompt,
      duration: sub.duration,
      resolution: upperTier(sub.resolution), // 512P | 768P | 1080P
      first_frame_image: imagesOf(sub, 'first_frame')[0],
      last_frame_image: imagesOf(sub, 'last_frame')[0],
      // Reference images are subject references (S2V-01 style).
      subject_reference: references.length > 0 ? [{ type: 'character', image: references }] : undefined,
      // v1 has no seed and no aspect ratio (the picture or the model decides): both dropped.
    })
    return jsonPost(`${root(ctx)}/v1/video_generation`, bearer(ctx.upstream.apiKey), body)
  },

  fromStart(body) {
    const obj = checked(body)
    const id = idOf(obj.task_id)
    if (id === undefined || id === '') throw malformed('the MiniMax create answer has no task_id')
    return id
  },

  toPoll: (taskId, ctx) => isV2Model(ctx)
    ? v2Poll(taskId, ctx, root(ctx))
    : jsonGet(`${root(ctx)}/v1/query/video_generation?task_id=${encodeURIComponent(taskId)}`, bearer(ctx.upstream.apiKey)),

  fromPoll(body): VideoPoll {
    const obj = asObject(body)
    const v2Task = asObject(obj?.task)
    if (v2Task) {
      checked(body)
      return fromV2Task(v2Task)
    }
    const status = str(obj?.status)
    // A failed task may carry its reason in base_resp, so only a body without a status is a call error.
    if (obj === undefined || status === undefined) {
      checked(body)
      throw malformed('the MiniMax query answer has no status')
    }
    switch (status) {
      case 'Preparing': case 'Queueing': return inFlight('queued', status)
      case 'Processing': return inFlight('running', status)
      case 'Success': {
        const fileId = idOf(obj.file_id)
        const url = str(obj.url) // some proxies add the URL directly; the file step is then not needed
        return succeededPoll(status, url ? [url] : [], undefined, url ? undefined : fileId)
      }
      case 'Fail': {
        // base_resp names the reason when it has one (1027: the output was flagged); its 0 "success" is no reason.
        const { code, message } = baseResp(obj)
        const reason = code !== undefined && code !== 0
        return failedPoll(status, reason ? String(code) : 'task_failed', (reason && message) || 'the MiniMax task failed')
      }
      default: return unknownWord(status)
    }
  },

  toFile: (fileId, ctx) =>
    jsonGet(`${root(ctx)}/v1/files/retrieve?file_id=${encodeURIComponent(fileId)}`, bearer(ctx.upstream.apiKey)),

  fromFile(body) {
    const url = str(asObject(checked(body).file)?.download_url)
    if (url === undefined) throw malformed('the MiniMax file has no download_url')
    return url
  },

  fromError(status, text) {
    const body = asObject(parseJson(text))
    const { code, message } = baseResp(body ?? {})
    return vendorError(status, code === undefined ? undefined : String(code), message ?? str(body?.message))
  },
}

/** Host root: MiniMax paths carry their version, and its OpenAI-style base URL ends in `/v1`. */
const root = (ctx: UpstreamCtx): string => hostRoot(ctx.upstream.baseUrl, /\/v1$/)

function baseResp(obj: Json): { code?: number; message?: string } {
  const base = asObject(obj.base_resp)
  return { code: num(base?.status_code), message: str(base?.status_msg) }
}

/** The body as an object when `base_resp` says success; a non-zero code throws the error it stands for. */
function checked(body: unknown): Json {
  const obj = asObject(body)
  if (obj === undefined) throw malformed('the MiniMax answer is not a JSON object')
  const { code, message } = baseResp(obj)
  if (code !== undefined && code !== 0) throw minimaxCodeError(code, message)
  return obj
}

/**
 * MiniMax answers business errors with HTTP 200; each code gets the status a client should see, so that
 * 429/5xx stay retryable and an account without credit (1008) is failed over like Kling's exhausted pack.
 */
const STATUS_OF_CODE: Record<number, number> = {
  1000: 500, // unknown error
  1001: 504, // timeout
  1002: 429, // rate limit
  1004: 401, // authentication failed
  1008: 429, // insufficient balance (the account's, not the client's): fail over
  1013: 500, // internal error
  1026: 400, // input flagged as sensitive
  1027: 400, // output flagged as sensitive
  2013: 400, // invalid parameters (also: unknown task id)
  2049: 401, // invalid API key
}

export const minimaxCodeError = (code: number, message: string | undefined): GatewayError =>
  vendorError(STATUS_OF_CODE[code] ?? 502, String(code), message)

// --- the v2 contract ---------------------------------------------------------------------------------------------

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
const isV2Model = (ctx: UpstreamCtx): boolean => /^MiniMax-H\d/i.test(upstreamModel(ctx))

const ROLE = { first_frame: 'first_frame', last_frame: 'last_frame', reference: 'reference_image' } as const

function v2Start(sub: VideoSubmission, ctx: UpstreamCtx, root: string): HttpSpec {
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

const v2Poll = (taskId: string, ctx: UpstreamCtx, root: string): HttpSpec =>
  jsonGet(`${root}/v2/query/video_generation/${encodeURIComponent(taskId)}`, bearer(ctx.upstream.apiKey))

/** The `task` object of a v2 query answer. */
function fromV2Task(task: Json): VideoPoll {
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
