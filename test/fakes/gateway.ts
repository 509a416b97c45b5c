// Fake upstream of vendor `gateway`: another gateway of this same interface (docs/spec/gateway-interface.md), for
// the endpoints a gateway account carries besides chat: images (JSON, multipart, the images SSE), video submissions
// and their tasks (also on the DashScope-native path), and interactions. It checks `Authorization: Bearer <key>`,
// records every call with its raw body, answers in this interface's shapes and walks each video task
// queued → running → succeeded over successive polls.
import http from 'node:http'
import { randomBytes } from 'node:crypto'
import { makePng } from './images/image-bytes.js'
import { listenLocal } from './listen-local.js'
import { FAKE_MP4 } from './video/task-script.js'

export interface GatewayCall {
  method: string
  path: string // request-target as received (path plus query)
  headers: http.IncomingHttpHeaders
  raw: Buffer
}
/** An answer to force on the next API call: a status with the interface's error envelope for that path. */
export interface ForcedError { status: number; code: string; message: string }

export interface FakeGateway {
  /** what a `gateway` account takes as baseUrl: the root URL */
  url: string
  calls: GatewayCall[]
  /** video tasks: polls answered so far */
  tasks: Map<string, { polls: number; native: boolean; seconds: number }>
  /** the next API calls answer these errors, in order */
  failNext(...errors: ForcedError[]): void
  reset(): void
  close(): Promise<void>
}

export const FAKE_GATEWAY_PNG = makePng(8, 8)
/** Produced seconds the fake reports for every video (and bills in `usage.seconds`). */
export const FAKE_GATEWAY_SECONDS = 4
const INTERACTION_TEXT = 'Hello from the fake gateway.'

const newId = (prefix: string) => `${prefix}${randomBytes(8).toString('hex')}`
const now = () => Math.floor(Date.now() / 1000)

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
  res.end(text)
}

const isNativePath = (path: string) => path.startsWith('/api/v1/')
const errorEnvelope = (path: string, e: ForcedError) =>
  isNativePath(path) ? { request_id: newId('req-'), code: e.code, message: e.message } : { error: { message: e.message, type: e.status >= 500 ? 'api_error' : 'invalid_request_error', code: e.code, param: null } }

/** The images JSON (spec §2.3): `n` PNGs, and token usage. */
function imagesAnswer(body: Record<string, unknown> | undefined) {
  const n = typeof body?.n === 'number' ? body.n : 1
  const data = Array.from({ length: n }, () => ({ b64_json: FAKE_GATEWAY_PNG.toString('base64'), mime_type: 'image/png' }))
  return { created: now(), data, usage: { input_tokens: 12, output_tokens: 100 * n, total_tokens: 12 + 100 * n } }
}

function answerImages(res: http.ServerResponse, call: GatewayCall): void {
  const json = String(call.headers['content-type'] ?? '').startsWith('application/json')
  const body = json ? (JSON.parse(call.raw.toString('utf8')) as Record<string, unknown>) : undefined
  if (body?.stream !== true) return send(res, 200, imagesAnswer(body))
  res.writeHead(200, { 'content-type': 'text/event-stream' })
  res.end(`: keepalive\n\ndata: ${JSON.stringify(imagesAnswer(body))}\n\ndata: [DONE]\n\n`)
}

const STEPS = ['queued', 'running', 'succeeded'] as const

/** The task after `polls` polls, as GET /v1/video/tasks/{id} shows it. */
function taskObject(origin: string, id: string, polls: number) {
  const status = STEPS[Math.min(polls, STEPS.length - 1)]
  const done = status === 'succeeded'
  return {
    task_id: id, object: 'video.task', status, progress: done ? 100 : status === 'running' ? 50 : null, vendor_status: status.toUpperCase(),
    model: 'upstream-model', created_at: now(), updated_at: now(), status_url: `/v1/video/tasks/${id}`, request: {}, reserved: done ? 0 : 1,
    ...(done ? { result: { videos: [{ url: `${origin}/files/${id}.mp4` }], seconds: FAKE_GATEWAY_SECONDS }, usage: { seconds: FAKE_GATEWAY_SECONDS, cost: 0.4 } } : {}),
  }
}

