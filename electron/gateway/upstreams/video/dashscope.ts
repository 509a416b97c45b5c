import type { GatewayError } from '../../errors.js'
import type { UpstreamCtx } from '../../contract/upstream.js'
import type { VideoAdapter, VideoPoll, VideoSubmission } from '../../contract/video-upstream.js'
import { vendorError } from '../vendor-error.js'
import {
  asObject, bearer, failedPoll, hostRoot, imagesOf, inFlight, jsonGet, jsonPost, malformed, num, onlyRoles, parseJson,
  str, succeededPoll, unknownWord, unsupported, upperTier, upstreamModel, type Json,
} from './adapter-helpers.js'

/**
 * DashScope Wan (and HappyHorse) native async API:
 * `POST /api/v1/services/aigc/video-generation/video-synthesis` with `X-DashScope-Async: enable`, poll `GET /api/v1/tasks/{id}`.
 * The account's base URL is the host root (`https://dashscope.aliyuncs.com`), as for the compatible-mode chat adapter.
 * @see ../../../../docs/vendors/dashscope.md §1
 *
 * Status words (`output.task_status`):
 * | PENDING → queued | RUNNING → running | SUCCEEDED → succeeded (output.video_url) | FAILED → failed (output.code) |
 * | CANCELED → canceled | UNKNOWN → failed, code `task_not_found`: DashScope's word for an id that does not exist
 *   or has expired (ids live 24 h), so waiting longer cannot help |
 */
export const dashscope: VideoAdapter = {
  toStart(sub, ctx) {
    const { input, parameters } = isHappyHorse(ctx) ? happyHorseBody(sub) : wanBody(sub)
    const body = { model: upstreamModel(ctx), ...withNativeExtra(sub.extra, input, parameters) }
    const headers = { ...bearer(ctx.upstream.apiKey), 'X-DashScope-Async': 'enable' }
    return jsonPost(`${root(ctx)}/api/v1/services/aigc/video-generation/video-synthesis`, headers, body)
  },

  fromStart(body) {
    const id = str(outputOf(body).task_id)
    if (id === undefined) throw malformed('the DashScope create answer has no output.task_id')
    return id
  },

  toPoll: (taskId, ctx) =>
    // The async header belongs to the create call only.
    jsonGet(`${root(ctx)}/api/v1/tasks/${encodeURIComponent(taskId)}`, bearer(ctx.upstream.apiKey)),

  fromPoll(body): VideoPoll {
    const output = outputOf(body)
    const status = str(output.task_status)
    if (status === undefined) throw malformed('the DashScope task has no output.task_status')
    switch (status) {
      case 'PENDING': return inFlight('queued', status)
      case 'RUNNING': return inFlight('running', status)
      case 'SUCCEEDED': {
        const url = str(output.video_url)
        return succeededPoll(status, url ? [url] : [], secondsOf(asObject(asObject(body)?.usage)))
      }
      case 'FAILED': return failedPoll(status, str(output.code) ?? 'task_failed', str(output.message) ?? 'the DashScope task failed')
      case 'CANCELED': return failedPoll(status, 'canceled', 'the DashScope task was canceled', 'canceled')
      case 'UNKNOWN': return failedPoll(status, 'task_not_found', 'DashScope does not know this task (unknown or expired id)')
      default: return unknownWord(status)
    }
  },

  fromError(status, text) {
    const body = asObject(parseJson(text))
    // Native errors are flat `{request_id, code, message}`; compatible-mode ones nest under `error`.
    const error = asObject(body?.error) ?? body
    return vendorError(status, str(error?.code), str(error?.message))
  },
}

/** Host root; a base URL given as the SDK's `.../api/v1` works too. */
const root = (ctx: UpstreamCtx): string => hostRoot(ctx.upstream.baseUrl, /\/api\/v1$/)

const isHappyHorse = (ctx: UpstreamCtx): boolean => /^happyhorse/i.test(upstreamModel(ctx))

interface NativeBody { input: Json; parameters: Json }

/** Wan: text only, first frame (`img_url`), or first + last frame (kf2v models). */
function wanBody(sub: VideoSubmission): NativeBody {
  onlyRoles(sub, ['first_frame', 'last_frame'], 'Wan')
  const [first] = imagesOf(sub, 'first_frame')
  const [last] = imagesOf(sub, 'last_frame')
  if (last !== undefined && first === undefined) throw unsupported('Wan needs a first_frame image with a last_frame image')
  const input: Json = { prompt: sub.prompt }
  if (last !== undefined) Object.assign(input, { first_frame_url: first, last_frame_url: last })
  else if (first !== undefined) input.img_url = first
  return {
    input,
    parameters: {
      resolution: upperTier(sub.resolution),
      // With an input picture the aspect follows the picture; the ratio is a text-to-video parameter.
      ratio: first === undefined ? sub.aspect_ratio : undefined,
      duration: sub.duration,
      seed: sub.seed,
    },
  }
}

/** HappyHorse takes its pictures as `input.media[]` items. */
function happyHorseBody(sub: VideoSubmission): NativeBody {
  onlyRoles(sub, ['first_frame', 'reference'], 'HappyHorse')
  const media = (sub.images ?? []).map((i) => ({ type: i.role === 'first_frame' ? 'first_frame' : 'reference_image', url: i.url }))
  return {
    input: { prompt: sub.prompt, media: media.length > 0 ? media : undefined },
    parameters: { resolution: upperTier(sub.resolution), duration: sub.duration, ratio: sub.aspect_ratio, seed: sub.seed },
  }
}

/**
 * DashScope's body has only `model`, `input` and `parameters` at the top, so an unknown client field is a
 * parameter (`prompt_extend`, `watermark`, `audio` …); `input` / `parameters` objects sent as such are merged.
 * Our own values win over duplicates, and undefined ones are left out.
 */
function withNativeExtra(extra: Json, input: Json, parameters: Json): NativeBody {
  const { input: extraInput, parameters: extraParameters, ...rest } = extra
  return {
    input: merge({ ...asObject(extraInput) }, input),
    parameters: merge({ ...rest, ...asObject(extraParameters) }, parameters),
  }
}

function merge(into: Json, ours: Json): Json {
  for (const [k, v] of Object.entries(ours)) if (v !== undefined) into[k] = v
  return into
}

/** `output` of an answer; a top-level `code` with no output is an error envelope (even with HTTP 200). */
function outputOf(body: unknown): Json {
  const obj = asObject(body)
  const output = asObject(obj?.output)
  if (output) return output
  if (str(obj?.code)) throw dashScopeCodeError(str(obj?.code)!, str(obj?.message))
  throw malformed('the DashScope answer has no output')
}

/** Produced seconds: newer models report `output_video_duration` / `duration`, older ones `video_duration`. */
function secondsOf(usage: Json | undefined): number | undefined {
  return num(usage?.output_video_duration) ?? num(usage?.duration) ?? num(usage?.video_duration)
}

/** DashScope's HTTP status for an error code (its error table), for a code that arrives inside an HTTP 200. */
function statusOfCode(code: string): number {
  if (code === 'InvalidApiKey') return 401
  if (code.startsWith('AccessDenied')) return 403
  if (code.startsWith('Throttling')) return 429
  if (code === 'RequestTimeOut') return 408
  if (code === 'BadRequest.TooLarge') return 413
  if (code.startsWith('InternalError')) return 500
  return 400 // InvalidParameter*, DataInspectionFailed, BadRequest.*, InvalidURL, Arrearage …
}

const dashScopeCodeError = (code: string, message: string | undefined): GatewayError => vendorError(statusOfCode(code), code, message)
