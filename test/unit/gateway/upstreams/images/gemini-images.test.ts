// Gemini image models through generateContent: one call per image, refusals as the client's 400 (a recorded NO_IMAGE
// answer: test/fixtures/recorded/gemini/google-image-no-image-live.json).
import { describe, expect, it } from 'vitest'
import { geminiImages, REFUSAL_CODES } from '../../../../../electron/gateway/upstreams/images/gemini-images.js'
import { recordedBytes } from '../../../../fakes/replay.js'
import { ctxOf, thrownBy } from '../adapter-kit.js'
import { bytesOf, imageJob } from './image-job.js'

const ctx = ctxOf('gemini', 'https://generativelanguage.googleapis.com', 'gemini-3.1-flash-image-preview', 'gemini-image')
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')

describe('requests', () => {
  it('n images are n generateContent calls, each with the prompt, the reference bytes inline and the image config', () => {
    const job = imageJob({ family: 'gemini-image', n: 2, aspectRatio: '16:9', tier: '2K', referenceCount: 1 }, { images: [bytesOf(PNG)] })
    const specs = geminiImages.toRequests(job, ctx)
    expect(specs).toHaveLength(2)
    expect(specs[0]).toEqual(specs[1])
    expect(specs[0]).toMatchObject({ method: 'POST', url: 'https://generativelanguage.googleapis.com/v1beta/models/gemini-3.1-flash-image-preview:generateContent', headers: { 'x-goog-api-key': 'gemini-account-key', 'content-type': 'application/json' } })
    expect(JSON.parse(specs[0]!.body as string)).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'a red fox in the snow' }, { inlineData: { mimeType: 'image/png', data: PNG.toString('base64') } }] }],
      generationConfig: { responseModalities: ['TEXT', 'IMAGE'], imageConfig: { aspectRatio: '16:9', imageSize: '2K' } },
    })
  })
})

describe('answers', () => {
  it("the recorded NO_IMAGE answer is the client's 400 naming the vendor's reason, not a failure to retry", () => {
    const error = thrownBy(() => geminiImages.fromResponse(recordedBytes('gemini/google-image-no-image-live.json').toString('utf8'), imageJob({ family: 'gemini-image' })))
    expect(error).toMatchObject({ kind: 'invalid_request', status: 400, code: REFUSAL_CODES.noImage, retryable: false })
    expect(error.message).toBe('The model made no image: the vendor stopped it (NO_IMAGE). The same request will be refused again; change the prompt or the reference images.')
  })

  it('a safety stop quotes what the model said; a blocked prompt is a policy refusal too', () => {
    const safety = thrownBy(() => geminiImages.fromResponse(JSON.stringify({ candidates: [{ content: { parts: [{ text: 'I cannot draw that.' }] }, finishReason: 'IMAGE_SAFETY' }] }), imageJob({})))
    expect(safety).toMatchObject({ status: 400, code: REFUSAL_CODES.policy })
    expect(safety.message).toContain('(IMAGE_SAFETY: I cannot draw that.)')
    expect(thrownBy(() => geminiImages.fromResponse('{"promptFeedback":{"blockReason":"PROHIBITED_CONTENT"}}', imageJob({})))).toMatchObject({ status: 400, code: REFUSAL_CODES.policy, message: "The prompt was blocked by the model's safety system (reason: PROHIBITED_CONTENT)." })
  })

  it('an answer with neither image nor text for another reason is a 502 to try elsewhere', () => {
    expect(thrownBy(() => geminiImages.fromResponse('{"candidates":[{"content":{},"finishReason":"OTHER"}]}', imageJob({})))).toMatchObject({ kind: 'upstream_error', status: 502 })
  })

  it('images: inline data kept (thought parts skipped), the tier and the usage of the answer', () => {
    const answer = {
      candidates: [{ content: { parts: [{ text: 'thinking…', thought: true }, { inlineData: { mimeType: 'image/png', data: 'aW1n' } }, { text: 'Here is your fox.' }] }, finishReason: 'STOP' }],
      usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 1290, totalTokenCount: 1299 },
    }
    const outcome = geminiImages.fromResponse(JSON.stringify(answer), imageJob({ tier: '1K' }))
    expect(outcome).toMatchObject({ images: [{ b64: 'aW1n', mimeType: 'image/png' }], tier: '1K', usage: { inputTokens: 9, outputTokens: 1290 } })
  })
})
