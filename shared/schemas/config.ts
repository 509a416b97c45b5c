import { ENDPOINTS, FALLBACK_TRIGGERS, FAMILIES, MODEL_TYPES, VENDORS } from '../types.js'
import { MAX_USD, pricing } from './common.js'

/**
 * The models an upstream account serves: gateway model ids served under their own names, or each gateway model id
 * mapped to the name this account knows it by (README "Model mapping and fallbacks").
 */
export const upstreamModels = {
  description: 'the models this account serves: an array of gateway model ids (called under their own names), or an object mapping each gateway model id to the name the account knows it by (an Azure deployment, a reseller\'s `vendor/model` id); absent: every catalog model of the vendor',
  anyOf: [
    { type: 'array', items: { type: 'string', minLength: 1 } },
    { type: 'object', additionalProperties: { type: 'string', minLength: 1, maxLength: 256 } },
  ],
} as const

/** A model's ordered fallbacks, each with the error classes that lead to it. */
export const modelFallbacks = {
  type: 'array',
  maxItems: 8,
  description: 'models tried in order when this model fails with one of the `on` classes before any content reached the client: unavailable (its accounts exhausted with 5xx, timeouts or breakers open), rate_limited (429s), context_length (the prompt is too long for it); content filtering never falls back. A fallback outside the key\'s group is skipped',
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['model', 'on'],
    properties: {
      model: { type: 'string', minLength: 1 },
      on: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: FALLBACK_TRIGGERS } },
    },
  },
} as const

