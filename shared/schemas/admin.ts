/**
 * JSON Schemas of the admin API's bodies and answers (shared/admin.ts). Bodies reuse the config file's
 * item schemas, so a group or key made in the app obeys exactly the rules of one made in a config file.
 */
import { BODY_LIMITS, LANGUAGES, STATE_NAMES, USAGE_BY, USAGE_LATENCY_SAMPLE, USAGE_MAX_KEYS, USAGE_MAX_SERIES } from '../admin.js'
import { FALLBACK_TRIGGERS, USAGE_COMPONENTS, USAGE_SOURCES, VENDORS } from '../types.js'
import { MAX_USD } from './common.js'
import { gatewayConfig, modelFallbacks } from './config.js'

type Props = Record<string, object>
const configItem = <N extends 'groups' | 'upstreams' | 'keys'>(name: N): (typeof gatewayConfig.properties)[N]['items'] =>
  gatewayConfig.properties[name].items
const omit = (props: Props, ...names: string[]) => Object.fromEntries(Object.entries(props).filter(([k]) => !names.includes(k)))
const patchOf = (props: Props) => ({ type: 'object', additionalProperties: false, minProperties: 1, properties: props })
const nullable = (schema: object) => ({ anyOf: [schema, { type: 'null' }] })

export const groupCreate = configItem('groups')
export const groupPatch = patchOf(omit(configItem('groups').properties, 'id', 'protocol'))

export const upstreamCreate = {
  ...configItem('upstreams'),
  properties: { ...configItem('upstreams').properties, groups: { type: 'array', items: { type: 'string', minLength: 1 }, description: 'groups that use the account (appended to their failover order)' } },
}
export const upstreamPatch = patchOf({
  ...omit(configItem('upstreams').properties, 'id', 'vendor', 'models'),
  models: nullable({ ...configItem('upstreams').properties.models, description: 'null: every catalog model of the vendor' }),
  budget: nullable({ ...configItem('upstreams').properties.budget, description: 'USD: a spending cap for this account, counted from now; null: none' }),
})

/** PATCH /admin/v1/model-settings/{model}: the model's ordered fallbacks, replaced whole (`[]`: none). */
export const modelSettingsPatch = { type: 'object', additionalProperties: false, required: ['fallbacks'], properties: { fallbacks: modelFallbacks } }

const keyProps = configItem('keys').properties
export const keyCreate = {
  type: 'object',
  additionalProperties: false,
  required: ['group'],
  properties: { ...omit(keyProps, 'key', 'disabled'), expiresAt: nullable(keyProps.expiresAt) },
}
export const keyPatch = patchOf({
  name: nullable({ type: 'string' }),
  disabled: keyProps.disabled,
  concurrency: nullable(keyProps.concurrency),
  quota: nullable(keyProps.quota),
  expiresAt: nullable(keyProps.expiresAt),
})

export const accountPatch = patchOf({
  budget: { type: ['number', 'null'], minimum: 0, maximum: MAX_USD, description: 'USD: the spending limit, from which spending counts anew; null: no budget, nothing is refused for money' },
  balance: { type: 'number', maximum: MAX_USD, description: 'USD: the same as a numeric `budget` (kept for older clients)' },
  concurrency: gatewayConfig.properties.account.properties.concurrency,
})

const upstreamProps = configItem('upstreams').properties
export const upstreamTest = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: { id: { type: 'string', minLength: 1, description: 'a stored account' }, vendor: upstreamProps.vendor, baseUrl: upstreamProps.baseUrl, apiKey: upstreamProps.apiKey },
  oneOf: [{ required: ['id'], not: { anyOf: [{ required: ['vendor'] }, { required: ['baseUrl'] }, { required: ['apiKey'] }] } }, { required: ['vendor', 'baseUrl', 'apiKey'], not: { required: ['id'] } }],
}

/** POST /admin/v1/linked-image: the image a chat answer links to, fetched when the user clicks to load it. */
export const linkedImageRequest = {
  type: 'object',
  additionalProperties: false,
  required: ['url'],
  properties: { url: { type: 'string', minLength: 1, maxLength: 8192, description: 'an http(s) link to a PNG, JPEG, WebP or GIF image' } },
}

