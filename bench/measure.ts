// The two measurements: throughput/latency under load (autocannon) and time to first byte of a stream (undici).
import { performance } from 'node:perf_hooks'
import autocannon from 'autocannon'
import { Agent, request } from 'undici'

export const CHAT_PATH = '/v1/chat/completions'
const CHAT = { model: 'test-gpt', messages: [{ role: 'user', content: 'hello' }] }

export interface LoadResult {
  connections: number
  requestsPerSec: number
  /** ms */
  p50: number
  /** ms */
  p99: number
  requests: number
  errors: number
  non2xx: number
}

export interface TtfbResult {
  requests: number
  /** ms from sending the request to the first body chunk */
  p50: number
  p99: number
  /** ms from sending the request to the end of the stream */
  totalP50: number
  failures: number
}

/** Nearest-rank percentile of ascending `sorted`. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]
}

function sortedCopy(values: number[]): Float64Array {
  return Float64Array.from(values).sort()
}

export async function loadTest(origin: string, apiKey: string, connections: number, opts: { durationS: number; warmupS: number }): Promise<LoadResult> {
  const run = autocannon({
    url: `${origin}${CHAT_PATH}`,
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify(CHAT),
    connections,
    duration: opts.durationS,
    warmup: { connections, duration: opts.warmupS },
  })
  // autocannon's own percentiles come from a histogram with 1 ms resolution, too coarse for sub-millisecond
  // differences; its per-response timings are fractional, so the percentiles are taken from those instead.
  const times: number[] = []
  run.on('response', (_client, status, _bytes, ms) => { if (status >= 200 && status < 300) times.push(ms) })
  const result = await run
  const sorted = sortedCopy(times)
  return {
    connections,
    requestsPerSec: result.requests.average,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    requests: result.requests.total ?? times.length,
    errors: result.errors,
    non2xx: result.non2xx,
  }
}

/**
 * Sequential streamed requests on one keep-alive connection, so that each time is the path's own latency and not
 * queueing. Stops after `maxRequests` or `maxMs`, whichever comes first; `warmup` requests are not counted.
 */
export async function ttfb(origin: string, apiKey: string, opts: { maxRequests: number; maxMs: number; warmup: number }): Promise<TtfbResult> {
  const agent = new Agent({ connections: 1, keepAliveTimeout: 30_000 })
  const body = JSON.stringify({ ...CHAT, stream: true })
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` }
  const first: number[] = []
  const total: number[] = []
  let failures = 0
  try {
    const deadline = performance.now() + opts.maxMs
    for (let i = 0; i < opts.warmup + opts.maxRequests && performance.now() < deadline; i++) {
      const start = performance.now()
      let firstAt = NaN
      let ok = false
      try {
        const res = await request(`${origin}${CHAT_PATH}`, { method: 'POST', headers, body, dispatcher: agent })
        ok = res.statusCode >= 200 && res.statusCode < 300
        // Drained to the end either way, so that the connection is reused and the next request starts clean.
        for await (const _chunk of res.body) if (Number.isNaN(firstAt)) firstAt = performance.now() - start
      } catch {
        ok = false
      }
      if (i < opts.warmup) continue
      if (!ok || Number.isNaN(firstAt)) {
        failures++
        continue
      }
      first.push(firstAt)
      total.push(performance.now() - start)
    }
  } finally {
    await agent.close()
  }
  const sortedFirst = sortedCopy(first)
  return {
    requests: first.length + failures,
    p50: percentile(sortedFirst, 50),
    p99: percentile(sortedFirst, 99),
    totalP50: percentile(sortedCopy(total), 50),
    failures,
  }
}

/** One non-streamed and one streamed request, checked for a chat answer, before any load is put on a target. */
export async function probe(origin: string, apiKey: string): Promise<string | undefined> {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` }
  const agent = new Agent()
  try {
    for (const stream of [false, true]) {
      const kind = stream ? 'streamed' : 'non-streamed'
      try {
        const res = await request(`${origin}${CHAT_PATH}`, { method: 'POST', headers, body: JSON.stringify({ ...CHAT, stream }), dispatcher: agent })
        const text = await res.body.text()
        const expected = stream ? 'chat.completion.chunk' : '"chat.completion"'
        if (res.statusCode !== 200 || !text.includes(expected)) return `${kind} probe got ${res.statusCode}: ${text.slice(0, 300)}`
      } catch (err) {
        return `${kind} probe failed: ${(err as Error).message}`
      }
    }
    return undefined
  } finally {
    await agent.close()
  }
}
