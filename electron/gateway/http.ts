import { Agent, errors, request, type Dispatcher } from 'undici'

/** An upstream HTTP call, as built by an adapter. */
export interface HttpSpec {
  method: 'GET' | 'POST'
  url: string
  headers: Record<string, string>
  body?: string | Buffer
}

export interface Timeouts {
  /** TCP + TLS connect */
  connectMs: number
  /** from sending the request to the response headers */
  firstByteMs: number
  /** longest silence while the body streams */
  idleMs: number
}

export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 10_000, firstByteMs: 600_000, idleMs: 300_000 }

export type UpstreamResponse = Dispatcher.ResponseData

/** Why an upstream call failed before an HTTP status was had. */
export type TransportFailure = 'connect' | 'timeout' | 'reset' | 'aborted'

/** The only place that talks to upstreams: one pooled keep-alive agent per gateway. */
export function createHttp(timeouts: Timeouts) {
  const agent = new Agent({
    connect: { timeout: timeouts.connectMs },
    keepAliveTimeout: 30_000,
    headersTimeout: timeouts.firstByteMs,
    bodyTimeout: timeouts.idleMs,
  })
  return {
    timeouts,
    send(spec: HttpSpec, signal: AbortSignal): Promise<UpstreamResponse> {
      return request(spec.url, { method: spec.method, headers: spec.headers, body: spec.body, signal, dispatcher: agent })
    },
    close: () => agent.close(),
  }
}

export type Http = ReturnType<typeof createHttp>

/** Classifies an error thrown by undici while connecting, waiting or reading. */
export function transportFailure(err: unknown): TransportFailure {
  if (err instanceof errors.HeadersTimeoutError || err instanceof errors.BodyTimeoutError || err instanceof errors.ConnectTimeoutError) {
    return 'timeout'
  }
  const name = (err as Error | undefined)?.name
  if (name === 'AbortError' || err instanceof errors.RequestAbortedError) return 'aborted'
  const code = (err as NodeJS.ErrnoException | undefined)?.code
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EHOSTUNREACH') return 'connect'
  return 'reset'
}
