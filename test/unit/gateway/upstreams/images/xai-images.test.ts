// Grok Imagine images: JSON generations and edits asking for base64 (docs/vendors/xai.md §2).
import { describe, expect, it } from 'vitest'
import { fromXaiError, xaiImages } from '../../../../../electron/gateway/upstreams/images/xai-images.js'
import { ctxOf } from '../adapter-kit.js'
import { imageJob } from './image-job.js'

const ctx = ctxOf('xai', 'https://api.x.ai/v1', 'grok-imagine-image', 'grok-image')

describe('requests', () => {
  it('generations: the fields in xAI names, base64 asked for', () => {
    const [spec] = xaiImages.toRequests(imageJob({ family: 'grok-image', n: 2, aspectRatio: '16:9', resolution: '2k', quality: 'high' }), ctx)
    expect(spec).toMatchObject({ method: 'POST', url: 'https://api.x.ai/v1/images/generations', headers: { authorization: 'Bearer xai-account-key', 'content-type': 'application/json' } })
    expect(JSON.parse(spec!.body as string)).toEqual({ model: 'grok-imagine-image', prompt: 'a red fox in the snow', n: 2, aspect_ratio: '16:9', resolution: '2k', quality: 'high', response_format: 'b64_json' })
  })

  it('edits: JSON to /images/edits, one reference as an object, several as a list', () => {
    const one = xaiImages.toRequests(imageJob({ endpoint: 'edits', references: ['https://example.com/a.png'], referenceCount: 1 }), ctx)[0]!
    expect(one.url).toBe('https://api.x.ai/v1/images/edits')
    expect(JSON.parse(one.body as string).image).toEqual({ url: 'https://example.com/a.png' })
    const two = xaiImages.toRequests(imageJob({ endpoint: 'edits', references: ['https://example.com/a.png', 'data:image/png;base64,iVBORw0KGgo='], referenceCount: 2 }), ctx)[0]!
    expect(JSON.parse(two.body as string).image).toEqual([{ url: 'https://example.com/a.png' }, { url: 'data:image/png;base64,iVBORw0KGgo=' }])
  })
})

describe('answers and errors', () => {
  it('base64 images (JPEG unless said otherwise) with the revised prompt', () => {
    expect(xaiImages.fromResponse('{"data":[{"b64_json":"/9j/4AAQ","revised_prompt":"A red fox standing in fresh snow."}]}', imageJob({ tier: '1K' })))
      .toEqual({ images: [{ b64: '/9j/4AAQ', url: undefined, mimeType: 'image/jpeg', revisedPrompt: 'A red fox standing in fresh snow.' }], tier: '1K' })
    expect(() => xaiImages.fromResponse('{"code":"x"}', imageJob({}))).toThrow(SyntaxError)
  })

  it("xAI's flat error body; a refused key (a 400 at xAI) is the account's 401, for failover", () => {
    expect(fromXaiError(400, '{"code":"Client specified an invalid argument","error":"Incorrect API key provided: xa***. You can obtain an API key from https://console.x.ai."}')).toMatchObject({ kind: 'upstream_error', status: 401 })
    expect(fromXaiError(400, '{"code":"Client specified an invalid argument","error":"The prompt is too long."}')).toMatchObject({ kind: 'invalid_request', status: 400, message: 'The prompt is too long.' })
    expect(fromXaiError(503, '')).toMatchObject({ kind: 'upstream_error', status: 503, message: 'upstream answered HTTP 503' })
  })
})
