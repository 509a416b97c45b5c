/**
 * The admin API (`/admin/v1/...`) the renderer uses to manage the gateway: groups, upstream accounts,
 * gateway keys, settings, the request log, tasks and the app's own saved state. Types here are the
 * answers; the request bodies are validated by the schemas in `schemas/admin.ts`.
 * Secrets only ever travel inward: upstream keys come back as hints, gateway keys are shown once.
 */
import type { GroupProtocol, ModelFallback, PricedComponent, UsageSource, Vendor } from './types.js'

export const ADMIN_PREFIX = '/admin/v1'
/** The cookie a session rides in (HttpOnly, SameSite=Strict). Alone it authorizes nothing: see ADMIN_SESSION_HEADER. */
export const ADMIN_COOKIE = 'gatehouse_admin'
/**
 * The header that carries the session token on every admin call, together with the cookie. Cookies are shared by
 * every port of a host, so another local web service gets the cookie, but never this token.
 */
export const ADMIN_SESSION_HEADER = 'x-gatehouse-session'
/** The query parameter of kept-media URLs (`/admin/v1/media/{id}?media_token=`), for `<img>` and `<video>`, which cannot send headers. */
export const MEDIA_TOKEN_PARAM = 'media_token'
/** The URL fragment the one-time login address redirects to (`/#session=<token>`): fragments never reach a server. */
export const SESSION_FRAGMENT = 'session'
export const LANGUAGES = ['en', 'zh'] as const
export type Language = (typeof LANGUAGES)[number]

export interface AdminSession {
  /** `desktop`: inside the Electron window; `headless`: the gateway run by itself, opened in a browser */
  mode: 'desktop' | 'headless'
  version: string
  /** where SDKs point: `${baseUrl}/v1` for OpenAI SDKs, `baseUrl` for Anthropic SDKs */
  baseUrl: string
  dataDir: string
  /** the session's media token for kept-media URLs (MEDIA_TOKEN_PARAM); null when signed in with the admin token alone */
  mediaToken: string | null
}

/** The answer to POST /admin/v1/session: the session, and the token to send in ADMIN_SESSION_HEADER. */
export interface OpenedAdminSession extends AdminSession {
  sessionToken: string
}

export interface GroupSummary {
  id: string
  name: string | null
  protocol: GroupProtocol
  models: string[]
  /** upstream account ids in failover order */
  upstreams: string[]
  images: { singleImage?: boolean; officialDirect?: boolean }
  /** a chat stream cut after its content started is continued by the next account that takes a prefix (README "Continuation") */
  continuation: boolean
  keyCount: number
}

/** A model's settings the admin API changes: its ordered fallbacks (README "Model mapping and fallbacks"). */
export interface ModelSettings {
  model: string
  fallbacks: ModelFallback[]
}

export interface UpstreamSummary {
  id: string
  vendor: Vendor
  baseUrl: string
  /** the secret, masked (`sk-abc…wxyz`); the secret itself never comes back */
  apiKeyHint: string
  /** the models served: ids under their own names, or each id mapped to the account's own name for it; null: every catalog model of the vendor */
  models: string[] | Record<string, string> | null
  priority: number
  /** groups that use this account */
  groups: string[]
  /** USD: a spending cap; once reached, failover skips the account. null: none */
  budget: number | null
  /** USD spent through the account since its cap was set */
  spent: number
  /** its circuit breaker in this gateway process (README "Circuit breakers") */
  breaker: UpstreamBreaker
}

/** An account's circuit breaker, as one gateway process holds it. */
export interface UpstreamBreaker {
  state: 'closed' | 'open' | 'half-open'
  /** a background probe is under way */
  probing: boolean
  /** how a half-open account is tried: `probe`, its model list asked in the background; `request`, the next request */
  trial: 'probe' | 'request'
  /** its last changes, oldest first (at most 10): `at` in ms since the epoch */
  transitions: Array<{ at: number; from: 'closed' | 'open' | 'half-open'; to: 'closed' | 'open' | 'half-open'; why: string }>
}

export interface KeySummary {
  id: string
  /** masked (`sk-gh-ab…wxyz`) */
  hint: string
  group: string
  name: string | null
  concurrency: number | null
  /** USD; null: no quota */
  quota: number | null
  /** USD spent against the quota */
  used: number
  /** USD held by the key's requests and video tasks under way */
  reserved: number
  /** unix seconds; null: never */
  expiresAt: number | null
  disabled: boolean
  /** unix seconds */
  createdAt: number
  /** the key the app itself uses for this group's panels */
  app: boolean
}

