import type { GatewayConfig } from '../config/load-config.js'

/** Where and how spans are exported when tracing is on (README "Tracing (OpenTelemetry)"). */
export interface OtlpSettings {
  /** the OTLP/HTTP traces URL (`…/v1/traces`) */
  url: string
  /** sent with every export (a collector's API key): secret, never logged or shown */
  headers?: Record<string, string>
  serviceName: string
  /** the traces URL as the start's log line shows it: no user, password or query */
  shown: string
}

export const DEFAULT_SERVICE_NAME = 'gatehouse'

/** OTLP's own path for traces under a base endpoint, as OTEL_EXPORTER_OTLP_ENDPOINT defines it. */
const TRACES_PATH = 'v1/traces'

const set = (value: string | undefined): string | undefined => (value === undefined || value.trim() === '' ? undefined : value.trim())

/** A base endpoint's traces URL; one already ending in /v1/traces is taken as it is. */
export function tracesUrl(endpoint: string): string {
  if (/\/v1\/traces\/?$/.test(endpoint)) return endpoint
  return endpoint.endsWith('/') ? `${endpoint}${TRACES_PATH}` : `${endpoint}/${TRACES_PATH}`
}

function shownUrl(url: string, from: string): string {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new Error(`${from} is not a URL`)
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`${from} must be an http:// or https:// URL`)
  return `${parsed.origin}${parsed.pathname}`
}

/**
 * Whether tracing is on, and its settings: the config file's `telemetry.otlp`, else the standard variables
 * (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, a full URL; OTEL_EXPORTER_OTLP_ENDPOINT, a base). Off (undefined) when neither
 * names an endpoint, and whenever OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none. Headers not given in the file
 * are read by the exporter from OTEL_EXPORTER_OTLP_(TRACES_)HEADERS.
 */
export function otlpSettings(config: GatewayConfig['telemetry'], env: NodeJS.ProcessEnv): OtlpSettings | undefined {
  if (set(env.OTEL_SDK_DISABLED)?.toLowerCase() === 'true') return undefined
  if (set(env.OTEL_TRACES_EXPORTER)?.toLowerCase() === 'none') return undefined
  const serviceName = config?.otlp?.serviceName ?? set(env.OTEL_SERVICE_NAME) ?? DEFAULT_SERVICE_NAME
  const fromFile = config?.otlp?.endpoint
  if (fromFile !== undefined) {
    const url = tracesUrl(fromFile)
    return { url, serviceName, shown: shownUrl(url, 'telemetry.otlp.endpoint'), ...(config?.otlp?.headers === undefined ? {} : { headers: { ...config.otlp.headers } }) }
  }
  const traces = set(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)
  if (traces !== undefined) return { url: traces, serviceName, shown: shownUrl(traces, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') }
  const base = set(env.OTEL_EXPORTER_OTLP_ENDPOINT)
  if (base !== undefined) {
    const url = tracesUrl(base)
    return { url, serviceName, shown: shownUrl(url, 'OTEL_EXPORTER_OTLP_ENDPOINT') }
  }
  return undefined
}
