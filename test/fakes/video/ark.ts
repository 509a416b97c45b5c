// Fake Volcengine Ark Seedance upstream (content-generation tasks). Wire shapes follow
// ../../../docs/vendors/volcengine-ark.md §2-3; base URL is `${url}/api/v3` like the real SDK's.
import {
  answer, bearerOf, splitPath, startFakeVideoServer, type FakeCall, type FakeTask, type FakeVideoOptions,
  type FakeVideoServer, type Kit, type Reply, type Step,
} from './task-script.js'

export interface FakeArkOptions extends FakeVideoOptions {
  apiKey?: string
}

const TYPE_OF_STATUS: Record<number, [string, string]> = {
  400: ['BadRequest', 'InvalidParameter'],
  401: ['Unauthorized', 'AuthenticationError'],
  404: ['NotFound', 'ResourceNotFound'],
  429: ['TooManyRequests', 'RateLimitExceeded.EndpointRPMExceeded'],
}

/** Ark's `{"error":{code,message,param,type}}`; the message ends with the request id, as Ark's do. */
export function arkError(status: number, message = `fake Ark error ${status}`, code?: string) {
  const [type, defaultCode] = TYPE_OF_STATUS[status] ?? ['InternalServerError', 'InternalServiceError']
  return { error: { code: code ?? defaultCode, message: `${message} Request id: 0217fake`, param: '', type } }
}

export async function startFakeArk(opts: FakeArkOptions = {}): Promise<FakeVideoServer> {
  const apiKey = opts.apiKey ?? 'ark-test-key'
  return startFakeVideoServer({
    errorBody: (status) => arkError(status),
    route(call, kit) {
      if (bearerOf(call) !== apiKey) {
        return answer(401, arkError(401, 'The API key or AK/SK in the request is missing or invalid.'))
      }
      const { path } = splitPath(call)
      if (call.method === 'POST' && path === '/api/v3/contents/generations/tasks') return create(call, kit)
      const poll = /^\/api\/v3\/contents\/generations\/tasks\/([^/]+)$/.exec(path)
      if (call.method === 'GET' && poll) return query(decodeURIComponent(poll[1]), kit)
      return undefined
    },
  }, opts)
}

function create(call: FakeCall, kit: Kit): Reply {
  const canned = kit.startOverride()
  if (canned) return canned
  const body = call.body ?? {}
  if (typeof body.model !== 'string') return answer(400, arkError(400, 'The parameter `model` is missing.', 'MissingParameter'))
  if (!Array.isArray(body.content) || body.content.length === 0) {
    return answer(400, arkError(400, 'The parameter `content` is missing.', 'MissingParameter'))
  }
  const task = kit.create({ model: body.model, duration: body.duration ?? 5, resolution: body.resolution ?? '720p', ratio: body.ratio ?? '16:9' },
    (n) => `cgt-20250831225712-${String(n).padStart(5, '0')}`)
  return answer(200, { id: task.id }) // only the id
}

function query(id: string, kit: Kit): Reply {
  const polled = kit.poll(id)
  if (polled === undefined) return answer(404, arkError(404, `The specified task ${id} is not found.`))
  if ('reply' in polled) return polled.reply
  return answer(200, taskBody(polled.task, polled.step, kit))
}

const ARK_WORD: Record<Step['kind'], string> = {
  queued: 'queued', running: 'running', succeeded: 'succeeded', failed: 'failed', canceled: 'cancelled', expired: 'expired', vendor: '',
}

function taskBody(task: FakeTask, step: Step, kit: Kit) {
  const status = step.kind === 'vendor' ? step.word : ARK_WORD[step.kind]
  const base = {
    id: task.id, model: task.meta.model, status, created_at: 1756652232, updated_at: 1756652290,
    seed: 11, resolution: task.meta.resolution, ratio: task.meta.ratio, duration: task.meta.duration, framespersecond: 24,
    service_tier: 'default', execution_expires_after: 172800, error: null as unknown,
  }
  if (step.kind === 'succeeded') {
    const tokens = Math.round((1280 * 720 * 24 * task.meta.duration) / 1024)
    return { ...base, content: { video_url: kit.videoUrl(task) }, usage: { completion_tokens: tokens, total_tokens: tokens } }
  }
  if (step.kind === 'failed') {
    const code = step.code ?? 'OutputVideoSensitiveContentDetected'
    return { ...base, error: { code, message: 'The request failed because the output video may contain sensitive information.' } }
  }
  return base
}