/** The same task as the native GET /api/v1/tasks/{id} shows it. */
function nativeTask(origin: string, id: string, polls: number) {
  const status = ['PENDING', 'RUNNING', 'SUCCEEDED'][Math.min(polls, 2)]
  const output = { task_id: id, task_status: status, ...(status === 'SUCCEEDED' ? { video_url: `${origin}/files/${id}.mp4` } : {}) }
  return { request_id: newId('req-'), output, ...(status === 'SUCCEEDED' ? { usage: { video_duration: FAKE_GATEWAY_SECONDS, duration: FAKE_GATEWAY_SECONDS, video_count: 1 } } : {}) }
}

function answerInteraction(res: http.ServerResponse, call: GatewayCall): void {
  const body = JSON.parse(call.raw.toString('utf8')) as { model?: string; stream?: boolean }
  const interaction = { id: newId('int_'), status: 'completed', model: body.model, outputs: [{ type: 'text', text: INTERACTION_TEXT }], usage: { total_input_tokens: 10, total_output_tokens: 3, total_tokens: 13 } }
  if (body.stream !== true) return send(res, 200, interaction)
  res.writeHead(200, { 'content-type': 'text/event-stream' })
  const frame = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`
  res.end(frame({ event_type: 'interaction.created', interaction: { id: interaction.id, status: 'in_progress' } })
    + frame({ event_type: 'step.delta', index: 0, delta: { type: 'text', text: INTERACTION_TEXT } })
    + frame({ event_type: 'interaction.completed', interaction }) + 'data: [DONE]\n\n')
}

export async function startFakeGateway(opts: { apiKey: string }): Promise<FakeGateway> {
  const calls: GatewayCall[] = []
  const tasks: FakeGateway['tasks'] = new Map()
  const forced: ForcedError[] = []
  let origin = ''

  function route(res: http.ServerResponse, call: GatewayCall): void {
    const path = call.path.split('?')[0]
    const key = `${call.method} ${path}`
    if (key === 'POST /v1/images/generations' || key === 'POST /v1/images/edits') return answerImages(res, call)
    if (key === 'POST /v1beta/interactions') return answerInteraction(res, call)
    if (key === 'POST /v1/video/generate' || key === 'POST /api/v1/services/aigc/video-generation/video-synthesis') {
      const id = newId('task_')
      const native = isNativePath(path)
      tasks.set(id, { polls: 0, native, seconds: FAKE_GATEWAY_SECONDS })
      return native ? send(res, 200, { request_id: newId('req-'), output: { task_id: id, task_status: 'PENDING' } }) : send(res, 202, taskObject(origin, id, 0))
    }
    const poll = /^\/v1\/video\/tasks\/([^/]+)$/.exec(path) ?? /^\/api\/v1\/tasks\/([^/]+)$/.exec(path)
    if (call.method === 'GET' && poll) {
      const task = tasks.get(poll[1])
      if (!task) return send(res, 404, errorEnvelope(path, { status: 404, code: 'task_not_found', message: `No task ${poll[1]}` }))
      task.polls += 1
      return send(res, 200, isNativePath(path) ? nativeTask(origin, poll[1], task.polls) : taskObject(origin, poll[1], task.polls))
    }
    send(res, 404, errorEnvelope(path, { status: 404, code: 'route_not_found', message: `No route ${key}` }))
  }

  const server = http.createServer((req, res) => {
    const parts: Buffer[] = []
    req.on('data', (c: Buffer) => parts.push(c))
    req.on('end', () => {
      const call: GatewayCall = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, raw: Buffer.concat(parts) }
      // Result files are public links, as a vendor's are: no key needed.
      if (call.method === 'GET' && call.path.startsWith('/files/')) {
        res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': FAKE_MP4.length })
        return res.end(FAKE_MP4)
      }
      calls.push(call)
      const path = call.path.split('?')[0]
      if (req.headers.authorization !== `Bearer ${opts.apiKey}`) return send(res, 401, errorEnvelope(path, { status: 401, code: 'invalid_api_key', message: 'Incorrect API key provided' }))
      const error = forced.shift()
      if (error) return send(res, error.status, errorEnvelope(path, error))
      route(res, call)
    })
  })
  const listening = await listenLocal(server)
  origin = listening.origin
  return {
    url: origin,
    calls,
    tasks,
    failNext: (...errors) => void forced.push(...errors),
    reset() {
      calls.length = 0
      forced.length = 0
      tasks.clear()
    },
    close: listening.close,
  }
}
