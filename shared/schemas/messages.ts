/** JSON Schemas (2020-12) of the messages protocol: validated at the boundary, published in /openapi.json. */
import { reportedCount } from './common.js'

const message = {
  type: 'object',
  required: ['role', 'content'],
  properties: {
    // `system`: a mid-conversation system message (Claude Opus 4.8 takes one after a user turn; Claude Code sends
    // them). Where it may stand and which models take it is the vendor's to say: its own 400 reaches the client.
    role: { enum: ['user', 'assistant', 'system'] },
    content: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'object', required: ['type'], properties: { type: { type: 'string' } } } }] },
  },
} as const

const common = {
  model: { type: 'string', minLength: 1 },
  messages: { type: 'array', minItems: 1, items: message },
  system: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'object' } }] },
  tools: { type: 'array', items: { type: 'object' } },
  tool_choice: { type: 'object' },
  thinking: { type: 'object' },
} as const

export const messagesRequest = {
  type: 'object',
  required: ['model', 'max_tokens', 'messages'],
  properties: {
    ...common,
    max_tokens: { type: 'integer', minimum: 1 },
    stream: { type: 'boolean' },
    temperature: { type: 'number' },
    top_p: { type: 'number' },
    top_k: { type: 'integer' },
    stop_sequences: { type: 'array', items: { type: 'string' } },
  },
  additionalProperties: true,
} as const

export const countTokensRequest = {
  type: 'object',
  required: ['model', 'messages'],
  properties: common,
  additionalProperties: true,
} as const

export const messageObject = {
  type: 'object',
  required: ['id', 'type', 'role', 'content', 'model'],
  properties: {
    id: { type: 'string' },
    type: { const: 'message' },
    role: { const: 'assistant' },
    content: { type: 'array', items: { type: 'object' } },
    model: { type: 'string' },
    stop_reason: { type: ['string', 'null'] },
    usage: {
      type: 'object',
      properties: {
        input_tokens: reportedCount,
        output_tokens: reportedCount,
        cache_creation_input_tokens: reportedCount,
        cache_read_input_tokens: reportedCount,
      },
    },
  },
} as const

export const messageStreamEvent = {
  type: 'object',
  required: ['type'],
  properties: { type: { type: 'string', description: 'equals the SSE event name: message_start … message_stop, or error' } },
} as const

export const tokenCount = {
  type: 'object',
  required: ['input_tokens'],
  properties: { input_tokens: { type: 'integer' } },
} as const
