// Test helpers for the video adapters: catalog contexts, and a driver that sends an adapter's HttpSpecs with
// undici (start → polls → file step → download), as the task runner will.
import { Agent, request } from 'undici'
import { loadBuiltinModels } from '../../../../electron/gateway/catalog/catalog.js'
import type { HttpSpec } from '../../../../electron/gateway/contract/http-spec.js'
import type { UpstreamCtx } from '../../../../electron/gateway/contract/upstream.js'
import type { VideoAdapter, VideoPoll, VideoSubmission } from '../../../../electron/gateway/contract/video-upstream.js'
import type { Vendor } from '../../../../shared/types.js'

export { thrownBy } from '../../../helpers/thrown.js'

const MODELS = new Map(loadBuiltinModels().map((m) => [m.id, m]))

/** A context for a real catalog model on one upstream account. */
export function ctxFor(vendor: Vendor, modelId: string, baseUrl: string, apiKey: string): UpstreamCtx {
  const model = MODELS.get(modelId)
  if (model === undefined) throw new Error(`no catalog model ${modelId}`)
  return { upstream: { id: `${vendor}-1`, vendor, baseUrl, apiKey, priority: 0 }, model }
}

export const submission = (sub: Partial<VideoSubmission> & { model: string }): VideoSubmission => ({ extra: {}, ...sub })

export const bodyOf = (spec: HttpSpec): Record<string, any> => JSON.parse(String(spec.body))


// Short keep-alive so that the fakes close promptly after each file.
const agent = new Agent({ keepAliveTimeout: 10, keepAliveMaxTimeout: 10 })

export interface Sent {
  status: number
  text: string
  body: unknown
  contentType?: string
  bytes: Buffer
}

export async function send(spec: HttpSpec, opts: { headersTimeout?: number } = {}): Promise<Sent> {
  // Video adapters build JSON bodies only; a multipart spec would be a bug here.
  if (spec.body !== undefined && typeof spec.body === 'object' && 'multipart' in spec.body) throw new Error('unexpected multipart body')
  const res = await request(spec.url, {
    method: spec.method, headers: spec.headers, body: spec.body, dispatcher: agent, headersTimeout: opts.headersTimeout,
  })
  const bytes = Buffer.from(await res.body.arrayBuffer())
  const text = bytes.toString('utf8')
  let body: unknown
  try { body = JSON.parse(text) } catch { body = undefined }
  const contentType = res.headers['content-type']
  return { status: res.statusCode, text, body, bytes, contentType: typeof contentType === 'string' ? contentType : undefined }
}

export interface Run {
  taskId: string
  polls: VideoPoll[]
  final: VideoPoll
  /** the downloaded video (succeeded tasks) */
  download?: Sent
}

/** Drives one task to a terminal state; a non-200 answer is thrown as the adapter's GatewayError. */
export async function runTask(adapter: VideoAdapter, ctx: UpstreamCtx, sub: VideoSubmission, maxPolls = 20): Promise<Run> {
  const now = Math.floor(Date.now() / 1000)
  const started = await send(adapter.toStart(sub, ctx, now))
  if (started.status !== 200) throw adapter.fromError(started.status, started.text)
  const taskId = adapter.fromStart(started.body, sub)
  const polls: VideoPoll[] = []
  for (let i = 0; i < maxPolls; i++) {
    const answer = await send(adapter.toPoll(taskId, ctx, now))
    if (answer.status !== 200) throw adapter.fromError(answer.status, answer.text)
    const poll = adapter.fromPoll(answer.body)
    polls.push(poll)
    if (poll.state === 'queued' || poll.state === 'running') continue
    if (poll.state !== 'succeeded') return { taskId, polls, final: poll }
    return { taskId, polls, final: poll, download: await download(adapter, ctx, poll, now) }
  }
  throw new Error(`task ${taskId} still running after ${maxPolls} polls`)
}

async function download(adapter: VideoAdapter, ctx: UpstreamCtx, poll: Extract<VideoPoll, { state: 'succeeded' }>, now: number): Promise<Sent> {
  let url = poll.videoUrls[0]
  if (poll.fileId !== undefined) {
    const file = await send(adapter.toFile!(poll.fileId, ctx, now))
    if (file.status !== 200) throw adapter.fromError(file.status, file.text)
    url = adapter.fromFile!(file.body)
  }
  return send({ method: 'GET', url, headers: {} })
}

/** The normalized states of a run, e.g. ['queued', 'running', 'succeeded']. */
export const statesOf = (run: Run): string[] => run.polls.map((p) => p.state)
