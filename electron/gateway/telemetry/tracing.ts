/**
 * Request tracing over OTLP/HTTP (README "Tracing (OpenTelemetry)"). Off unless configured: then nothing of
 * OpenTelemetry is loaded (its packages are imported here, dynamically, only when tracing starts) and the request
 * path costs one check of an undefined hook. On: a span per request that writes a ledger row, with a child span per
 * attempt of the failover loop, built from the two places the gateway already observes requests (the ledger row's
 * moment, and the attempt records), and exported in batches off the request path.
 */
import type { Span, Tracer } from '@opentelemetry/api'
import type { UpstreamAttempt } from '../../../shared/admin.js'
import type { Vendor } from '../../../shared/types.js'
import type { RequestContext } from '../context.js'
import { GATEHOUSE_VERSION } from '../version.js'
import type { OtlpSettings } from './otlp-settings.js'
import {
  answersWithFinishReasons, attemptAttributes, attemptFailed, attemptSpanName, collectFinishReasons, MAX_PARAMETER_BODY_BYTES,
  requestAttributes, requestParameters, requestSpanName,
} from './span-attributes.js'

/** The longest the gateway's close waits for the last spans to leave: a dead collector never holds a stop longer. */
export const FLUSH_DEADLINE_MS = 2_000
/** One export's deadline (the exporter's own timeout, and the batch processor's). */
const EXPORT_TIMEOUT_MS = 5_000
/** Spans are sent at most this long after they end, in batches of up to 512; beyond 2048 waiting, new ones are dropped. */
const SCHEDULED_DELAY_MS = 1_000
const MAX_QUEUE = 2_048
/** The end of an answer read for its finish reasons (a whole answer when it is smaller). */
const SCANNED_TAIL_CHARS = 64 * 1024

/** One traced request: ended with its ledger row. */
export interface RequestTrace {
  /** `route`: the route's path as the route table names it (http.route) */
  end(endpoint: string, route: string | RegExp, status: number): void
}

export interface Tracing {
  /** Hears each attempt record of the failover loop as it is made (relay/failover.ts `Routing.observe`). */
  attemptRecorded(entry: UpstreamAttempt): void
  /** Starts tracing a request that will write a ledger row (server.ts), before its handler runs. */
  start(ctx: RequestContext): RequestTrace
  /** Exports what is left and stops, within FLUSH_DEADLINE_MS whatever the collector does. */
  close(): Promise<void>
}

/** What tracing reads of the gateway: each upstream account's vendor. */
export interface TracingSources {
  vendorOf(account: string): Vendor | undefined
}

