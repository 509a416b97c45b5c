// Fake DashScope native video upstream (Wan / HappyHorse). Wire shapes follow ../../../docs/vendors/dashscope.md §1:
// create needs `X-DashScope-Async: enable`, answers {output:{task_id,task_status:"PENDING"},request_id}; polls at
// /api/v1/tasks/{id} walk PENDING → RUNNING → SUCCEEDED|FAILED; unknown ids answer UNKNOWN with HTTP 200.
import {
  answer, bearerOf, splitPath, startFakeVideoServer, type FakeCall, type FakeTask, type FakeVideoOptions,
  type FakeVideoServer, type Kit, type Reply, type Step,
} from './task-script.js'

export interface FakeDashScopeOptions extends FakeVideoOptions {
  apiKey?: string
}

const REQUEST_ID = '4909100c-7b5a-9f92-bfe5-fake'

const CODE_OF_STATUS: Record<number, [string, string]> = {
  400: ['InvalidParameter', 'The parameter is invalid.'],
  401: ['InvalidApiKey', 'Invalid API-key provided.'],
  403: ['AccessDenied', 'Access denied.'],
  429: ['Throttling.RateQuota', 'Requests rate limit exceeded, please try again later.'],
}

/** Native errors are flat: `{request_id, code, message}`. */
export function dashScopeError(status: number, code?: string, message?: string) {
  const [defaultCode, defaultMessage] = CODE_OF_STATUS[status] ?? ['InternalError', 'An internal error has occured, please try again later.']
  return { request_id: REQUEST_ID, code: code ?? defaultCode, message: message ?? defaultMessage }
}

export async function startFakeDashScope(opts: FakeDashScopeOptions = {}): Promise<FakeVideoServer> {
  const apiKey = opts.apiKey ?? 'sk-dashscope-test'
  return startFakeVideoServer({
    errorBody: (status) => dashScopeError(status),
    route(call, kit) {
      if (bearerOf(call) !== apiKey) return answer(401, dashScopeError(401))
      const { path } = splitPath(call)
      if (call.method === 'POST' && path === '/api/v1/services/aigc/video-generation/video-synthesis') return create(call, kit)
      const poll = /^\/api\/v1\/tasks\/([^/]+)$/.exec(path)
      if (call.method === 'GET' && poll) return query(decodeURIComponent(poll[1]), kit)
      return undefined
    },
  }, opts)
}

function create(call: FakeCall, kit: Kit): Reply {
  // Video synthesis is async-only: without the header DashScope refuses the call.
  if (call.headers['x-dashscope-async'] !== 'enable') {
    return answer(403, dashScopeError(403, 'AccessDenied', 'current user api does not support synchronous calls'))
  }
  const canned = kit.startOverride()
  if (canned) return canned
  const body = call.body ?? {}
  if (typeof body.model !== 'string') return answer(400, dashScopeError(400, 'BadRequest.EmptyModel', 'Required parameter(model) missing or invalid'))
  if (typeof body.input !== 'object' || body.input === null) return answer(400, dashScopeError(400, 'BadRequest.EmptyInput', 'Required input missing'))
  const parameters = body.parameters ?? {}
  const task = kit.create({ duration: parameters.duration ?? 5, resolution: parameters.resolution ?? '1080P' },
    (n) => `0385dc79-5ff8-4d82-bcb6-${String(n).padStart(12, '0')}`)
  return answer(200, { output: { task_id: task.id, task_status: 'PENDING' }, request_id: REQUEST_ID })
}

function query(id: string, kit: Kit): Reply {
  const polled = kit.poll(id)
  // Ids that do not exist (or have expired) answer UNKNOWN, still with HTTP 200.
  if (polled === undefined) return answer(200, { request_id: REQUEST_ID, output: { task_id: id, task_status: 'UNKNOWN' } })
  if ('reply' in polled) return polled.reply
  return answer(200, taskBody(polled.task, polled.step, kit))
}

const WORD: Record<Step['kind'], string> = {
  queued: 'PENDING', running: 'RUNNING', succeeded: 'SUCCEEDED', failed: 'FAILED', canceled: 'CANCELED', expired: 'UNKNOWN', vendor: '',
}

function taskBody(task: FakeTask, step: Step, kit: Kit) {
  const output: Record<string, unknown> = {
    task_id: task.id,
    task_status: step.kind === 'vendor' ? step.word : WORD[step.kind],
    submit_time: '2025-09-29 14:18:52.331',
  }
  if (step.kind === 'succeeded') {
    Object.assign(output, { scheduled_time: '2025-09-29 14:18:59.290', end_time: '2025-09-29 14:23:39.407', video_url: kit.videoUrl(task) })
    const sr = Number(String(task.meta.resolution).replace(/\D/g, '')) || 1080
    const usage = { duration: task.meta.duration, output_video_duration: task.meta.duration, video_count: 1, SR: sr }
    return { request_id: REQUEST_ID, output, usage }
  }
  if (step.kind === 'failed') {
    Object.assign(output, { end_time: '2025-09-29 14:20:00.000', code: step.code ?? 'DataInspectionFailed', message: 'Output data may contain inappropriate content.' })
  }
  return { request_id: REQUEST_ID, output }
}
