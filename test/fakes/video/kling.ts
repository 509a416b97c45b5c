// Fake Kling video upstream. Wire shapes follow ../../../docs/vendors/kling.md: HS256 JWT auth checked against the
// secret key (iss, exp, nbf), the {code,message,request_id,data} envelope everywhere, text2video / image2video
// families (a task is only found under the family it was created in), millisecond timestamps, string durations.
import { createHmac, timingSafeEqual } from 'node:crypto'
import {
  answer, splitPath, startFakeVideoServer, type FakeCall, type FakeTask, type FakeVideoOptions, type FakeVideoServer,
  type Kit, type Reply, type Step,
} from './task-script.js'

export interface FakeKlingOptions extends FakeVideoOptions {
  accessKey?: string
  secretKey?: string
  /** the fake's clock in unix seconds (default: the real one), to test exp / nbf */
  now?: () => number
}

const MESSAGES: Record<number, [number, string]> = {
  400: [1201, 'invalid parameter'],
  401: [1000, 'authentication failed'],
  404: [1203, 'resource does not exist'],
  429: [1302, 'request rate limit exceeded'],
  500: [5000, 'server internal error'],
}

/** The envelope with a business code; `data` absent as on Kling's errors. */
export function klingError(status: number, code?: number, message?: string) {
  const [defaultCode, defaultMessage] = MESSAGES[status] ?? [5000, 'server internal error']
  return { code: code ?? defaultCode, message: message ?? defaultMessage, request_id: 'fake-request-id' }
}

const ok = (data: unknown) => answer(200, { code: 0, message: 'SUCCEED', request_id: 'fake-request-id', data })

export async function startFakeKling(opts: FakeKlingOptions = {}): Promise<FakeVideoServer> {
  const accessKey = opts.accessKey ?? 'kling-ak'
  const secretKey = opts.secretKey ?? 'kling-sk'
  const now = opts.now ?? (() => Math.floor(Date.now() / 1000))
  return startFakeVideoServer({
    errorBody: (status) => klingError(status),
    route(call, kit) {
      const denied = checkJwt(call, accessKey, secretKey, now())
      if (denied) return answer(401, denied)
      const { path } = splitPath(call)
      const create = /^\/v1\/videos\/(text2video|image2video)$/.exec(path)
      if (call.method === 'POST' && create) return createTask(call, create[1], kit)
      const poll = /^\/v1\/videos\/(text2video|image2video)\/([^/]+)$/.exec(path)
      if (call.method === 'GET' && poll) return query(poll[1], decodeURIComponent(poll[2]), kit)
      return undefined
    },
  }, opts)
}

/** Kling's auth codes: 1001 empty, 1002 invalid (shape, signature, issuer), 1003 not yet valid, 1004 expired. */
function checkJwt(call: FakeCall, accessKey: string, secretKey: string, now: number) {
  const auth = call.headers.authorization
  if (typeof auth !== 'string' || auth === '') return klingError(401, 1001, 'Authorization is empty')
  const token = auth.startsWith('Bearer ') ? auth.slice(7) : ''
  const [header, payload, signature] = token.split('.')
  if (!header || !payload || !signature) return klingError(401, 1002, 'Authorization is invalid')
  const expected = createHmac('sha256', secretKey).update(`${header}.${payload}`).digest()
  const given = Buffer.from(signature, 'base64url')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return klingError(401, 1002, 'Authorization is invalid')
  let claims: { iss?: unknown; exp?: unknown; nbf?: unknown }
  let alg: unknown
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
    alg = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')).alg
  } catch {
    return klingError(401, 1002, 'Authorization is invalid')
  }
  if (alg !== 'HS256' || claims.iss !== accessKey) return klingError(401, 1002, 'Authorization is invalid')
  if (typeof claims.nbf === 'number' && claims.nbf > now) return klingError(401, 1003, 'Authorization is not yet valid')
  if (typeof claims.exp !== 'number' || claims.exp <= now) return klingError(401, 1004, 'Authorization has expired')
  return undefined
}

function createTask(call: FakeCall, family: string, kit: Kit): Reply {
  const canned = kit.startOverride()
  if (canned) return canned
  const body = call.body ?? {}
  if (family === 'text2video' && typeof body.prompt !== 'string') return answer(400, klingError(400, 1201, 'prompt is required'))
  if (family === 'image2video' && typeof body.image !== 'string') return answer(400, klingError(400, 1201, 'image is required'))
  if (typeof body.image === 'string' && body.image.startsWith('data:')) {
    return answer(400, klingError(400, 1201, 'image must be a URL or raw base64 without the data: prefix'))
  }
  if (body.duration !== undefined && typeof body.duration !== 'string') return answer(400, klingError(400, 1201, 'duration must be a string'))
  const task = kit.create({ family, duration: body.duration ?? '5', createdAt: Date.now() }, (n) => String(859223486185156610n + BigInt(n)))
  return ok({ task_id: task.id, task_status: 'submitted', task_info: { external_task_id: '' }, created_at: task.meta.createdAt, updated_at: task.meta.createdAt })
}

function query(family: string, id: string, kit: Kit): Reply {
  const known = kit.task(id)
  // Querying under the other family does not find the task.
  if (known === undefined || known.meta.family !== family) return answer(404, klingError(404, 1203, 'task not found'))
  const polled = kit.poll(id)!
  if ('reply' in polled) return polled.reply
  return ok(taskData(polled.task, polled.step, kit))
}

const KLING_WORD: Record<Step['kind'], string> = {
  queued: 'submitted', running: 'processing', succeeded: 'succeed', failed: 'failed', canceled: 'failed', expired: 'failed', vendor: '',
}

function taskData(task: FakeTask, step: Step, kit: Kit) {
  const data: Record<string, unknown> = {
    task_id: task.id,
    task_status: step.kind === 'vendor' ? step.word : KLING_WORD[step.kind],
    task_status_msg: '',
    task_info: { external_task_id: '' },
    created_at: task.meta.createdAt,
    updated_at: Date.now(),
  }
  if (step.kind === 'succeeded') {
    // The produced clip runs a little past the requested length, as Kling's do.
    data.task_result = { videos: [{ id: `video-${task.id}`, url: kit.videoUrl(task), duration: `${task.meta.duration}.1` }] }
  }
  if (step.kind === 'failed' || step.kind === 'canceled' || step.kind === 'expired') {
    data.task_status_msg = step.kind === 'failed' && step.code ? step.code : 'Failure to pass the risk control system'
  }
  return data
}