export const settingsBody = {
  type: 'object',
  additionalProperties: false,
  required: ['port', 'language'],
  properties: {
    port: { type: 'integer', minimum: 1, maximum: 65535, description: 'applies at the next start' },
    language: { enum: LANGUAGES },
    bodies: {
      type: 'object',
      additionalProperties: false,
      required: ['keep', 'keepMedia', 'count'],
      properties: {
        keep: { type: 'boolean', description: 'keep the request and answer bodies of the last `count` requests' },
        keepMedia: { type: 'boolean', description: 'keep images and audio too; otherwise each is replaced by its size, type and SHA-256' },
        count: { type: 'integer', minimum: 1, maximum: BODY_LIMITS.maxCount },
      },
    },
  },
}

export const stateBody = { type: 'object', additionalProperties: false, required: ['value'], properties: { value: {} } }
export const stateNames = { enum: STATE_NAMES }

// Answers, for /openapi.json.
const str = { type: 'string' }
const int = { type: 'integer' }
const num = { type: 'number' }
const strOrNull = { type: ['string', 'null'] }
const numOrNull = { type: ['number', 'null'] }
const obj = (properties: Props, required = Object.keys(properties)) => ({ type: 'object', required, properties })

const sessionFields = {
  mode: { enum: ['desktop', 'headless'] }, version: str, baseUrl: str, dataDir: str,
  mediaToken: { type: ['string', 'null'], description: 'for kept-media URLs (`?media_token=`); null when signed in with the admin token alone' },
}
export const adminSession = obj(sessionFields)
export const openedAdminSession = obj({ ...sessionFields, sessionToken: { type: 'string', description: 'send it as `x-gatehouse-session` with the cookie on every admin call' } })
export const groupSummary = obj({
  id: str, name: strOrNull, protocol: { enum: ['chat', 'messages'] }, models: { type: 'array', items: str },
  upstreams: { type: 'array', items: str }, images: { type: 'object' }, continuation: { type: 'boolean' }, keyCount: int,
})
export const upstreamSummary = obj({
  id: str, vendor: { enum: VENDORS }, baseUrl: str, apiKeyHint: { type: 'string', description: 'masked; the secret is never sent back' },
  models: { anyOf: [{ type: 'array', items: str }, { type: 'object', additionalProperties: str }, { type: 'null' }], description: 'ids served under their own names, or each gateway model id mapped to the name this account knows it by; null: every catalog model of the vendor' },
  priority: num, groups: { type: 'array', items: str },
  budget: { type: ['number', 'null'], description: 'USD: the account\'s spending cap; null: none' },
  spent: { type: 'number', description: 'USD spent through the account since its cap was set' },
  breaker: {
    ...obj({
      state: { enum: ['closed', 'open', 'half-open'] },
      probing: { type: 'boolean', description: 'a background probe of the account is under way' },
      trial: { enum: ['probe', 'request'], description: 'how a half-open account is tried: `probe`, its vendor\'s model list asked in the background (no request pays for it); `request`, the next request' },
      transitions: { type: 'array', description: 'its last changes, oldest first (at most 10)', items: obj({ at: { type: 'integer', description: 'ms since the epoch' }, from: { enum: ['closed', 'open', 'half-open'] }, to: { enum: ['closed', 'open', 'half-open'] }, why: str }) },
    }),
    description: 'the account\'s circuit breaker in this gateway process (each team replica keeps its own; a restart closes it)',
  },
})
export const modelSettings = obj({
  model: str,
  fallbacks: {
    type: 'array',
    description: 'tried in order when the model fails before any content with one of `on` (README "Model mapping and fallbacks")',
    items: obj({ model: str, on: { type: 'array', items: { enum: FALLBACK_TRIGGERS } } }),
  },
})
const keyFields = {
  id: str, hint: str, group: str, name: strOrNull, concurrency: { type: ['integer', 'null'] }, quota: numOrNull, used: num,
  reserved: { type: 'number', description: 'USD held by the key\'s requests and video tasks under way, against its quota' },
  expiresAt: { type: ['integer', 'null'] }, disabled: { type: 'boolean' }, createdAt: int, app: { type: 'boolean' },
}
export const keySummary = obj(keyFields)
export const createdKey = obj({ ...keyFields, key: { type: 'string', description: 'the secret, shown this once' } })
export const upstreamTestResult = {
  oneOf: [
    obj({
      ok: { const: true },
      listed: { type: 'boolean', description: 'false: the vendor has no model-list endpoint (Kling, MiniMax); `models` are the catalog\'s and the key is checked at the first call' },
      models: { type: 'array', items: str, description: 'the model ids the vendor listed for the account' },
      callable: { type: 'array', items: str, description: 'the catalog models among them, which groups can offer through this account' },
    }),
    obj({
      ok: { const: false },
      status: { type: ['integer', 'null'], description: 'the vendor\'s HTTP status; null when none came' },
      reason: { enum: ['unauthorized', 'not_found', 'unreachable', 'timeout', 'vendor_error', 'bad_answer', 'refused'] },
      message: { type: 'string', description: 'what went wrong, in plain words (Accept-Language)' },
      detail: { type: ['string', 'null'], description: 'the vendor\'s own words, with the key redacted' },
    }),
  ],
}
export const accountSummary = obj({
  budget: { type: ['number', 'null'], description: 'USD; null: no budget, requests are never refused for money' },
  spent: { type: 'number', description: 'USD spent against the budget since it was set (with no budget: since it was cleared, or since the install)' },
  remaining: { type: ['number', 'null'], description: 'USD: budget less spent (may fall below zero after the last request settles); null with no budget' },
  balance: { type: 'number', description: 'USD: `remaining`, or 0 with no budget (read `budget` first)' },
  reserved: { type: 'number', description: 'USD held for work under way, against the budget: each request\'s worst case until its row settles it, and video tasks\' reservations (README "Budgets and reservations")' },
  available: { type: ['number', 'null'], description: 'USD a new request may still hold: remaining less reserved; null with no budget' },
  concurrency: int,
})
export const requestLogPage = obj({
  data: {
    type: 'array',
    items: obj({
      id: str, createdAt: int, keyId: strOrNull, group: strOrNull, model: strOrNull, endpoint: str, status: int, errorCode: strOrNull,
      upstream: strOrNull, inputTokens: { type: ['integer', 'null'] }, outputTokens: { type: ['integer', 'null'] }, cost: num, latencyMs: num,
      attempts: {
        type: ['array', 'null'],
        maxItems: 32,
        description: "the failover loop's upstream attempts, oldest first (README \"Retries and circuit breakers\"); null: no upstream call recorded",
        items: obj({
          account: str, model: str,
          outcome: { type: 'string', description: '`ok`, `status 503`, `timeout`, `reset`, `connect`, `malformed`, `empty`, `aborted` or `skipped: breaker open`' },
          ms: num,
          next: { type: 'string', description: 'why the loop moved on (`failed over`, `retry in 2000 ms (Retry-After)`, `retry budget spent …`, `no account left`); absent on the attempt that answered' },
        }, ['account', 'model', 'outcome', 'ms']),
      },
      usageSource: {
        enum: [...USAGE_SOURCES, null],
        description: 'where the usage came from: `upstream` (the vendor reported it), `local_count` (the gateway counted it: none reported, or a stream cut), `reserved` (billed as reserved); null: no usage (README "Billing")',
      },
      breakdown: {
        type: ['array', 'null'],
        description: 'the bill in parts, each at its list price (docs/vendor-usage.md); null: none recorded',
        items: obj({
          kind: { enum: [...USAGE_COMPONENTS] },
          units: { type: 'number', minimum: 0, description: 'tokens, images, seconds or characters' },
          unitPrice: { type: 'number', minimum: 0, description: 'USD per `per`' },
          per: { enum: ['1M tokens', 'image', 'second', '1M characters'] },
          cost: { type: 'number', minimum: 0, description: 'USD' },
        }),
      },
      replayOf: { type: 'string', description: 'a replay (POST /admin/v1/requests/{id}/replay): the request it sent again; absent on any other request' },
    }, ['id', 'createdAt', 'keyId', 'group', 'model', 'endpoint', 'status', 'errorCode', 'upstream', 'inputTokens', 'outputTokens', 'cost', 'latencyMs', 'attempts', 'usageSource', 'breakdown']),
  },
  next: strOrNull,
})
export const taskSummary = obj({
  id: str, kind: { enum: ['image', 'video'] }, group: str, keyId: str, model: str, status: str, progress: numOrNull, createdAt: int, updatedAt: int,
  detail: { type: 'object' },
  idempotencyKey: { ...strOrNull, description: 'the Idempotency-Key the task was submitted with (the app matches its own submissions by it)' },
})
export const mediaItem = obj({ id: str, requestId: str, kind: str, mimeType: str, url: str, sourceUrl: strOrNull, createdAt: int })
export const appKey = obj({ key: str })

