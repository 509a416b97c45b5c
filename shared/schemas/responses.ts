/** JSON Schemas (2020-12) of the responses protocol: validated at the boundary, published in /openapi.json. */

export const responsesRequest = {
  type: 'object',
  required: ['model'],
  properties: {
    model: { type: 'string', minLength: 1 },
    input: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'object' } }] },
    instructions: { type: ['string', 'null'] },
    stream: { type: ['boolean', 'null'] },
    max_output_tokens: { type: ['integer', 'null'] },
    tools: { type: 'array', items: { type: 'object' } },
    previous_response_id: { type: ['string', 'null'] },
  },
  additionalProperties: true,
} as const

export const responseObject = {
  type: 'object',
  required: ['id', 'object', 'status'],
  properties: {
    id: { type: 'string' },
    object: { const: 'response' },
    status: { enum: ['completed', 'failed', 'in_progress', 'cancelled', 'queued', 'incomplete'] },
    output: { type: 'array', items: { type: 'object' } },
    usage: {
      type: ['object', 'null'],
      properties: { input_tokens: { type: 'integer' }, output_tokens: { type: 'integer' }, total_tokens: { type: 'integer' } },
    },
    error: { type: ['object', 'null'] },
  },
} as const

export const responseStreamEvent = {
  type: 'object',
  required: ['type'],
  properties: { type: { type: 'string', description: 'equals the SSE event name; `response.failed` ends a stream that broke' }, sequence_number: { type: 'integer' } },
} as const
