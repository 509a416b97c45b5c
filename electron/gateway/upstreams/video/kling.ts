import { parseDataUrl } from '../../formats/data-url.js'
import type { GatewayError } from '../../errors.js'
import type { UpstreamCtx } from '../../contract/upstream.js'
import type { VideoAdapter, VideoPoll, VideoSubmission } from '../../contract/video-upstream.js'
import { klingAuth } from '../kling-jwt.js'
import { vendorError } from '../vendor-error.js'
import {
  asObject, failedPoll, hostRoot, idOf, imagesOf, inFlight, jsonGet, jsonPost, malformed, num, onlyRoles, parseJson, str,
  succeededPoll, unknownWord, unsupported, upstreamModel, withExtra, type Json,
} from './adapter-helpers.js'

/**
 * Kling video: `POST /v1/videos/{text2video|image2video}`, poll `GET` the same path `/{task_id}`.
 * Every answer is the envelope `{code, message, request_id, data}` with `code` 0 for success.
 * The task id handed to callers is `<family>/<vendor id>`, because the poll must use the create call's family.
 * @see ../../../../docs/vendors/kling.md "Video", "Errors"
 *
 * Status words (`data.task_status`):
 * | submitted → queued | processing → running | succeed → succeeded (task_result.videos[].url) | failed → failed |
 * Kling has no cancel or expiry word; anything else is taken as still running.
 */
export const kling: VideoAdapter = {
  toStart(sub, ctx, now) {
    const family = familyOf(sub)
    const body = withExtra(sub.extra, { model_name: upstreamModel(ctx), prompt: sub.prompt, ...framesOf(sub), ...paramsOf(sub, family) })
    return jsonPost(`${root(ctx)}/v1/videos/${family}`, klingAuth(ctx.upstream.apiKey, now), body)
  },

  fromStart(body, sub) {
    const data = dataOf(body)
    const id = idOf(data?.task_id)
    if (id === undefined) throw malformed('the Kling create answer has no data.task_id')
    return `${familyOf(sub)}/${id}`
  },

  toPoll(taskId, ctx, now) {
    const { family, id } = splitTaskId(taskId)
    return jsonGet(`${root(ctx)}/v1/videos/${family}/${encodeURIComponent(id)}`, klingAuth(ctx.upstream.apiKey, now))
  },

  fromPoll(body): VideoPoll {
    const data = dataOf(body)
    const status = str(data?.task_status)
    if (data === undefined || status === undefined) throw malformed('the Kling task has no task_status')
    switch (status) {
      case 'submitted': return inFlight('queued', status)
      case 'processing': return inFlight('running', status)
      case 'succeed': {
        const videos = (asObject(data.task_result)?.videos ?? []) as unknown[]
        const urls = videos.map((v) => str(asObject(v)?.url)).filter((u): u is string => u !== undefined)
        // `duration` is a string of produced seconds ("5.1"); the first clip is the one generated.
        return succeededPoll(status, urls, num(asObject(videos[0])?.duration))
      }
      case 'failed': return failedPoll(status, 'task_failed', str(data.task_status_msg) ?? 'the Kling task failed')
      default: return unknownWord(status)
    }
  },

  fromError(status, text) {
    const body = asObject(parseJson(text))
    return vendorError(status, body?.code === undefined ? undefined : String(body.code), str(body?.message))
  },
}

type Family = 'text2video' | 'image2video'

/** Host root: the paths carry `/v1`, so a base URL given as `https://api-singapore.klingai.com/v1` still works. */
const root = (ctx: UpstreamCtx): string => hostRoot(ctx.upstream.baseUrl, /\/v1$/)

const familyOf = (sub: VideoSubmission): Family => ((sub.images ?? []).length > 0 ? 'image2video' : 'text2video')

function splitTaskId(taskId: string): { family: Family; id: string } {
  const m = /^(text2video|image2video)\/(.+)$/.exec(taskId)
  // A bare id (created outside this adapter) can only have been a text2video task or a guess; try text2video.
  return m ? { family: m[1] as Family, id: m[2] } : { family: 'text2video', id: taskId }
}

/** Kling takes an image as a URL or as raw base64 without the `data:` prefix. */
function klingImage(url: string): string {
  return parseDataUrl(url)?.payload ?? url
}

/** First frame → `image`, last frame → `image_tail`; Kling video has no reference-image field. */
function framesOf(sub: VideoSubmission): Json {
  if (!sub.images?.length) return {}
  onlyRoles(sub, ['first_frame', 'last_frame'], 'Kling')
  const [first] = imagesOf(sub, 'first_frame')
  const [last] = imagesOf(sub, 'last_frame')
  if (first === undefined) throw unsupported('Kling image-to-video needs a first_frame image')
  return { image: klingImage(first), image_tail: last === undefined ? undefined : klingImage(last) }
}

/** Catalog `qualityModes`: std renders 720p, pro 1080p. */
const MODE_OF_RESOLUTION: Record<string, string> = { '720p': 'std', '1080p': 'pro' }

function paramsOf(sub: VideoSubmission, family: Family): Json {
  return {
    mode: sub.resolution === undefined ? undefined : MODE_OF_RESOLUTION[sub.resolution.toLowerCase()],
    // Kling wants the duration as a string ("5").
    duration: sub.duration === undefined ? undefined : String(sub.duration),
    // image2video takes the picture's aspect; Kling documents aspect_ratio for text2video only.
    aspect_ratio: family === 'text2video' ? sub.aspect_ratio : undefined,
    // Kling video has no seed parameter: sub.seed is dropped rather than sent to be rejected.
  }
}

/** `data` of a success envelope; a non-zero `code` inside an HTTP 200 becomes the error its code stands for. */
function dataOf(body: unknown): Json | undefined {
  const envelope = asObject(body)
  const code = num(envelope?.code)
  if (code !== undefined && code !== 0) throw klingCodeError(code, str(envelope?.message))
  return asObject(envelope?.data)
}

/**
 * Kling's HTTP status for each business code (its error table; 1000–1102 confirmed from the official page,
 * the rest as commonly reproduced). Used when such a code arrives inside an HTTP 200.
 */
function statusOfCode(code: number): number {
  if (code >= 1000 && code <= 1004) return 401
  if (code >= 1100 && code <= 1102) return 429 // account in arrears / resource pack exhausted: fail over
  if (code === 1103) return 403
  if (code === 1202 || code === 1203) return 404
  if (code >= 1200 && code <= 1301) return 400
  if (code >= 1302 && code <= 1304) return 429
  return ({ 5000: 500, 5001: 503, 5002: 504 } as Record<number, number>)[code] ?? 502
}

/** A Kling business code as the error its code stands for (its HTTP status from Kling's table); the images adapter reads it too. */
export const klingCodeError = (code: number, message: string | undefined): GatewayError => vendorError(statusOfCode(code), String(code), message)