// Kept bodies (GET /admin/v1/requests/{id}/body) and replays (POST /admin/v1/requests/{id}/replay).
const msOrNull = { type: ['number', 'null'] }
export const capturedExchange = obj({
  requestId: str, createdAt: int,
  replayOf: { ...strOrNull, description: 'the request this one replayed; null: not a replay' },
  request: obj({
    method: str, path: str,
    headers: { type: 'object', additionalProperties: str, description: 'as the client sent them; Authorization, x-api-key, api-key, cookies and every header named for a key, token, secret or session read `[redacted]`' },
    body: { description: 'the JSON body as parsed, every known key redacted; images and audio as `{stripped: "media", type, bytes, sha256}` unless media is kept; a body not kept whole as `{omitted: "too_large" | "not_json" | "binary", type, bytes, sha256}`' },
  }),
  answer: obj({
    status: int, contentType: strOrNull, kind: { enum: ['json', 'sse', 'binary', 'empty'] },
    body: { description: 'a JSON answer, as the request body is kept' },
    events: { type: 'array', items: obj({ at: num, event: str, data: {} }, ['at', 'data']), description: 'a stream\'s events as delivered; `at`: ms after the request arrived' },
    truncated: { type: 'boolean', description: 'the answer went past the bound kept; what came after is not kept' },
    bytes: int,
  }, ['status', 'contentType', 'kind', 'truncated', 'bytes']),
  timings: obj({
    queueMs: { ...msOrNull, description: 'from arrival to the handler: the body read and the wait for a concurrency slot' },
    firstByteMs: { ...msOrNull, description: 'the answer\'s first byte sent' },
    firstTokenMs: { ...msOrNull, description: 'a stream\'s first event sent (the gateway holds frames back until the first content); null for a whole answer' },
    totalMs: num,
  }),
})
export const replayBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    account: { type: 'string', minLength: 1, description: 'the upstream account to send it through (it must serve the model in the group); default: the group\'s failover order' },
    model: { type: 'string', minLength: 1, description: 'another model of the group; default: the model the request named' },
  },
}
export const replayResult = obj({
  replayOf: str,
  quote: { type: 'object', description: 'the quote (POST /v1/quote) of the replay, made before it was sent' },
  replay: { type: 'object', description: 'the replay\'s request log entry (GET /admin/v1/requests)' },
})
export const stateDoc = obj({ value: {}, updatedAt: int })

