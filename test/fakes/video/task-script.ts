// Shared machinery of the fake video vendors: a node:http server on 127.0.0.1:0 (the scenario engine's, ../scenarios.ts)
// that records calls, keeps scripted tasks, applies the slow / timeout / error switches to polls, and serves the
// produced MP4 files. Each vendor module only says how its paths, auth, envelopes and status words look.
import type http from 'node:http'
import { pause, readBody, sendJson, serveFake } from '../scenarios.js'

/**
 * One poll answer per entry, in order; the last one repeats. Words:
 * `queued`, `running`, `running:<0..100>`, `succeeded`, `failed`, `failed:<vendor code>`, `canceled`, `expired`,
 * `vendor-word:<raw status word>` (sent as the vendor's status verbatim).
 */
export type TaskScript = string[]

export type Step =
  | { kind: 'queued' }
  | { kind: 'running'; progress?: number }
  | { kind: 'succeeded' }
  | { kind: 'failed'; code?: string }
  | { kind: 'canceled' }
  | { kind: 'expired' }
  | { kind: 'vendor'; word: string }

export function parseStep(text: string): Step {
  const [word, arg] = [text.split(':', 1)[0], text.includes(':') ? text.slice(text.indexOf(':') + 1) : undefined]
  switch (word) {
    case 'queued': case 'succeeded': case 'canceled': case 'expired': return { kind: word }
    case 'running': return arg === undefined ? { kind: 'running' } : { kind: 'running', progress: Number(arg) }
    case 'failed': return arg === undefined ? { kind: 'failed' } : { kind: 'failed', code: arg }
    case 'vendor-word': return { kind: 'vendor', word: arg ?? '' }
    default: throw new Error(`unknown task-script step: ${text}`)
  }
}

export const DEFAULT_SCRIPT: TaskScript = ['queued', 'running:50', 'succeeded']

export interface FakeTask {
  id: string
  steps: Step[]
  /** polls answered so far (errors and hangs do not count: they did not advance the task) */
  polls: number
  /** what the create call asked for (duration, family, model …), for the answers that echo it */
  meta: Record<string, any>
}

export interface FakeCall {
  method: string
  path: string // request-target as received (path plus query)
  headers: http.IncomingHttpHeaders
  body: any // parsed JSON, or the raw text
}

export type Answer = { status: number; body: unknown; headers?: Record<string, string> }
/** Returned by a route to leave the request unanswered (the client's timeout fires). */
export const HANG = Symbol('hang')
export type Reply = Answer | typeof HANG

export interface Switches {
  /** delay in ms before every API answer */
  slow: number
  /** the next N polls are never answered */
  timeoutOnPoll: number
  /** the next `count` polls answer `status` (500, 429 …) with the vendor's error body */
  errorOnPoll?: { status: number; count: number }
  /** canned answers for the next create calls, e.g. a business error inside an HTTP 200 */
  nextStart: Answer[]
  /** the origin finished videos' links name (a CDN elsewhere); this fake's own when unset */
  videoOrigin?: string
  /** the next N downloads of finished videos answer 503 (the vendor's storage failing, then recovering) */
  failFiles?: number
}

export interface FakeVideoOptions {
  slow?: number
  timeoutOnPoll?: number
  errorOnPoll?: { status: number; count: number }
  script?: TaskScript
}

/** What the harness offers a vendor's routes. */
export interface Kit {
  url: string
  /** a canned create answer queued by a test, if any */
  startOverride(): Answer | undefined
  create(meta: Record<string, any>, idOf: (n: number) => string): FakeTask
  task(id: string): FakeTask | undefined
  tasks(): FakeTask[]
  /** the next step of a task, or what the switches answer instead; undefined for an unknown id */
  poll(id: string): { step: Step; task: FakeTask } | { reply: Reply } | undefined
  /** where the finished video of a task is served */
  videoUrl(task: FakeTask): string
}

export interface VendorFake {
  /** undefined → 404 */
  route(call: FakeCall, kit: Kit): Reply | undefined
  /** the vendor's error body for an HTTP status (used by errorOnPoll) */
  errorBody(status: number): unknown
}

export interface FakeVideoServer {
  url: string
  calls: FakeCall[]
  tasks: Map<string, FakeTask>
  switches: Switches
  /** the script every task created from now on follows */
  script(script: TaskScript): void
  reset(): void
  close(): Promise<void>
}

