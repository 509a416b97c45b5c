import type { AdminAuth } from './access/admin-access.js'
import type { SessionDownloads } from './access/session-downloads.js'
import type { Http } from './upstreams/http.js'
import type { KeyRequests } from './access/key-requests.js'
import type { ReplayTickets } from './access/replay-tickets.js'
import type { BodyBudget } from './client/body-budget.js'
import type { BodyCapture } from './client/capture.js'
import type { ConcurrencyLimiter } from './limits.js'
import type { MediaFiles } from './media/media-files.js'
import type { GatewayMetrics } from './metrics/gateway-metrics.js'
import type { Registry } from './registry.js'
import type { Routing } from './relay/failover.js'
import type { SecretBox } from './secrets/secrets.js'
import type { Store } from './store/index.js'
import type { Tracing } from './telemetry/tracing.js'

/** What the admin API and the app pages need to know about this run. */
export interface AppInfo {
  mode: 'desktop' | 'headless'
  version: string
  /** `http://127.0.0.1:8787`, set once the server listens */
  baseUrl: string
  /** the built renderer served at `/`; undefined: not served */
  rendererDir?: string
}

/** What route handlers work with; built once per gateway. */
export interface Services {
  store: Store
  registry: Registry
  http: Http
  limiter: ConcurrencyLimiter
  /** request bodies held in memory, per key and gateway-wide (config `limits.bodyBytes`) */
  bodies: BodyBudget
  /** kept request and answer bodies (Settings → "Keep request and answer bodies") */
  capture: BodyCapture
  /** the one-time tickets of replays, which pin an account (admin/replay.ts) */
  replays: ReplayTickets
  /** where the SQLite store and settings live */
  dataDir: string
  /** the bytes of kept images and videos (`store.media` rows name them): the data dir, or the PostgreSQL store */
  media: MediaFiles
  secrets: SecretBox
  admin: AdminAuth
  /** the failover loop's retry policy and the accounts' circuit breakers (config `routing`; per process) */
  routing: Routing
  /** the Prometheus metrics GET /metrics shows (per process) */
  metrics: GatewayMetrics
  /** request tracing over OTLP (config `telemetry`, OTEL_*); undefined when off */
  tracing?: Tracing
  /** each key's requests in flight, ended when the key is deleted, disabled or expires */
  keyRequests: KeyRequests
  /** each admin session's kept-media downloads in flight, ended when the session ends */
  sessionDownloads: SessionDownloads
  app: AppInfo
  /** writes one log line, with every secret the gateway knows of removed */
  log(line: string): void
}
