// Volcengine Ark Seedream images: one synchronous call answering links (docs/vendors/volcengine-ark.md §1).
import { describe, expect, it } from 'vitest'
import { arkSeedream } from '../../../../../electron/gateway/upstreams/images/ark-seedream.js'
import { ctxOf, thrownBy } from '../adapter-kit.js'
import { imageJob } from './image-job.js'

const ctx = ctxOf('ark', 'https://ark.cn-beijing.volces.com/api/v3', 'doubao-seedream-4-5-251128', 'seedream')
const bodyOf = (job: ReturnType<typeof imageJob>) => JSON.parse(arkSeedream.toRequests(job, ctx)[0]!.body as string)

describe('requests', () => {
  it('one POST to /images/generations: links asked for, no watermark, no group of images, no stream; the rest forwarded', () => {
    const specs = arkSeedream.toRequests(imageJob({ family: 'seedream', size: { width: 2048, height: 2048 }, forward: { seed: 7 } }), ctx)
    expect(specs).toHaveLength(1)
    expect(specs[0]).toMatchObject({ method: 'POST', url: 'https://ark.cn-beijing.volces.com/api/v3/images/generations', headers: { authorization: 'Bearer ark-account-key', 'content-type': 'application/json' } })
    expect(JSON.parse(specs[0]!.body as string)).toEqual({ seed: 7, model: 'doubao-seedream-4-5-251128', prompt: 'a red fox in the snow', size: '2048x2048', response_format: 'url', sequential_image_generation: 'disabled', watermark: false, stream: false })
  })

  it('references as given: one as a string, several as a list; a size tier when no explicit size', () => {
    expect(bodyOf(imageJob({ family: 'seedream', tier: '2K', references: ['https://example.com/a.png'], referenceCount: 1, endpoint: 'edits' }))).toMatchObject({ size: '2K', image: 'https://example.com/a.png' })
    expect(bodyOf(imageJob({ family: 'seedream', references: ['https://example.com/a.png', 'data:image/png;base64,iVBORw0KGgo='], referenceCount: 2, endpoint: 'edits' }))).toMatchObject({ image: ['https://example.com/a.png', 'data:image/png;base64,iVBORw0KGgo='] })
  })
})

describe('answers', () => {
  it('links become images of the asked format; per-image errors of a group are dropped', () => {
    const text = JSON.stringify({ model: 'doubao-seedream-4-5-251128', created: 1757321139, data: [{ url: 'https://ark-content-generation.example/1.png', size: '2048x2048' }, { error: { code: 'OutputImageSensitiveContentDetected', message: 'The request failed because the output image may contain sensitive information.' } }], usage: { generated_images: 1, output_tokens: 16384, total_tokens: 16384 } })
    expect(arkSeedream.fromResponse(text, imageJob({ outputFormat: 'png', tier: '2K' }))).toEqual({ images: [{ url: 'https://ark-content-generation.example/1.png', b64: undefined, mimeType: 'image/png' }], tier: '2K' })
  })

  it("no image because the content was refused: the client's 400 in Ark's words; another reason is a 502", () => {
    const refused = JSON.stringify({ data: [{ error: { code: 'OutputImageSensitiveContentDetected', message: 'The request failed because the output image may contain sensitive information.' } }] })
    expect(thrownBy(() => arkSeedream.fromResponse(refused, imageJob({})))).toMatchObject({ kind: 'invalid_request', status: 400, code: 'content_policy_violation', message: 'The request failed because the output image may contain sensitive information.' })
    expect(thrownBy(() => arkSeedream.fromResponse('{"data":[{"error":{"code":"InternalServiceError","message":"busy"}}]}', imageJob({})))).toMatchObject({ kind: 'upstream_error', status: 502, message: 'busy' })
    expect(() => arkSeedream.fromResponse('{"error":{}}', imageJob({}))).toThrow(SyntaxError)
  })

  it("Ark's OpenAI-shaped error body keeps its status and code", () => {
    expect(arkSeedream.fromError(400, '{"error":{"code":"InvalidParameter","message":"The parameter `size` specified in the request is not valid.","param":"size","type":"BadRequest"}}'))
      .toMatchObject({ status: 400, code: 'InvalidParameter', param: 'size', message: 'The parameter `size` specified in the request is not valid.' })
  })
})
