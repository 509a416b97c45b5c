/** JSON Schemas (2020-12) of POST /v1beta/interactions (Gemini's Interactions API, relayed). */

export const interactionRequest = {
  type: 'object',
  required: ['model', 'input'],
  properties: {
    model: { type: 'string', minLength: 1 },
    input: { anyOf: [{ type: 'string' }, { type: 'array' }, { type: 'object' }] },
    system_instruction: { type: 'string' },
    stream: { type: 'boolean' },
    previous_interaction_id: { type: 'string' },
    generation_config: { type: 'object' },
    response_modalities: { type: 'array', items: { type: 'string' } },
  },
  additionalProperties: true,
} as const

export const interactionObject = {
  type: 'object',
  required: ['id', 'status'],
  properties: {
    id: { type: 'string' },
    status: { type: 'string', description: 'in_progress, requires_action, completed, failed, cancelled, incomplete …' },
    usage: { type: 'object', properties: { total_input_tokens: { type: 'integer' }, total_output_tokens: { type: 'integer' }, total_thought_tokens: { type: 'integer' } } },
  },
} as const

export const interactionEvent = {
  type: 'object',
  required: ['event_type'],
  properties: { event_type: { type: 'string', description: 'interaction.created, step.delta … interaction.completed, or error' } },
} as const