// Usage summary (GET /admin/v1/usage/summary).
const usd = { type: 'number', description: 'USD' }
const usdPerDay = { type: 'array', items: num, description: 'USD, one figure per day of `days`' }
export const usageSummary = obj({
  since: { type: 'string', format: 'date' },
  until: { type: 'string', format: 'date' },
  timeZone: { type: 'string', description: 'the IANA time zone the days are local to' },
  by: { enum: USAGE_BY },
  housekeeping: { type: 'boolean', description: "whether the app's housekeeping calls are counted" },
  days: {
    type: 'array',
    items: obj({
      date: { type: 'string', format: 'date' }, start: { type: 'integer', description: "the day's first millisecond since 1970" },
      requests: int, errors: { type: 'integer', description: 'status 400 and above' }, cost: usd,
      latency: {
        anyOf: [
          obj({ p50: num, p90: num, p99: num, sampled: { type: 'integer', description: `requests read: all of the day's, or a deterministic sample of ${USAGE_LATENCY_SAMPLE}` } }),
          { type: 'null' },
        ],
        description: 'ms, nearest rank; null on a day without requests',
      },
    }),
  },
  series: { type: 'array', items: obj({ id: { type: ['string', 'null'], description: 'the model or group; null: requests without one' }, cost: usdPerDay }) },
  other: { anyOf: [obj({ count: int, cost: usdPerDay }), { type: 'null' }], description: `the series after the first ${USAGE_MAX_SERIES}, summed` },
  keys: { type: 'array', items: obj({ keyId: strOrNull, name: strOrNull, hint: { type: ['string', 'null'], description: 'null: revoked since' }, app: { type: 'boolean' }, requests: int, cost: usd }) },
  otherKeys: { anyOf: [obj({ count: int, requests: int, cost: usd }), { type: 'null' }], description: `the keys after the first ${USAGE_MAX_KEYS}, summed` },
})
