/** JSON Schemas (2020-12) of the image answers; field names the spec leaves open (§2.3) are chosen here. */

export const imagesResponse = {
  type: 'object',
  required: ['created', 'data'],
  properties: {
    created: { type: 'integer', description: 'Unix seconds' },
    data: {
      type: 'array',
      items: {
        type: 'object',
        required: ['mime_type'],
        properties: {
          b64_json: { type: 'string', description: 'base64 image (GPT-style and Gemini-style models)' },
          url: { type: 'string', description: 'signed link valid 24 hours (Seedream-style models); the gateway also keeps a copy' },
          mime_type: { type: 'string', description: 'image/png, image/jpeg or image/webp: Gemini-style output may be JPEG' },
          revised_prompt: { type: 'string', description: 'the prompt as the model rewrote it (some models)' },
        },
      },
    },
    usage: {
      type: 'object',
      properties: { input_tokens: { type: 'integer' }, output_tokens: { type: 'integer' }, total_tokens: { type: 'integer' } },
    },
  },
} as const

export const taskAccepted = {
  type: 'object',
  required: ['task_id', 'status_url'],
  properties: { task_id: { type: 'string' }, status_url: { type: 'string' }, status: { type: 'string' } },
} as const

export const imageTaskObject = {
  type: 'object',
  required: ['task_id', 'object', 'status', 'status_url'],
  properties: {
    task_id: { type: 'string' },
    object: { const: 'image.task' },
    status: { enum: ['queued', 'running', 'succeeded', 'failed', 'canceled'] },
    model: { type: 'string' },
    created_at: { type: 'integer' },
    updated_at: { type: 'integer' },
    status_url: { type: 'string' },
    result: { ...imagesResponse, description: 'when succeeded' },
    error: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } }, description: 'when failed (failed tasks are not billed)' },
  },
} as const