/** The answer to creating a key: the secret, shown this once. */
export interface CreatedKey extends KeySummary {
  key: string
}

/** The answer of POST /admin/v1/upstreams/test. */
export type UpstreamTestResult = UpstreamTestSuccess | UpstreamTestFailure

export interface UpstreamTestSuccess {
  ok: true
  /** false: the vendor has no model-list endpoint (Kling, MiniMax); `models` are the catalog's and the key is checked at the first call */
  listed: boolean
  /** the model ids the vendor listed for the account */
  models: string[]
  /** the catalog models among them, which groups can offer through this account */
  callable: string[]
}

export interface UpstreamTestFailure {
  ok: false
  /** the vendor's HTTP status; null when none came */
  status: number | null
  reason: 'unauthorized' | 'not_found' | 'unreachable' | 'timeout' | 'vendor_error' | 'bad_answer' | 'refused'
  /** what went wrong, in plain words (in the language of Accept-Language) */
  message: string
  /** the vendor's own words, redacted and cut short */
  detail: string | null
}

export interface AccountSummary {
  /** USD; null: no budget, requests are never refused for money */
  budget: number | null
  /** USD spent against the budget since it was set (or cleared) */
  spent: number
  /** USD: budget less spent; null with no budget */
  remaining: number | null
  /** USD: `remaining`, or 0 with no budget */
  balance: number
  /** USD held for requests and tasks under way */
  reserved: number
  /** USD a new request may still hold: remaining less reserved; null with no budget */
  available: number | null
  concurrency: number
}

export interface RequestLogEntry {
  id: string
  /** milliseconds since 1970 */
  createdAt: number
  keyId: string | null
  group: string | null
  model: string | null
  endpoint: string
  status: number
  errorCode: string | null
  upstream: string | null
  inputTokens: number | null
  outputTokens: number | null
  /** USD */
  cost: number
  latencyMs: number
  /** every upstream attempt the failover loop made (or skipped), oldest first; null: none recorded (no upstream call) */
  attempts: UpstreamAttempt[] | null
  /** where the usage came from; null: no usage */
  usageSource: UsageSource | null
  /** the bill in parts, each at its list price; null: none recorded */
  breakdown: PricedComponent[] | null
  /** a replay (POST /admin/v1/requests/{id}/replay): the request it sent again; absent on any other */
  replayOf?: string
}

/**
 * One try of one account by the failover loop, as the ledger keeps it (column `attempts`, JSON, at most
 * MAX_ATTEMPT_RECORDS of them): which account and model, what came of it, how long it took, and why the loop moved on.
 */
export interface UpstreamAttempt {
  /** the account's id */
  account: string
  model: string
  /** `ok`, `status 503`, `timeout`, `reset`, `connect`, `malformed`, `empty`, `aborted` or `skipped: breaker open` */
  outcome: string
  /** milliseconds the attempt took (0 when skipped) */
  ms: number
  /** why the loop moved on: `failed over`, `retry in 2000 ms (Retry-After)`, `retry budget spent` …; absent on success */
  next?: string
}

/** The most attempts a ledger row keeps: the retry budget bounds a request far below it. */
export const MAX_ATTEMPT_RECORDS = 32

export interface RequestLogPage {
  data: RequestLogEntry[]
  /** pass as `before` for the next (older) page; null at the end */
  next: string | null
}

export interface TaskSummary {
  id: string
  kind: 'image' | 'video'
  group: string
  /** the key that submitted it (the app's own key of the group, or one used from code) */
  keyId: string
  model: string
  status: string
  progress: number | null
  createdAt: number
  updatedAt: number
  /** the task's public answer as its GET endpoint gives it */
  detail: unknown
  /** the Idempotency-Key it was submitted with, if any */
  idempotencyKey: string | null
}

export interface Settings {
  port: number
  language: Language
  /** keeping request and answer bodies (the inspector, replay); GET always answers it, PUT may leave it out (unchanged) */
  bodies?: BodySettings
}

/**
 * Settings → "Keep request and answer bodies": the last `count` requests' bodies, secrets redacted; images and audio
 * replaced by their size, type and SHA-256 unless `keepMedia`. On by default in the desktop app, off headless.
 */
export interface BodySettings {
  keep: boolean
  keepMedia: boolean
  count: number
}

/** The bounds of kept bodies: how many requests, and the stored bytes per body and in all. */
export const BODY_LIMITS = { defaultCount: 200, maxCount: 1000, requestBytes: 256 * 1024, answerBytes: 256 * 1024, totalBytes: 64 * 1024 * 1024 } as const

