// OpenAI's GPT image models: generations as JSON, edits as multipart with image[] and the mask
// (docs/vendors/openai.md §3).
import { describe, expect, it } from 'vitest'
import { openAIImages } from '../../../../../electron/gateway/upstreams/images/openai-images.js'
import { ctxOf } from '../adapter-kit.js'
import { bytesOf, imageJob } from './image-job.js'

const ctx = ctxOf('openai', 'https://api.openai.com/v1', 'gpt-image-1', 'gpt-image')
const PNG = Buffer.from('89504e470d0a1a0a', 'hex')
const MASK = Buffer.from('89504e470d0a1a0b', 'hex')

describe('requests', () => {
  it("generations: JSON in OpenAI's names, forwarded fields kept", () => {
    const [spec] = openAIImages.toRequests(imageJob({ n: 2, size: { width: 1024, height: 1536 }, quality: 'high', background: 'transparent', outputFormat: 'webp', outputCompression: 80, forward: { user: 'u-1' } }), ctx)
    expect(spec).toMatchObject({ method: 'POST', url: 'https://api.openai.com/v1/images/generations', headers: { authorization: 'Bearer openai-account-key', 'content-type': 'application/json' } })
    expect(JSON.parse(spec!.body as string)).toEqual({ user: 'u-1', model: 'gpt-image-1', prompt: 'a red fox in the snow', n: 2, size: '1024x1536', quality: 'high', background: 'transparent', output_format: 'webp', output_compression: 80 })
  })

  it('edits: multipart fields, every reference as image[] with its bytes as they arrived, then the fitted mask', () => {
    const job = imageJob({ endpoint: 'edits', size: 'auto', referenceCount: 2, mask: true }, { images: [bytesOf(PNG), bytesOf(PNG, 'image/jpeg', 'two.jpg')], mask: MASK })
    const [spec] = openAIImages.toRequests(job, ctx)
    expect(spec).toMatchObject({ method: 'POST', url: 'https://api.openai.com/v1/images/edits', headers: { authorization: 'Bearer openai-account-key' } })
    expect(spec!.headers['content-type']).toBeUndefined()
    const parts = (spec!.body as { multipart: Array<{ name: string; value?: string; chunks?: Buffer[]; type?: string; filename?: string }> }).multipart
    expect(parts.map((p) => p.name)).toEqual(['model', 'prompt', 'n', 'size', 'image[]', 'image[]', 'mask'])
    expect(parts.slice(0, 4).map((p) => p.value)).toEqual(['gpt-image-1', 'a red fox in the snow', '1', 'auto'])
    expect(parts[4]).toMatchObject({ type: 'image/png', filename: 'ref.png' })
    expect(Buffer.concat(parts[4]!.chunks!)).toEqual(PNG)
    expect(parts[5]).toMatchObject({ type: 'image/jpeg', filename: 'two.jpg' })
    expect(parts[6]).toMatchObject({ type: 'image/png', filename: 'mask.png', chunks: [MASK] })
  })
})

describe('answers', () => {
  it("base64 images of the answer's format; text in, image in and image out counted apart", () => {
    const text = JSON.stringify({ created: 1713833628, data: [{ b64_json: 'iVBORw0KGgo=' }], output_format: 'jpeg', usage: { total_tokens: 4460, input_tokens: 300, output_tokens: 4160, input_tokens_details: { text_tokens: 50, image_tokens: 250 } } })
    expect(openAIImages.fromResponse(text, imageJob({ tier: 'high' }))).toMatchObject({
      images: [{ b64: 'iVBORw0KGgo=', mimeType: 'image/jpeg' }],
      usage: { inputTokens: 300, cachedInputTokens: 0, imageInputTokens: 250, outputTokens: 4160 },
      tier: 'high',
    })
    expect(() => openAIImages.fromResponse('{}', imageJob({}))).toThrow(SyntaxError)
  })
})
