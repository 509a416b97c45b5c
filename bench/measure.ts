// Requests from the runner itself (undici): sequential series on one or more keep-alive connections, with time to
// first byte and to the end of the body, and probes. Load at a fixed concurrency is load.ts.
import { performance } from 'node:perf_hooks'
import { Agent, request } from 'undici'
import { noteAnswers } from './answered.js'
import type { LoadResult } from './load.js'

export const CHAT_PATH = '/v1/chat/completions'
const CHAT = { model: 'test-gpt', messages: [{ role: 'user', content: 'hello' }] }

/** Sequential requests, one at a time: time to the first body chunk and to the end of the body. */
export interface SeqResult {
  /** counted requests (after the warm-up), failures included */
  requests: number
  /** ms from sending the request to the first body chunk */
  p50: number
  p99: number
  /** ms from sending the request to the end of the body */
  totalP50: number
  totalP99: number
  failures: number
  /** completed requests per second over the measured time, all connections together */
  perSec: number
}

/** One HTTP request to repeat: a POSTed body (JSON text, or bytes), and strings its answer must contain to count as a success. */
export interface RequestSpec {
  url: string
  headers: Record<string, string>
  body: string | Buffer
  expect: string[]
}

/** A chat completions body; `prompt` replaces the default one-word user message. */
export function chatBody(opts: { model?: string; stream?: boolean; prompt?: string } = {}): string {
  const messages = opts.prompt === undefined ? CHAT.messages : [{ role: 'user', content: opts.prompt }]
  return JSON.stringify({ model: opts.model ?? CHAT.model, messages, ...(opts.stream === undefined ? {} : { stream: opts.stream }) })
}

