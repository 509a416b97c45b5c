// A fake OpenTelemetry collector: OTLP over HTTP with JSON bodies (the trace exporter's default encoding), on
// 127.0.0.1. It keeps every export's raw body and headers, and decodes the spans in it.
import http from 'node:http'
import { listenLocal } from './listen-local.js'

/** An attribute value as OTLP/JSON writes it (AnyValue), decoded. */
export type AttributeValue = string | number | boolean | AttributeValue[] | null

/** A span as the collector received it: ids in hex, times in nanoseconds (as strings, to keep their precision). */
export interface ReceivedSpan {
  traceId: string
  spanId: string
  parentSpanId?: string
  name: string
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client */
  kind: number
  startTimeUnixNano: string
  endTimeUnixNano: string
  attributes: Record<string, AttributeValue>
  /** 0 unset, 1 ok, 2 error */
  statusCode: number
  /** the resource's attributes (service.name …) */
  resource: Record<string, AttributeValue>
}

export interface FakeCollector {
  /** the OTLP/HTTP base URL (traces go to `${url}/v1/traces`) */
  url: string
  /** every export request: its path, headers and raw body */
  exports: Array<{ path: string; headers: http.IncomingHttpHeaders; body: string }>
  spans: ReceivedSpan[]
  /** `ok`: answers 200 at once; `never`: reads the export and never answers */
  mode: 'ok' | 'never'
  close(): Promise<void>
}

interface JsonAnyValue {
  stringValue?: string
  intValue?: number | string
  doubleValue?: number
  boolValue?: boolean
  arrayValue?: { values?: JsonAnyValue[] }
}

function decodeValue(v: JsonAnyValue): AttributeValue {
  if (v.stringValue !== undefined) return v.stringValue
  if (v.intValue !== undefined) return Number(v.intValue)
  if (v.doubleValue !== undefined) return v.doubleValue
  if (v.boolValue !== undefined) return v.boolValue
  if (v.arrayValue !== undefined) return (v.arrayValue.values ?? []).map(decodeValue)
  return null
}

const decodeAttributes = (list: Array<{ key: string; value: JsonAnyValue }> | undefined): Record<string, AttributeValue> =>
  Object.fromEntries((list ?? []).map((a) => [a.key, decodeValue(a.value)]))

/** The spans of one OTLP/JSON ExportTraceServiceRequest. */
export function decodeExport(body: string): ReceivedSpan[] {
  const request = JSON.parse(body) as { resourceSpans?: Array<{ resource?: { attributes?: [] }; scopeSpans?: Array<{ spans?: any[] }> }> }
  return (request.resourceSpans ?? []).flatMap((rs) => {
    const resource = decodeAttributes(rs.resource?.attributes)
    return (rs.scopeSpans ?? []).flatMap((ss) =>
      (ss.spans ?? []).map((s) => ({
        traceId: s.traceId,
        spanId: s.spanId,
        ...(s.parentSpanId ? { parentSpanId: s.parentSpanId } : {}),
        name: s.name,
        kind: s.kind,
        startTimeUnixNano: String(s.startTimeUnixNano),
        endTimeUnixNano: String(s.endTimeUnixNano),
        attributes: decodeAttributes(s.attributes),
        statusCode: s.status?.code ?? 0,
        resource,
      })),
    )
  })
}

export async function startFakeCollector(mode: FakeCollector['mode'] = 'ok'): Promise<FakeCollector> {
  const collector: Omit<FakeCollector, 'url' | 'close'> = { exports: [], spans: [], mode }
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      collector.exports.push({ path: (req.url ?? '/').split('?')[0], headers: req.headers, body })
      if (collector.mode === 'never') return
      try {
        collector.spans.push(...decodeExport(body))
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"code":3,"message":"not OTLP/JSON"}')
        return
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  const { origin, close } = await listenLocal(server)
  return Object.assign(collector, { url: origin, close }) as FakeCollector
}
