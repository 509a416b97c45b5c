/** JSON Schemas (2020-12) of the gateway's own resources, published in /openapi.json. */
import { UPSTREAM_REASONS } from '../upstream-reasons.js'

/** Spec §7 error object of the chat-type endpoints. */
export const errorObject = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['message', 'type', 'code'],
      properties: {
        message: { type: 'string', description: 'in the language of Accept-Language (English by default)' },
        type: { type: 'string' },
        code: { type: 'string', description: 'stable; branch on it, never on the message' },
        param: { type: ['string', 'null'], description: 'the request field at fault, where one is' },
        upstream: {
          type: 'object',
          description: 'present when the request failed at the vendor: why, the vendor\'s HTTP status and its own words (redacted); absent when the gateway refused the request itself',
          required: ['reason', 'status', 'message'],
          properties: {
            reason: {
              enum: [...UPSTREAM_REASONS],
              description: 'key_refused (401/403: the account\'s key), rate_limited (429), overloaded (503/529), unreachable (connection refused or reset), timeout, vendor_error (other 5xx), bad_answer (malformed or empty), moderation (the vendor\'s content check), vendor_refused (another 4xx, its code passed as `code`), no_account',
            },
            status: { type: ['integer', 'null'], description: 'the vendor\'s HTTP status, null when it did not answer' },
            message: { type: ['string', 'null'], description: 'the vendor\'s own words, null when it said none' },
          },
        },
      },
    },
  },
} as const

/** Spec §7 error object of the Messages protocol. */
export const messagesErrorObject = {
  type: 'object',
  required: ['type', 'error'],
  properties: {
    type: { const: 'error' },
    error: { type: 'object', required: ['type', 'message'], properties: { type: { type: 'string' }, message: { type: 'string' } } },
  },
} as const

/**
 * A token count in a relayed answer: the upstream's own figure, sent on unchanged. A well-behaved upstream sends a
 * whole number; a misbehaving one may send anything, which the client sees as sent (billing uses the gateway's own
 * count then: billed-usage.ts).
 */
export const reportedCount = { description: 'whole number of tokens as the upstream reported it, relayed unchanged' } as const

/** GET /v1/models entry: OpenAI's model object plus the gateway's type and family. */
export const modelEntry = {
  type: 'object',
  required: ['id', 'object', 'created', 'owned_by'],
  properties: {
    id: { type: 'string' },
    object: { const: 'model' },
    created: { type: 'integer', description: 'Unix seconds' },
    owned_by: { type: 'string', description: 'the vendor' },
    type: { enum: ['chat', 'image', 'video', 'speech', 'interactions'] },
    family: { type: 'string' },
  },
} as const

export const modelList = {
  type: 'object',
  required: ['object', 'data'],
  properties: { object: { const: 'list' }, data: { type: 'array', items: modelEntry } },
} as const

/** GET /v1/usage: the account balance and the calling key's quota, in USD. */
export const usageReport = {
  type: 'object',
  required: ['object', 'balance', 'currency', 'key'],
  properties: {
    object: { const: 'usage' },
    balance: { type: 'number', description: 'account balance in USD: what is left of the budget; may go below zero after the last request settles. 0 when `budget` is null (no budget: never refused for balance)' },
    budget: { type: ['number', 'null'], description: 'the account\'s budget (spending limit) in USD; null: no budget, requests are never refused for balance' },
    spent: { type: 'number', description: 'USD spent against the budget since it was set (with no budget: since it was cleared, or since the install)' },
    remaining: { type: ['number', 'null'], description: 'USD: budget less spent; null with no budget' },
    reserved: { type: 'number', description: 'USD held for work under way: each request\'s worst case until it settles, and video tasks\' reservations' },
    available: { type: ['number', 'null'], description: 'USD a new request may still hold: remaining less reserved; null with no budget' },
    currency: { const: 'USD' },
    concurrency: {
      type: 'object',
      properties: { limit: { type: 'integer' }, in_flight: { type: 'integer' } },
    },
    key: {
      type: 'object',
      required: ['name', 'group', 'quota', 'used'],
      properties: {
        name: { type: ['string', 'null'] },
        group: { type: 'string' },
        quota: { type: ['number', 'null'], description: 'USD; null when the key has no quota' },
        used: { type: 'number', description: 'USD spent by this key' },
        remaining: { type: ['number', 'null'], description: 'USD: quota less used; null when the key has no quota' },
        reserved: { type: 'number', description: 'USD held by this key\'s requests and video tasks under way' },
        available: { type: ['number', 'null'], description: 'USD a new request of this key may still hold: remaining less reserved; null when the key has no quota' },
        concurrency: { type: ['integer', 'null'] },
        expires_at: { type: ['integer', 'null'], description: 'Unix seconds' },
      },
    },
  },
} as const

/** A pricing entry (per 1M tokens or characters; per image or second). */
export const pricing = {
  oneOf: [
    {
      type: 'object',
      required: ['unit', 'input', 'output'],
      properties: {
        unit: { const: 'token' }, input: { type: 'number', minimum: 0 }, output: { type: 'number', minimum: 0 }, cachedInput: { type: 'number', minimum: 0 },
        cacheWrite5m: { type: 'number', minimum: 0 }, cacheWrite1h: { type: 'number', minimum: 0 }, imageInput: { type: 'number', minimum: 0 },
      },
    },
    {
      type: 'object',
      required: ['unit', 'price'],
      properties: { unit: { const: 'image' }, price: { type: 'number', minimum: 0 }, byTier: { type: 'object', additionalProperties: { type: 'number', minimum: 0 } } },
    },
    {
      type: 'object',
      required: ['unit', 'price'],
      properties: { unit: { const: 'second' }, price: { type: 'number', minimum: 0 }, byResolution: { type: 'object', additionalProperties: { type: 'number', minimum: 0 } } },
    },
    {
      type: 'object',
      required: ['unit', 'price'],
      properties: { unit: { const: 'character' }, price: { type: 'number', minimum: 0 } },
    },
  ],
} as const

/** GET /api/v1/models/pricing: list prices of the catalog. */
export const pricingList = {
  type: 'object',
  required: ['object', 'currency', 'data'],
  properties: {
    object: { const: 'list' },
    currency: { const: 'USD' },
    data: {
      type: 'array',
      items: {
        type: 'object',
        required: ['model', 'type', 'family', 'vendor', 'pricing'],
        properties: {
          model: { type: 'string' },
          type: { type: 'string' },
          family: { type: 'string' },
          vendor: { type: 'string' },
          pricing,
          deprecated: { type: 'boolean' },
          // Video models: the values they accept, so a price can be read against them (and forms offer only these).
          resolutions: { type: 'array', items: { type: 'string' }, description: 'video: accepted resolutions' },
          durations: { type: 'array', items: { type: 'number' }, description: 'video: accepted clip lengths in seconds' },
          aspectRatios: { type: 'array', items: { type: 'string' }, description: 'video: accepted aspect ratios' },
          modes: { type: 'array', items: { type: 'string' }, description: 'video: t2v, i2v, first-last-frame, reference' },
          maxDurationByResolution: { type: 'object', additionalProperties: { type: 'number' }, description: 'video: a lower length cap at some resolutions' },
        },
      },
    },
  },
} as const

/**
 * The largest amount of money, in USD, a budget, cap or quota may name: money is counted in integer nano-USD, exact
 * below 2^53 (about 9.007 million USD), on either store.
 */
export const MAX_USD = 9_000_000
