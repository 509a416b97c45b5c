// Fake MiniMax Hailuo upstream. Wire shapes follow ../../../docs/vendors/minimax.md: `base_resp` in every body,
// business errors with HTTP 200 and a non-zero status_code, v1 create → query (Preparing/Queueing/Processing/
// Success/Fail, file_id only on success) → /v1/files/retrieve for the download URL; plus the v2 contract
// (content array, `task` object with the URL) used by the H-series models.
import {
  answer, bearerOf, splitPath, startFakeVideoServer, type FakeCall, type FakeTask, type FakeVideoOptions,
  type FakeVideoServer, type Kit, type Reply, type Step,
} from './task-script.js'

export interface FakeMiniMaxOptions extends FakeVideoOptions {
  apiKey?: string
}

const baseResp = (status_code: number, status_msg: string) => ({ base_resp: { status_code, status_msg } })
const OK = baseResp(0, 'success')

/** A business error: MiniMax answers these with HTTP 200. */
export const minimaxError = (code: number, message: string) => answer(200, baseResp(code, message))

const ERROR_OF_STATUS: Record<number, [number, string]> = { 429: [1002, 'rate limit triggered'], 500: [1013, 'internal service error'] }

export async function startFakeMiniMax(opts: FakeMiniMaxOptions = {}): Promise<FakeVideoServer> {
  const apiKey = opts.apiKey ?? 'minimax-test-key'
  return startFakeVideoServer({
    errorBody: (status) => baseResp(...(ERROR_OF_STATUS[status] ?? [1000, 'unknown error'])),
    route(call, kit) {
      const key = bearerOf(call)
      if (key === undefined) return minimaxError(1004, "login fail: Please carry the API secret key in the 'Authorization' field of the request header")
      if (key !== apiKey) return minimaxError(2049, 'invalid api key')
      const { path, query } = splitPath(call)
      if (call.method === 'POST' && path === '/v1/video_generation') return create(call, kit, 'v1')
      if (call.method === 'POST' && path === '/v2/video_generation') return create(call, kit, 'v2')
      if (call.method === 'GET' && path === '/v1/query/video_generation') return queryV1(query.get('task_id') ?? '', kit)
      const v2 = /^\/v2\/query\/video_generation\/([^/]+)$/.exec(path)
      if (call.method === 'GET' && v2) return queryV2(decodeURIComponent(v2[1]), kit)
      if (call.method === 'GET' && path === '/v1/files/retrieve') return retrieve(query.get('file_id') ?? '', kit)
      return undefined
    },
  }, opts)
}

function create(call: FakeCall, kit: Kit, contract: 'v1' | 'v2'): Reply {
  const canned = kit.startOverride()
  if (canned) return canned
  const body = call.body ?? {}
  if (typeof body.model !== 'string') return minimaxError(2013, 'invalid params, model is required')
  if (contract === 'v2' && !Array.isArray(body.content)) return minimaxError(2013, 'invalid params, content is required')
  if (contract === 'v1' && typeof body.prompt !== 'string' && typeof body.first_frame_image !== 'string') {
    return minimaxError(2013, 'invalid params, prompt or first_frame_image is required')
  }
  const task = kit.create({ contract, model: body.model, duration: body.duration ?? 6 }, (n) => String(106916112212032 + n))
  return answer(200, { task_id: task.id, ...OK })
}

/** The file id of a task's video: MiniMax sends it as a string in the query answer. */
const fileIdOf = (task: FakeTask) => String(205258526306433 + Number(task.id.slice(-4)))

function queryV1(id: string, kit: Kit): Reply {
  const known = kit.task(id)
  if (known === undefined || known.meta.contract !== 'v1') return minimaxError(2013, 'invalid task_id')
  const polled = kit.poll(id)!
  if ('reply' in polled) return polled.reply
  const { step, task } = polled
  const status = step.kind === 'vendor' ? step.word : V1_WORD[step.kind]
  if (step.kind === 'succeeded') {
    return answer(200, { task_id: task.id, status, file_id: fileIdOf(task), video_width: 1920, video_height: 1080, ...OK })
  }
  if (step.kind === 'failed') {
    // A failed task may name its reason in base_resp (1027: the output was flagged).
    return answer(200, { task_id: task.id, status, ...baseResp(Number(step.code ?? 1027), 'video output sensitive') })
  }
  return answer(200, { task_id: task.id, status, file_id: '', ...OK })
}

const V1_WORD: Record<Step['kind'], string> = {
  queued: 'Queueing', running: 'Processing', succeeded: 'Success', failed: 'Fail', canceled: 'Fail', expired: 'Fail', vendor: '',
}

function queryV2(id: string, kit: Kit): Reply {
  const known = kit.task(id)
  if (known === undefined || known.meta.contract !== 'v2') return minimaxError(2013, 'invalid task_id')
  const polled = kit.poll(id)!
  if ('reply' in polled) return polled.reply
  const { step, task } = polled
  const status = step.kind === 'vendor' ? step.word : V2_WORD[step.kind]
  const record: Record<string, unknown> = { id: task.id, model: task.meta.model, status, created_at: 1785456000, updated_at: 1785456100 }
  if (step.kind === 'succeeded') {
    record.content = { url: kit.videoUrl(task), duration: task.meta.duration }
    record.usage = { total_seconds: task.meta.duration, input_seconds: 0, output_seconds: task.meta.duration, input_image_count: 0 }
  }
  if (step.kind === 'failed') record.error = { code: step.code ?? '1027', message: 'video output sensitive' }
  return answer(200, { task: record, ...OK })
}

const V2_WORD: Record<Step['kind'], string> = {
  queued: 'queued', running: 'running', succeeded: 'succeeded', failed: 'failed', canceled: 'cancelled', expired: 'expired', vendor: '',
}

function retrieve(fileId: string, kit: Kit): Reply {
  // The file exists once the task was reported as a success.
  const task = kit.tasks().find((t) => fileIdOf(t) === fileId && t.polls > 0 && t.steps[Math.min(t.polls, t.steps.length) - 1].kind === 'succeeded')
  if (task === undefined) return minimaxError(2013, 'invalid file_id')
  // The file object names the id as a number (the query answer used a string).
  return answer(200, {
    file: { file_id: Number(fileId), bytes: 0, created_at: 1700469398, filename: 'output_aigc.mp4', purpose: 'video_generation', download_url: kit.videoUrl(task) },
    ...OK,
  })
}
