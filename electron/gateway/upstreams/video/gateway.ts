import { forwardOriginal, fromGatewayError, gatewayModelName } from '../gateway-upstream.js'
import type { VideoAdapter, VideoPoll, VideoSubmission } from '../../contract/video-upstream.js'
import { asObject, bearer, failedPoll, inFlight, jsonGet, jsonPost, malformed, num, str, succeededPoll, unknownWord, type Json } from './adapter-helpers.js'
import { dashscope } from './dashscope.js'

/** Task ids of the native path carry this prefix, so that they are polled on the native path too. */
const NATIVE = 'native:'
const NATIVE_PATH = '/api/v1/services/aigc/video-generation/video-synthesis'

const isNative = (sub: VideoSubmission): boolean => sub.original?.path === NATIVE_PATH

/** The submission as a POST /v1/video/generate body, for a submission that did not come as a client request. */
function generateBody(sub: VideoSubmission): Json {
  const { extra, original: _original, ...fields } = sub
  return { ...extra, ...fields }
}

/** `GET /v1/video/tasks/{id}` of the upstream gateway (shared/schemas/video.ts `videoTaskObject`) as a poll result. */
function fromTaskObject(task: Json): VideoPoll {
  const status = str(task.status)
  if (status === undefined) throw malformed('the upstream gateway task has no status')
  const error = asObject(task.error)
  switch (status) {
    case 'queued': case 'running': return inFlight(status, status, num(task.progress))
    case 'succeeded': {
      const result = asObject(task.result)
      const videos = Array.isArray(result?.videos) ? result.videos.map((v) => str(asObject(v)?.url)).filter((u): u is string => u !== undefined) : []
      // What the upstream gateway billed: the seconds it reports in usage, else the seconds produced.
      return succeededPoll(status, videos, num(asObject(task.usage)?.seconds) ?? num(result?.seconds))
    }
    case 'failed': case 'canceled':
      return failedPoll(status, str(error?.code) ?? 'task_failed', str(error?.message) ?? `the upstream gateway task ${status}`, status)
    default: return unknownWord(status)
  }
}

/**
 * Video on another gateway of this interface (vendor `gateway`): the client's submission goes unchanged to the same
 * path, but for its `model`: the model served as the account knows it (a fallback's id, or the account's own name) (`POST /v1/video/generate`, or the DashScope-native path), and the task is polled there with the account's
 * key (`GET /v1/video/tasks/{id}`, or `GET /api/v1/tasks/{id}` for a native one, answered in DashScope's shape).
 */
export const gatewayVideo: VideoAdapter = {
  toStart: (sub, ctx) =>
    sub.original
      ? forwardOriginal(ctx.upstream, sub.original, gatewayModelName(ctx))
      : jsonPost(`${ctx.upstream.baseUrl}/v1/video/generate`, bearer(ctx.upstream.apiKey), { ...generateBody(sub), model: gatewayModelName(ctx) }),

  fromStart(body, sub) {
    if (isNative(sub)) return NATIVE + dashscope.fromStart(body, sub)
    const id = str(asObject(body)?.task_id)
    if (id === undefined) throw malformed('the upstream gateway answered no task_id')
    return id
  },

  toPoll(taskId, { upstream }) {
    const native = taskId.startsWith(NATIVE)
    const id = encodeURIComponent(native ? taskId.slice(NATIVE.length) : taskId)
    return jsonGet(`${upstream.baseUrl}${native ? `/api/v1/tasks/${id}` : `/v1/video/tasks/${id}`}`, bearer(upstream.apiKey))
  },

  // A native answer has `output` (DashScope's shape, read as the Wan adapter reads it); the other is a video.task.
  fromPoll: (body) => (asObject(asObject(body)?.output) ? dashscope.fromPoll(body) : fromTaskObject(asObject(body) ?? {})),

  fromError: fromGatewayError,
}