/** Loads OpenTelemetry and starts exporting to the collector `settings` name. */
export async function startTracing(settings: OtlpSettings, sources: TracingSources): Promise<Tracing> {
  const [api, { TracerProvider, BatchSpanProcessor }, { resourceFromAttributes }, { OTLPTraceExporter }] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/exporter-trace-otlp-http'),
  ])
  const exporter = new OTLPTraceExporter({ url: settings.url, timeoutMillis: EXPORT_TIMEOUT_MS, ...(settings.headers === undefined ? {} : { headers: settings.headers }) })
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName, 'service.version': GATEHOUSE_VERSION }),
    spanProcessors: [new BatchSpanProcessor({ exporter, scheduledDelayMillis: SCHEDULED_DELAY_MS, exportTimeoutMillis: EXPORT_TIMEOUT_MS, maxQueueSize: MAX_QUEUE })],
  })
  const tracer: Tracer = provider.getTracer('gatehouse', GATEHOUSE_VERSION)
  /** When each attempt record was made: its span's start. */
  const startedAt = new WeakMap<UpstreamAttempt, number>()
  // performance.now() readings as the epoch milliseconds spans take.
  const epoch = (t: number) => performance.timeOrigin + t

  function endRequest(ctx: RequestContext, reasons: string[], endpoint: string, route: string, status: number): void {
    const now = performance.now()
    const attributes = requestAttributes(ctx, endpoint, route, status, sources.vendorOf)
    if (attributes['gen_ai.operation.name'] !== undefined) {
      Object.assign(attributes, parametersOf(ctx))
      if (reasons.length > 0) attributes['gen_ai.response.finish_reasons'] = reasons
    }
    const span: Span = tracer.startSpan(requestSpanName(ctx, endpoint, route), { kind: api.SpanKind.SERVER, startTime: epoch(ctx.startedAt), attributes })
    if (status >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR })
    const parent = api.trace.setSpan(api.ROOT_CONTEXT, span)
    const attempts = ctx.outcome.attempts ?? []
    for (let i = 0; i < attempts.length; i++) {
      const entry = attempts[i]
      const start = startedAt.get(entry) ?? ctx.startedAt
      // A record keeps whole milliseconds: an attempt ends by the time the next one is recorded, and by the request's end.
      const end = Math.min(start + entry.ms, (i + 1 < attempts.length ? startedAt.get(attempts[i + 1]) : undefined) ?? now, now)
      const child = tracer.startSpan(attemptSpanName(endpoint, entry), {
        kind: api.SpanKind.CLIENT,
        startTime: epoch(start),
        attributes: attemptAttributes(endpoint, entry, sources.vendorOf(entry.account)),
      }, parent)
      if (attemptFailed(entry)) child.setStatus({ code: api.SpanStatusCode.ERROR })
      child.end(epoch(Math.max(start, end)))
    }
    span.end(epoch(now))
  }

  return {
    attemptRecorded(entry) {
      startedAt.set(entry, performance.now())
    },
    start(ctx) {
      const reasons: string[] = []
      if (answersWithFinishReasons(ctx.endpoint ?? '')) readFinishReasons(ctx, reasons)
      return {
        end(endpoint, route, status) {
          try {
            endRequest(ctx, reasons, endpoint, typeof route === 'string' ? route : ctx.path, status)
          } catch {
            // A span that cannot be made is lost; the request it describes is not.
          }
        },
      }
    },
    async close() {
      let timer: NodeJS.Timeout | undefined
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, FLUSH_DEADLINE_MS)))
      try {
        await Promise.race([provider.shutdown().catch(() => undefined), late])
      } finally {
        clearTimeout(timer)
      }
    },
  }
}

/** The request's sampling parameters, read again from its body (a body past MAX_PARAMETER_BODY_BYTES is not read). */
function parametersOf(ctx: RequestContext): ReturnType<typeof requestParameters> {
  if (ctx.json !== undefined) return requestParameters(ctx.json)
  if (ctx.body.length === 0 || ctx.body.length > MAX_PARAMETER_BODY_BYTES) return {}
  try {
    return requestParameters(JSON.parse(ctx.body.toString('utf8')))
  } catch {
    return {}
  }
}

/** Reads the finish reasons off the answer's writes as they go out (its tail only, for a large piece). */
function readFinishReasons(ctx: RequestContext, into: string[]): void {
  const { res } = ctx
  const write = res.write.bind(res) as (...args: unknown[]) => boolean
  const end = res.end.bind(res) as (...args: unknown[]) => typeof res
  const scan = (chunk: unknown) => {
    if (typeof chunk === 'string') collectFinishReasons(chunk.length > SCANNED_TAIL_CHARS ? chunk.slice(-SCANNED_TAIL_CHARS) : chunk, into)
    else if (chunk instanceof Uint8Array) {
      const from = Math.max(0, chunk.byteLength - SCANNED_TAIL_CHARS)
      collectFinishReasons(Buffer.from(chunk.buffer, chunk.byteOffset + from, chunk.byteLength - from).toString('latin1'), into)
    }
  }
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    scan(chunk)
    return write(chunk, ...rest)
  }) as typeof res.write
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (typeof chunk !== 'function') scan(chunk)
    return end(chunk, ...rest)
  }) as typeof res.end
}