/** Media left out of a kept body: what it was, so the inspector can name it. */
export interface StrippedMedia {
  stripped: 'media'
  type: string
  bytes: number
  sha256: string
}

/** A kept body that could not be kept whole: too large for BODY_LIMITS, or not JSON (an upload, audio). */
export interface OmittedBody {
  omitted: 'too_large' | 'not_json' | 'binary'
  type: string
  bytes: number
  sha256: string
}

/** One server-sent event as the client got it; `at`: milliseconds after the request arrived. */
export interface CapturedEvent {
  at: number
  event?: string
  data: unknown
}

/** GET /admin/v1/requests/{id}/body: a request as the client sent it and the answer as it was delivered. */
export interface CapturedExchange {
  requestId: string
  createdAt: number
  /** the request this one replayed; null: not a replay */
  replayOf: string | null
  request: {
    method: string
    path: string
    /** credential headers (Authorization, x-api-key, cookies, …) read `[redacted]` */
    headers: Record<string, string>
    body: unknown
  }
  answer: {
    status: number
    contentType: string | null
    kind: 'json' | 'sse' | 'binary' | 'empty'
    body?: unknown
    events?: CapturedEvent[]
    /** the answer went past what is held in memory (events or bytes after it are not kept) */
    truncated: boolean
    bytes: number
  }
  /** milliseconds after the request arrived; null: not measured for this answer (first token: streams only) */
  timings: { queueMs: number | null; firstByteMs: number | null; firstTokenMs: number | null; totalMs: number }
}

/** Saved app state (`/admin/v1/state/{name}`): what the panels persist, kept in the gateway's store. */
export const STATE_NAMES = ['chat', 'images', 'video', 'ui'] as const
export type StateName = (typeof STATE_NAMES)[number]

/** A saved image or video kept in the data dir (generated images whose vendor links expire, uploads from the app). */
export interface MediaItem {
  id: string
  requestId: string
  kind: string
  mimeType: string
  /** where the renderer fetches it: `/admin/v1/media/{id}` */
  url: string
  sourceUrl: string | null
  createdAt: number
}

/**
 * The routes, for reference (all JSON unless noted; errors in the chat protocol's shape). Every /admin/v1 call needs
 * `Authorization: Bearer <admin token>`, or the session cookie together with the session token in ADMIN_SESSION_HEADER
 * (kept media also takes the cookie with `?media_token=`). Sessions end after 30 idle minutes or 12 hours.
 *   GET    /admin/login?code=…            one-time login URL: sets the session cookie, 303 to /#session=<token>
 *   POST   /admin/v1/session              exchanges `Authorization: Bearer <admin token>` (desktop) for the cookie → OpenedAdminSession
 *   GET    /admin/v1/session              → AdminSession (401 when not signed in)
 *   DELETE /admin/v1/session              signs out: the session is forgotten, the cookie cleared → 204
 *   GET    /admin/v1/groups               → GroupSummary[]
 *   POST   /admin/v1/groups               {id,name?,protocol,models,upstreams,images?,continuation?} → GroupSummary (201)
 *   PATCH  /admin/v1/groups/{id}          {name?,models?,upstreams?,images?,continuation?} → GroupSummary
 *   DELETE /admin/v1/groups/{id}          409 while keys use it → 204
 *   POST   /admin/v1/groups/{id}/app-key  → { key } the app's own key for the group's panels
 *   GET    /admin/v1/upstreams            → UpstreamSummary[]
 *   POST   /admin/v1/upstreams            {id,vendor,baseUrl,apiKey,models?,priority?,groups?} → UpstreamSummary (201)
 *   PATCH  /admin/v1/upstreams/{id}       {baseUrl?,apiKey?,models?,priority?,budget?} → UpstreamSummary
 *   DELETE /admin/v1/upstreams/{id}       also leaves every group's list → 204
 *   GET    /admin/v1/model-settings       → ModelSettings[] (every catalog model's fallbacks)
 *   PATCH  /admin/v1/model-settings/{id}  {fallbacks} → ModelSettings (replaced whole; [] none)
 *   POST   /admin/v1/upstreams/test       {vendor,baseUrl,apiKey} | {id} → UpstreamTestResult (the vendor's model list)
 *   GET    /admin/v1/keys?group=…         → KeySummary[]
 *   POST   /admin/v1/keys                 {group,name?,concurrency?,quota?,expiresAt?} → CreatedKey (201)
 *   PATCH  /admin/v1/keys/{id}            {name?,disabled?,concurrency?,quota?,expiresAt?} → KeySummary
 *   DELETE /admin/v1/keys/{id}            revoke → 204
 *   GET    /admin/v1/account              → AccountSummary
 *   PATCH  /admin/v1/account              {budget?,balance?,concurrency?} → AccountSummary (budget null: no limit)
 *   GET    /admin/v1/requests?group&key&model&endpoint&status(ok|error|NNN)&since&until&limit&before&housekeeping → RequestLogPage
 *   GET    /admin/v1/tasks?kind=video|image&limit → TaskSummary[] (newest first)
 *   GET    /admin/v1/usage/summary?since&until&tz&by(model|group)&housekeeping → UsageSummary (per local day)
 *   GET    /admin/v1/media?request=…      → MediaItem[]
 *   POST   /admin/v1/media?request=…      raw image/video body → MediaItem (201)
 *   GET    /admin/v1/media/{id}           the bytes (also with the cookie and ?media_token=, for <img>/<video>)
 *   GET    /admin/v1/media-copies?request=…        → KeptCopy[] (shared/kept-copy.ts: each linked result's copy, in one state)
 *   POST   /admin/v1/media-copies/retry?request=…&index=…  → KeptCopy[] (a failed copy tried again now; 404 when none)
 *   POST   /admin/v1/linked-image         {url} → the image's bytes, fetched through the link guard (a chat image the user clicked to load)
 *   GET    /admin/v1/settings             → Settings
 *   PUT    /admin/v1/settings             Settings → Settings (the port applies at the next start)
 *   GET    /admin/v1/state/{name}         → { value, updatedAt } (404 before the first save)
 *   PUT    /admin/v1/state/{name}         { value } → 204
 *   GET    /admin/v1/connect              → ConnectOverview (shared/connect.ts: the tools found on the gateway's machine, the SDK variables)
 *   POST   /admin/v1/connect/{tool}       {group?,model?,dryRun?} → ConnectResult (201 written; 200 dry run; 409 connected or a file that does not parse)
 *   POST   /admin/v1/connect/{tool}/disconnect|undo  {dryRun?} → ConnectResult (409 when not connected)
 */

