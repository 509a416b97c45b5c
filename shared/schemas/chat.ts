/**
 * JSON Schemas (2020-12) of the chat-completions protocol. The same objects validate requests
 * at the gateway's boundary and are published in /openapi.json.
 */
import { reportedCount } from './common.js'

const nullable = <T extends object>(schema: T) => ({ anyOf: [schema, { type: 'null' }] })

/** Spec §2.1 content part: only `type` is required; known types are checked, others pass to the family rules. */
export const contentPart = {
  type: 'object',
  required: ['type'],
  properties: {
    type: { type: 'string', description: '`text` or `image_url`; other part types depend on the model family' },
    text: { type: 'string' },
    image_url: {
      type: 'object',
      required: ['url'],
      properties: { url: { type: 'string', description: 'an http(s) link or a data: URI' }, detail: { type: 'string' } },
    },
  },
  allOf: [
    { if: { properties: { type: { const: 'text' } } }, then: { required: ['text'] } },
    { if: { properties: { type: { const: 'image_url' } } }, then: { required: ['image_url'] } },
  ],
} as const

/** Spec §2.1 chat message. */
export const chatMessage = {
  type: 'object',
  required: ['role'],
  properties: {
    role: { enum: ['system', 'user', 'assistant', 'tool'] },
    content: { anyOf: [{ type: 'string' }, { type: 'array', items: contentPart }, { type: 'null' }] },
    name: { type: 'string' },
    tool_calls: { type: 'array', items: { type: 'object' }, description: 'only on assistant: the calls of the previous turn, unchanged' },
    tool_call_id: { type: 'string', description: 'only on tool: a tool_calls[].id of the previous turn' },
  },
} as const

/** Spec §2.2 tool definition. */
export const toolDefinition = {
  type: 'object',
  required: ['type', 'function'],
  properties: {
    type: { const: 'function' },
    function: {
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string', minLength: 1 },
        description: { type: 'string' },
        parameters: { type: 'object', description: 'JSON Schema of the parameters' },
      },
    },
  },
} as const

/** Spec §4.1 request body; additional properties are forwarded unchanged. */
export const chatCompletionRequest = {
  type: 'object',
  required: ['model', 'messages'],
  properties: {
    model: { type: 'string', minLength: 1, description: 'a model id listed by GET /v1/models for the key' },
    messages: { type: 'array', minItems: 1, items: chatMessage },
    max_tokens: nullable({ type: 'integer' }),
    max_completion_tokens: nullable({ type: 'integer' }),
    stream: nullable({ type: 'boolean' }),
    stream_options: nullable({
      type: 'object',
      properties: { include_usage: { type: 'boolean', description: 'adds a final usage-only chunk with empty choices' } },
    }),
    tools: nullable({ type: 'array', items: toolDefinition }),
    tool_choice: {
      anyOf: [
        { enum: ['auto', 'none', 'required'] },
        {
          type: 'object',
          required: ['type', 'function'],
          properties: { type: { const: 'function' }, function: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } },
        },
      ],
    },
    temperature: nullable({ type: 'number' }),
    top_p: nullable({ type: 'number' }),
    // Read when a request is translated (Gemini's generationConfig), so a wrong type is refused, not dropped.
    n: nullable({ type: 'integer' }),
    presence_penalty: nullable({ type: 'number' }),
    frequency_penalty: nullable({ type: 'number' }),
    seed: nullable({ type: 'integer' }),
    stop: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }, { type: 'null' }] },
    response_format: nullable({ type: 'object', properties: { type: { type: 'string' } } }),
    google: nullable({ type: 'object', description: "Google's OpenAI-compatibility extension (thinking_config), for Gemini models" }),
    extra_body: nullable({ type: 'object', description: 'may carry `google` as Google\'s samples nest it' }),
    reasoning_effort: nullable({ type: 'string', description: 'values depend on the model family' }),
    service_tier: nullable({ type: 'string', description: 'only `priority` and `flex` are forwarded; other values are removed' }),
  },
  additionalProperties: true,
} as const

const usage = {
  type: 'object',
  properties: {
    prompt_tokens: reportedCount,
    completion_tokens: reportedCount,
    total_tokens: reportedCount,
    prompt_tokens_details: { type: 'object' },
    completion_tokens_details: { type: 'object' },
  },
} as const

/** The chat completion object returned by the gateway (OpenAI's shape). */
export const chatCompletion = {
  type: 'object',
  required: ['id', 'object', 'created', 'model', 'choices'],
  properties: {
    id: { type: 'string' },
    object: { const: 'chat.completion' },
    created: { type: 'integer', description: 'Unix seconds' },
    model: { type: 'string' },
    choices: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          index: { type: 'integer' },
          finish_reason: { type: ['string', 'null'], description: 'stop, length, tool_calls or content_filter' },
          message: {
            type: 'object',
            properties: {
              role: { const: 'assistant' },
              content: { type: ['string', 'null'] },
              reasoning_content: { type: 'string', description: 'thinking text, where the model returns it' },
              tool_calls: { type: 'array', items: { type: 'object' } },
            },
          },
        },
      },
    },
    usage,
  },
} as const

/** One `data:` event of a chat completion stream. */
export const chatCompletionChunk = {
  type: 'object',
  required: ['id', 'object', 'created', 'model', 'choices'],
  properties: {
    id: { type: 'string' },
    object: { const: 'chat.completion.chunk' },
    created: { type: 'integer' },
    model: { type: 'string' },
    choices: {
      type: 'array',
      description: 'empty on the final usage-only chunk',
      items: {
        type: 'object',
        properties: { index: { type: 'integer' }, delta: { type: 'object' }, finish_reason: { type: ['string', 'null'] } },
      },
    },
    usage: { anyOf: [usage, { type: 'null' }], description: 'only on the final chunk, and only with stream_options.include_usage' },
  },
} as const