/** `headers`: more request headers, beside the content type and the key (a peer's routing headers). */
export function chatRequest(origin: string, apiKey: string, stream: boolean, model = CHAT.model, headers: Record<string, string> = {}): RequestSpec {
  return {
    url: `${origin}${CHAT_PATH}`,
    headers: { ...headers, 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: chatBody({ model, stream }),
    expect: stream ? ['chat.completion.chunk', '[DONE]'] : ['"chat.completion"'],
  }
}

/** Nearest-rank percentile of ascending `sorted`. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]
}

function sortedCopy(values: number[]): Float64Array {
  return Float64Array.from(values).sort()
}

/** The middle value (the mean of the two middle ones for an even count); NaN for none. */
export function median(values: number[]): number {
  const s = sortedCopy(values.filter((v) => !Number.isNaN(v)))
  if (s.length === 0) return NaN
  const mid = s.length >> 1
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2
}

/** Rounds of one (target, connections) load test: median rate and latencies, counts summed over the rounds. */
export function medianLoad(rounds: LoadResult[]): LoadResult {
  const sum = (f: (r: LoadResult) => number) => rounds.reduce((n, r) => n + f(r), 0)
  return {
    connections: rounds[0].connections,
    requestsPerSec: median(rounds.map((r) => r.requestsPerSec)),
    p50: median(rounds.map((r) => r.p50)),
    p99: median(rounds.map((r) => r.p99)),
    cpuUsPerRequest: median(rounds.map((r) => r.cpuUsPerRequest)),
    databaseCpuUsPerRequest: median(rounds.map((r) => r.databaseCpuUsPerRequest)),
    requests: sum((r) => r.requests),
    errors: sum((r) => r.errors),
    non2xx: sum((r) => r.non2xx),
  }
}

/** Rounds of one sequential series: median percentiles, counts summed over the rounds. */
export function medianSeq(rounds: SeqResult[]): SeqResult {
  const m = (f: (r: SeqResult) => number) => median(rounds.map(f))
  return {
    requests: rounds.reduce((n, r) => n + r.requests, 0),
    p50: m((r) => r.p50),
    p99: m((r) => r.p99),
    totalP50: m((r) => r.totalP50),
    totalP99: m((r) => r.totalP99),
    failures: rounds.reduce((n, r) => n + r.failures, 0),
    perSec: m((r) => r.perSec),
  }
}

/**
 * Sequential requests on each of `connections` keep-alive connections, so that at one connection each time is the
 * path's own latency and not queueing. Stops after `maxRequests` per connection or `maxMs`, whichever comes first;
 * `warmup` requests per connection are not counted. A request fails unless it answers 2xx with a body that contains
 * every `expect` string.
 */
export async function sequential(spec: RequestSpec, opts: { maxRequests: number; maxMs: number; warmup: number }, connections = 1): Promise<SeqResult> {
  const agent = new Agent({ connections, keepAliveTimeout: 30_000 })
  const first: number[] = []
  const total: number[] = []
  let failures = 0
  let measuredFrom = NaN
  const deadline = performance.now() + opts.maxMs
  async function worker(): Promise<void> {
    for (let i = 0; i < opts.warmup + opts.maxRequests && performance.now() < deadline; i++) {
      if (i === opts.warmup && Number.isNaN(measuredFrom)) measuredFrom = performance.now()
      const start = performance.now()
      let firstAt = NaN
      let totalAt = NaN
      let ok = false
      try {
        const res = await request(spec.url, { method: 'POST', headers: spec.headers, body: spec.body, dispatcher: agent })
        const chunks: Buffer[] = []
        // Drained to the end either way, so that the connection is reused and the next request starts clean.
        for await (const chunk of res.body) {
          if (Number.isNaN(firstAt)) firstAt = performance.now() - start
          chunks.push(chunk as Buffer)
        }
        totalAt = performance.now() - start
        if (res.statusCode >= 200 && res.statusCode < 300) noteAnswers(spec.url)
        const text = Buffer.concat(chunks).toString('utf8')
        ok = res.statusCode >= 200 && res.statusCode < 300 && spec.expect.every((e) => text.includes(e))
      } catch {
        ok = false
      }
      if (i < opts.warmup) continue
      if (!ok || Number.isNaN(firstAt)) {
        failures++
        continue
      }
      first.push(firstAt)
      total.push(totalAt)
    }
  }
  try {
    await Promise.all(Array.from({ length: connections }, worker))
  } finally {
    await agent.close()
  }
  const seconds = (performance.now() - measuredFrom) / 1000
  const sortedFirst = sortedCopy(first)
  const sortedTotal = sortedCopy(total)
  return {
    requests: first.length + failures,
    p50: percentile(sortedFirst, 50),
    p99: percentile(sortedFirst, 99),
    totalP50: percentile(sortedTotal, 50),
    totalP99: percentile(sortedTotal, 99),
    failures,
    perSec: seconds > 0 ? first.length / seconds : NaN,
  }
}

/** Streamed chat completions, sequentially on one connection: time to first byte, and streams/s. */
export function streams(origin: string, apiKey: string, opts: { maxRequests: number; maxMs: number; warmup: number }, headers: Record<string, string> = {}): Promise<SeqResult> {
  return sequential(chatRequest(origin, apiKey, true, undefined, headers), opts)
}

/** A probe that has not answered whole by then has failed. */
const PROBE_DEADLINE_MS = 30_000

/** One request, checked for a 200 with every `expect` string; returns the problem, if any. */
export async function probeRequest(spec: RequestSpec): Promise<string | undefined> {
  const agent = new Agent()
  try {
    const res = await request(spec.url, { method: 'POST', headers: spec.headers, body: spec.body, dispatcher: agent, signal: AbortSignal.timeout(PROBE_DEADLINE_MS) })
    const text = await res.body.text()
    if (res.statusCode >= 200 && res.statusCode < 300) noteAnswers(spec.url)
    const missing = spec.expect.filter((e) => !text.includes(e))
    if (res.statusCode !== 200 || missing.length > 0) return `got ${res.statusCode}${missing.length ? ` without ${missing.join(', ')}` : ''}: ${text.slice(0, 300)}`
    return undefined
  } catch (err) {
    return `failed: ${(err as Error).message}`
  } finally {
    await agent.close()
  }
}

/** One non-streamed and one streamed request, checked for a chat answer, before any load is put on a target. */
export async function probe(origin: string, apiKey: string, headers: Record<string, string> = {}): Promise<string | undefined> {
  for (const stream of [false, true]) {
    const problem = await probeRequest(chatRequest(origin, apiKey, stream, undefined, headers))
    if (problem) return `${stream ? 'streamed' : 'non-streamed'} probe ${problem}`
  }
  return undefined
}

/** `xs` rotated left by `by`, so that each round starts with a different target. */
export function rotate<T>(xs: readonly T[], by: number): T[] {
  return xs.map((_, i) => xs[(i + by) % xs.length])
}
