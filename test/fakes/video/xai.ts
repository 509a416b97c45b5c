// Fake xAI Grok Imagine video upstream. Wire shapes follow ../../../docs/vendors/xai.md §3-4: create returns only
// `request_id`; polls answer `pending` until `done` (video.url, duration) or `failed` (error object) / `expired`,
// all with HTTP 200; errors are flat `{code: "<gRPC status text>", error: "<message>"}`, and a bad key is a 400.
// Base URL is `${url}/v1` like the real SDK's.
import {
  answer, bearerOf, splitPath, startFakeVideoServer, type FakeCall, type FakeTask, type FakeVideoOptions,
  type FakeVideoServer, type Kit, type Reply, type Step,
} from './task-script.js'

export interface FakeXaiOptions extends FakeVideoOptions {
  apiKey?: string
}

const GRPC_TEXT: Record<number, string> = {
  400: 'Client specified an invalid argument',
  403: 'The caller does not have permission to execute the specified operation',
  404: 'Some requested entity was not found',
  429: 'Some resource has been exhausted',
  503: 'The service is currently unavailable',
}

export function xaiError(status: number, message = `fake xAI error ${status}`) {
  return { code: GRPC_TEXT[status] ?? 'Internal error', error: message }
}

export async function startFakeXai(opts: FakeXaiOptions = {}): Promise<FakeVideoServer> {
  const apiKey = opts.apiKey ?? 'xai-test-key'
  return startFakeVideoServer({
    errorBody: (status) => xaiError(status),
    route(call, kit) {
      const key = bearerOf(call)
      if (key !== apiKey) {
        return answer(400, xaiError(400, `Incorrect API key provided: ${(key ?? '').slice(0, 2)}***. You can obtain an API key from https://console.x.ai.`))
      }
      const { path } = splitPath(call)
      if (call.method === 'POST' && path === '/v1/videos/generations') return create(call, kit)
      const poll = /^\/v1\/videos\/([^/]+)$/.exec(path)
      if (call.method === 'GET' && poll) return query(decodeURIComponent(poll[1]), kit)
      return undefined
    },
  }, opts)
}

function create(call: FakeCall, kit: Kit): Reply {
  const canned = kit.startOverride()
  if (canned) return canned
  const body = call.body ?? {}
  if (typeof body.prompt !== 'string' || body.prompt === '') return answer(400, xaiError(400, 'prompt is required'))
  const duration = body.duration ?? 8
  if (typeof duration !== 'number' || duration < 1 || duration > 15) return answer(400, xaiError(400, 'duration must be between 1 and 15'))
  const task = kit.create({ model: body.model, duration }, (n) => `4b2cd27e-0b0d-3dec-c31c-${String(n).padStart(12, '0')}`)
  return answer(200, { request_id: task.id })
}

function query(id: string, kit: Kit): Reply {
  const polled = kit.poll(id)
  if (polled === undefined) return answer(404, xaiError(404, `Deferred request ${id} not found`))
  if ('reply' in polled) return polled.reply
  return answer(200, pollBody(polled.task, polled.step, kit))
}

function pollBody(task: FakeTask, step: Step, kit: Kit) {
  switch (step.kind) {
    case 'queued': return { status: 'pending' }
    case 'running': return step.progress === undefined ? { status: 'pending' } : { status: 'pending', progress: step.progress }
    case 'succeeded': return {
      status: 'done',
      model: task.meta.model,
      video: { url: kit.videoUrl(task), duration: task.meta.duration, respect_moderation: true },
      usage: { cost_in_usd_ticks: 500000000 * task.meta.duration },
    }
    case 'failed': return { status: 'failed', video: { duration: 0, respect_moderation: true }, model: '', error: { code: step.code ?? 'internal_error', message: 'Video generation failed.' } }
    case 'canceled': case 'expired': return { status: 'expired' }
    case 'vendor': return { status: step.word }
  }
}
