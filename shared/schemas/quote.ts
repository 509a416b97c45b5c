/** JSON Schemas (2020-12) of POST /v1/quote: validated at the boundary, published in /openapi.json. */

/** The billable paths a quote prices (the images edits path in its JSON form). */
export const QUOTABLE_PATHS = [
  '/v1/chat/completions',
  '/v1/responses',
  '/v1/messages',
  '/v1/images/generations',
  '/v1/images/edits',
  '/v1/video/generate',
  '/v1/audio/speech',
  '/api/v1/services/aigc/video-generation/video-synthesis',
] as const
export type QuotablePath = (typeof QUOTABLE_PATHS)[number]

export const quoteRequest = {
  type: 'object',
  required: ['endpoint', 'request'],
  properties: {
    endpoint: { enum: QUOTABLE_PATHS, description: 'the path the request would be sent to' },
    request: { type: 'object', description: 'the JSON body one would send to `endpoint`; validated exactly as that endpoint validates it' },
  },
  additionalProperties: false,
} as const

export const quoteObject = {
  type: 'object',
  required: ['object', 'currency', 'min', 'expected', 'max', 'basis'],
  properties: {
    object: { const: 'quote' },
    currency: { const: 'USD' },
    min: { type: 'number', minimum: 0, description: 'the least the call can be billed, in USD' },
    expected: {
      type: 'number', minimum: 0,
      description: 'what the call is expected to cost, in USD (min <= expected <= max): tokens, the prompt and a typical answer per answer asked for (the model\'s catalog typicalOutputTokens, at most the output cap); GPT-style images, the quality asked for, else high, at the size asked for; per image, second or character, the bill (equal to max)',
    },
    max: { type: 'number', minimum: 0, description: 'the most the call can be billed, in USD, n included (per image, second or character: equal to min)' },
    basis: {
      type: 'object',
      required: ['model', 'unit', 'price'],
      description: 'what the figures were computed from',
      properties: {
        model: { type: 'string' },
        unit: { enum: ['token', 'image', 'second', 'character'] },
        price: { type: 'object', description: 'the catalog list price that applies: USD per 1M tokens (input, output, cached_input), per image (by tier), per second (by resolution) or per 1M characters' },
        input_tokens: { type: 'integer', description: 'token prices: the prompt as the gateway counts it (o200k_base)' },
        image_input_tokens: { type: 'integer', description: 'GPT-style image edits: the reference images\' input tokens inside input_tokens (catalog referenceInputTokens each), at the image input price' },
        expected_output_tokens: { type: 'integer', description: 'token prices: the output tokens priced into expected (all answers, all images)' },
        max_output_tokens: { type: 'integer', description: 'token prices: the output cap priced into max (chat: per answer; GPT-style images: all images)' },
        output_cap: { type: 'string', description: 'where that cap came from: the request field, `model_limit`, or `image_tokens` (GPT-style images: the vendor\'s output tokens by size and quality)' },
        n: { type: 'integer', description: 'chat: the answers asked for, when more than one (each billed)' },
        quality: { type: 'string', description: 'GPT-style images: the quality priced, or the range `low..high` when the request names none' },
        expected_quality: { type: 'string', description: 'GPT-style images: the quality expected priced at' },
        images: { type: 'integer' },
        tier: { type: 'string' },
        seconds: { type: 'object', properties: { min: { type: 'number' }, max: { type: 'number' } }, description: 'video: the seconds billed at least and at most (equal when `duration` is sent)' },
        resolution: { type: 'string' },
        reserved: { type: 'number', description: 'video: USD held while the task runs' },
        characters: { type: 'integer' },
      },
      additionalProperties: true,
    },
  },
} as const