/** JSON Schema of the headless config file (README "Config file"). */
export const gatewayConfig = {
  type: 'object',
  additionalProperties: false,
  properties: {
    account: {
      type: 'object',
      additionalProperties: false,
      properties: {
        balance: { type: 'number', maximum: MAX_USD, description: 'USD: the account\'s budget (spending limit); applied when it differs from the value applied last time. Without it a new install has no budget: requests are never refused for money' },
        concurrency: { type: 'integer', minimum: 1, default: 5 },
      },
    },
    upstreams: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'vendor', 'baseUrl', 'apiKey'],
        properties: {
          id: { type: 'string', minLength: 1 },
          vendor: { enum: VENDORS },
          baseUrl: { type: 'string', pattern: '^https?://' },
          apiKey: { type: 'string', minLength: 1 },
          models: upstreamModels,
          priority: { type: 'number' },
          budget: { type: 'number', minimum: 0, maximum: MAX_USD, description: 'USD: a spending cap for this account; once reached, failover skips it' },
        },
      },
    },
    groups: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'protocol', 'models', 'upstreams'],
        properties: {
          id: { type: 'string', minLength: 1 },
          name: { type: 'string' },
          protocol: { enum: ['chat', 'messages'] },
          models: { type: 'array', items: { type: 'string', minLength: 1 } },
          upstreams: { type: 'array', items: { type: 'string', minLength: 1 } },
          images: {
            type: 'object',
            additionalProperties: false,
            description: 'image limits of this group (spec §4.2)',
            properties: {
              singleImage: { type: 'boolean', description: 'one image per request: n above 1 answers 400' },
              officialDirect: { type: 'boolean', description: 'the Gemini official-direct group: no edits endpoint; reference images at most 20 MiB decoded' },
            },
          },
          continuation: {
            type: 'boolean',
            description: 'a chat stream cut or gone silent after its content started is continued by the next account whose vendor takes an assistant prefix, in the same stream (README "Continuation"); off by default',
          },
        },
      },
    },
    models: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id'],
        description: 'a catalog entry added or overridden; family and pricing are required for a model not in the built-in catalog',
        properties: {
          id: { type: 'string', minLength: 1 },
          family: { enum: FAMILIES },
          type: { enum: MODEL_TYPES },
          vendor: { enum: VENDORS.filter((v) => v !== 'gateway') },
          pricing,
          endpoints: { type: 'array', items: { enum: ENDPOINTS } },
          fallbacks: modelFallbacks,
          firstTokenMs: { type: 'integer', minimum: 1, description: "upstream: a stream's first content within this of its response headers, for this model (default timeouts.firstTokenMs)" },
          limits: {
            type: 'object',
            properties: {
              contextTokens: { type: 'integer', minimum: 1 },
              maxOutputTokens: { type: 'integer', minimum: 1 },
              maxInputTokens: { type: 'integer', minimum: 1 },
            },
          },
        },
      },
    },
    keys: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['key', 'group'],
        properties: {
          key: { type: 'string', pattern: '^sk-[A-Za-z0-9_-]{8,}$' },
          group: { type: 'string', minLength: 1 },
          name: { type: 'string' },
          concurrency: { type: 'integer', minimum: 1 },
          quota: { type: 'number', minimum: 0, maximum: MAX_USD, description: 'USD this key may spend' },
          expiresAt: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'integer', description: 'Unix seconds' }] },
          disabled: { type: 'boolean' },
        },
      },
    },
    timeouts: {
      type: 'object',
      additionalProperties: false,
      description: 'timeouts in milliseconds: upstream calls (connectMs, firstByteMs, streamFirstByteMs, firstTokenMs, idleMs) and clients (headersMs, bodyIdleMs, bodyMs, clientIdleMs)',
      properties: {
        connectMs: { type: 'integer', minimum: 1, default: 10000, description: 'upstream TCP and TLS connect' },
        firstByteMs: { type: 'integer', minimum: 1, default: 300000, description: 'upstream, an answer not streamed: from sending the request to its response headers, and longest silence in its body' },
        streamFirstByteMs: { type: 'integer', minimum: 1, default: 30000, description: 'upstream, a stream: from sending the request to its response headers (past it: the next account)' },
        firstTokenMs: { type: 'integer', minimum: 1, default: 120000, description: "upstream, a stream: from its response headers to its first content, pings and role-only chunks aside (past it: the next account); a model row's firstTokenMs overrides it" },
        idleMs: { type: 'integer', minimum: 1, default: 30000, description: 'upstream, a stream: longest silence once its content flows (past it: the protocol\'s error event, stream_interrupted)' },
        headersMs: { type: 'integer', minimum: 1, default: 20000, description: "client: longest wait for a request's headers" },
        bodyIdleMs: { type: 'integer', minimum: 1, default: 30000, description: 'client: longest silence while a request body arrives (past it: 408 request_timeout)' },
        bodyMs: { type: 'integer', minimum: 1, default: 120000, description: 'client: the whole request body must arrive within it (past it: 408 request_timeout)' },
        clientIdleMs: { type: 'integer', minimum: 1, default: 30000, description: 'client: longest time a response may stay unread before the connection is cut (ledger 499)' },
      },
    },
    routing: {
      type: 'object',
      additionalProperties: false,
      description: 'how the failover loop retries and when it skips an account (README "Retries and circuit breakers")',
      properties: {
        retries: {
          type: 'object',
          additionalProperties: false,
          description: "one request's retry budget",
          properties: {
            maxAttempts: { type: 'integer', minimum: 1, maximum: 32, default: 6, description: 'upstream calls one request may make in all (first tries and same-account retries, every account and fallback model)' },
            maxBackoffMs: { type: 'integer', minimum: 0, maximum: 600000, default: 10000, description: 'milliseconds one request may spend waiting between tries; a Retry-After longer than what is left is not waited: the request fails over, or answers 503 with that Retry-After' },
            backoffMs: { type: 'integer', minimum: 0, maximum: 60000, default: 250, description: 'a 408, 5xx or broken connection is retried on the same account once, after half to all of this (jitter)' },
            rateLimitBackoffMs: { type: 'integer', minimum: 0, maximum: 60000, default: 1000, description: 'a 429 without a retry delay is retried on the same account once, after half to all of this (jitter)' },
          },
        },
        breaker: {
          type: 'object',
          additionalProperties: false,
          description: "each account's circuit breaker (per process)",
          properties: {
            failures: { type: 'integer', minimum: 1, maximum: 1000, default: 5, description: 'failures in a row that open an account\'s breaker: it is skipped at once' },
            coolDownMs: { type: 'integer', minimum: 100, maximum: 3600000, default: 30000, description: 'how long an open account is skipped before its half-open trial: a background probe of its model list where the vendor has one, else the next request' },
            probeTimeoutMs: { type: 'integer', minimum: 100, maximum: 600000, default: 10000, description: 'the longest a background probe waits for the vendor\'s answer; past it the probe failed and the breaker stays open another cool-down' },
          },
        },
      },
    },
    limits: {
      type: 'object',
      additionalProperties: false,
      properties: {
        maxConnections: { type: 'integer', minimum: 1, default: 1024, description: 'open client connections kept at once; at the cap a new one replaces the oldest not being served; every local client shares 127.0.0.1, so keep it far above local use' },
        maxConnectionsPerAddress: { type: 'integer', minimum: 1, default: 256, description: 'open client connections from one address other than loopback (an IPv6 /64 counts as one address); loopback clients share 127.0.0.1 and only maxConnections applies to them' },
        bodyBytes: { type: 'integer', minimum: 60_000_000, default: 335_544_320, description: 'request body bytes held in memory at once, gateway-wide (at least one body of the 60 MB limit); a body past it is refused before it is read: 503 gateway_body_limit with Retry-After' },
      },
    },
    network: {
      type: 'object',
      additionalProperties: false,
      description: 'links the gateway fetches: reference images and vendors\' result links',
      properties: {
        allowPrivateAddresses: {
          type: 'boolean',
          default: false,
          description: 'links may reach loopback and private addresses (a vendor-compatible server on this machine or the LAN); link-local and cloud metadata addresses stay refused',
        },
      },
    },
    allowedHosts: { type: 'array', items: { type: 'string' }, description: 'extra Host header names accepted besides localhost and IP literals' },
    team: {
      type: 'object',
      additionalProperties: false,
      description: 'team mode (several gateways on one PostgreSQL database, --database-url); ignored otherwise',
      properties: {
        leaseSeconds: {
          type: 'integer',
          minimum: 1,
          maximum: 3600,
          default: 15,
          description: 'a concurrency slot lives this long unless its replica renews it (every third of it): a stopped replica\'s slots come back, and its streams and image tasks are settled, within about this time',
        },
        poolSize: {
          type: 'integer',
          minimum: 2,
          maximum: 200,
          default: 20,
          description: 'database connections each replica may open (opened as load needs them, closed when idle): every request takes and gives back its concurrency slot over them, so a small pool caps a replica\'s throughput; keep replicas × poolSize below the server\'s max_connections (100 by default)',
        },
      },
    },
    admin: {
      type: 'object',
      additionalProperties: false,
      description: 'signing in to the app from a browser',
      properties: {
        loginCodeMinutes: {
          type: 'integer',
          minimum: 1,
          maximum: 1440,
          default: 10,
          description: 'a one-time sign-in address works this long (GATEHOUSE_LOGIN_CODE_MINUTES wins over it); `npm run gateway -- --login` prints a new one',
        },
      },
    },
    telemetry: {
      type: 'object',
      additionalProperties: false,
      description: 'request tracing (README "Tracing (OpenTelemetry)"); off unless otlp.endpoint, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT names a collector (OTEL_SDK_DISABLED=true turns it off)',
      properties: {
        otlp: {
          type: 'object',
          additionalProperties: false,
          required: ['endpoint'],
          description: 'an OpenTelemetry collector that takes OTLP over HTTP',
          properties: {
            endpoint: { type: 'string', pattern: '^https?://', maxLength: 2048, description: 'the collector\'s OTLP/HTTP base URL (e.g. http://127.0.0.1:4318): spans go to <endpoint>/v1/traces, as with OTEL_EXPORTER_OTLP_ENDPOINT; a URL already ending in /v1/traces is used as it is' },
            headers: { type: 'object', maxProperties: 32, additionalProperties: { type: 'string', maxLength: 8192 }, description: 'headers sent with every export (a collector\'s API key): secret, never logged or shown' },
            serviceName: { type: 'string', minLength: 1, maxLength: 256, default: 'gatehouse', description: 'the spans\' service.name (default OTEL_SERVICE_NAME, else gatehouse)' },
          },
        },
      },
    },
  },
} as const
