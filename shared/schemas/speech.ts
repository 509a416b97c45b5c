/** JSON Schemas (2020-12) of POST /v1/audio/speech: validated at the boundary, published in /openapi.json. */

export const speechRequest = {
  type: 'object',
  required: ['model', 'input', 'voice'],
  properties: {
    model: { type: 'string', minLength: 1 },
    input: { type: 'string', minLength: 1, description: 'the text to speak; billed per character; at most the model\'s maxInputChars' },
    voice: { anyOf: [{ type: 'string', minLength: 1 }, { type: 'object', required: ['id'], properties: { id: { type: 'string' } } }] },
    response_format: { enum: ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] },
    speed: { type: 'number', minimum: 0.25, maximum: 4 },
    instructions: { type: 'string' },
    stream_format: { enum: ['audio', 'sse'] },
  },
  additionalProperties: true,
} as const

export const speechAudio = { type: 'string', contentMediaType: 'audio/*', description: 'the audio bytes, streamed as they are produced' } as const