/** A few bytes that start like an MP4 (an `ftyp` box), enough to check a download end to end. */
export const FAKE_MP4 = Buffer.concat([
  Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42'), Buffer.from([0, 0, 0, 0]), Buffer.from('mp42isom'),
  Buffer.from('fake video bytes'),
])

export const answer = (status: number, body: unknown, headers: Record<string, string> = {}): Answer => ({ status, body, headers })

export async function startFakeVideoServer(vendor: VendorFake, opts: FakeVideoOptions = {}): Promise<FakeVideoServer> {
  const calls: FakeCall[] = []
  const tasks = new Map<string, FakeTask>()
  const initial = (): Switches => ({ slow: opts.slow ?? 0, timeoutOnPoll: opts.timeoutOnPoll ?? 0, errorOnPoll: opts.errorOnPoll && { ...opts.errorOnPoll }, nextStart: [] })
  const switches = initial()
  let script = (opts.script ?? DEFAULT_SCRIPT).map(parseStep)
  let counter = 0
  let url = ''

  const kit: Kit = {
    get url() { return url },
    startOverride: () => switches.nextStart.shift(),
    create(meta, idOf) {
      const task: FakeTask = { id: idOf(++counter), steps: script, polls: 0, meta }
      tasks.set(task.id, task)
      return task
    },
    task: (id) => tasks.get(id),
    tasks: () => [...tasks.values()],
    poll(id) {
      const task = tasks.get(id)
      if (task === undefined) return undefined
      if (switches.timeoutOnPoll > 0) {
        switches.timeoutOnPoll--
        return { reply: HANG }
      }
      const error = switches.errorOnPoll
      if (error && error.count > 0) {
        error.count--
        return { reply: answer(error.status, vendor.errorBody(error.status)) }
      }
      const step = task.steps[Math.min(task.polls, task.steps.length - 1)]
      task.polls++
      return { step, task }
    },
    videoUrl: (task) => `${switches.videoOrigin ?? url}/files/${encodeURIComponent(task.id)}.mp4`,
  }

  const aborter = new AbortController()
  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const text = (await readBody(req)).toString('utf8')
    let body: any = text
    try { body = text === '' ? undefined : JSON.parse(text) } catch { /* keep the raw text */ }
    const call: FakeCall = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body }
    const file = /^\/files\/([^/]+)\.mp4$/.exec(call.path)
    if (call.method === 'GET' && file) {
      // Signed-CDN style: no auth, served only for tasks this fake created.
      if (!tasks.has(decodeURIComponent(file[1]))) return send(res, answer(404, { message: 'no such file' }))
      if ((switches.failFiles ?? 0) > 0) {
        switches.failFiles!--
        return send(res, answer(503, { message: 'storage unavailable, retry later' }))
      }
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': FAKE_MP4.length })
      return void res.end(FAKE_MP4)
    }
    calls.push(call)
    const reply = vendor.route(call, kit) ?? answer(404, vendor.errorBody(404))
    if (reply === HANG) return
    if (switches.slow > 0) await pause(switches.slow, aborter.signal)
    send(res, reply)
  }
  // A route that throws answers the vendor's 500.
  const listening = await serveFake(handle, (res) => send(res, answer(500, vendor.errorBody(500))), aborter)
  url = listening.origin

  return {
    url,
    calls,
    tasks,
    switches,
    script: (s) => { script = s.map(parseStep) },
    reset() {
      calls.length = 0
      tasks.clear()
      Object.assign(switches, initial())
      script = (opts.script ?? DEFAULT_SCRIPT).map(parseStep)
    },
    close: listening.close, // hung polls included
  }
}

function send(res: http.ServerResponse, answer: Answer): void {
  sendJson(res, answer.status, JSON.stringify(answer.body), 'application/json', answer.headers)
}

/** `Bearer <token>` of a call, or undefined. */
export function bearerOf(call: FakeCall): string | undefined {
  const auth = call.headers.authorization
  return typeof auth === 'string' && auth.startsWith('Bearer ') ? auth.slice(7) : undefined
}

/** Path and query of a call. */
export function splitPath(call: FakeCall): { path: string; query: URLSearchParams } {
  const u = new URL(call.path, 'http://fake')
  return { path: u.pathname, query: u.searchParams }
}