// --- Usage summary (GET /admin/v1/usage/summary) ---

/** What the spending chart stacks by. */
export const USAGE_BY = ['model', 'group'] as const
export type UsageBy = (typeof USAGE_BY)[number]

/**
 * The app's housekeeping: calls made with the app's own key of a group (KeySummary.app) to these endpoints, which
 * the panels make to list models, read usage and show prices as the user types (quotes), not to do work. Admin calls are never in the log at all.
 * The request log and the usage summary leave them out with `housekeeping=false`.
 */
export const HOUSEKEEPING_ENDPOINTS = ['models.list', 'models.retrieve', 'usage', 'quote'] as const

/** Latency percentiles of a day, in ms (nearest rank), from at most `sampled` of its requests. */
export interface UsageLatency {
  p50: number
  p90: number
  p99: number
  /** how many requests the percentiles were read from: all of the day's, or a sample of USAGE_LATENCY_SAMPLE */
  sampled: number
}

export interface UsageDay {
  /** the local date, `YYYY-MM-DD` */
  date: string
  /** the day's first millisecond (since 1970) */
  start: number
  requests: number
  /** requests with status 400 and above */
  errors: number
  /** USD */
  cost: number
  /** null on a day without requests */
  latency: UsageLatency | null
}

/** One model's (or group's) spending, a USD figure per day of `days`. `id` null: requests without a model (group). */
export interface UsageSeries {
  id: string | null
  cost: number[]
}

export interface UsageKeySpend {
  /** null: requests without a key (refused before a key was known) */
  keyId: string | null
  name: string | null
  /** null when the key was revoked since */
  hint: string | null
  app: boolean
  requests: number
  /** USD */
  cost: number
}

export interface UsageSummary {
  since: string
  until: string
  timeZone: string
  by: UsageBy
  housekeeping: boolean
  days: UsageDay[]
  /** the biggest spenders, most first, then `other`: the rest summed (null when there is no rest) */
  series: UsageSeries[]
  other: { count: number; cost: number[] } | null
  keys: UsageKeySpend[]
  otherKeys: { count: number; requests: number; cost: number } | null
}

/** Bounds of the summary: days per call, series and keys listed one by one, requests read per day for percentiles. */
export const USAGE_MAX_DAYS = 92
export const USAGE_MAX_SERIES = 10
export const USAGE_MAX_KEYS = 20
export const USAGE_LATENCY_SAMPLE = 2000
