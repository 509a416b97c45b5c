// Images on another gateway of this interface: the client's request forwarded, this interface's images JSON (or its
// images SSE) read back.
import { describe, expect, it } from 'vitest'
import { gatewayImages } from '../../../../../electron/gateway/upstreams/images/gateway-images.js'
import type { UpstreamCtx } from '../../../../../electron/gateway/contract/upstream.js'
import { account, catalogRow, thrownBy } from '../adapter-kit.js'
import { imageJob } from './image-job.js'

const ctx: UpstreamCtx = { upstream: account('gateway', 'https://gateway.example.com', 'sk-upstream'), model: catalogRow('gpt-image-1', 'gpt-image', 'openai') }
const answer = { created: 1, data: [{ b64_json: 'iVBORw0KGgo=', revised_prompt: 'a fox' }], usage: { input_tokens: 20, output_tokens: 4160 } }

describe('forwarding', () => {
  it("a multipart edit goes to the same path as it came, with the upstream's key", () => {
    const body = Buffer.from('--b\r\nContent-Disposition: form-data; name="model"\r\n\r\ngpt-image-1\r\n--b--\r\n')
    const [spec] = gatewayImages.toRequests(imageJob({ endpoint: 'edits' }, { original: { path: '/v1/images/edits', contentType: 'multipart/form-data; boundary=b', body } }), ctx)
    expect(spec).toMatchObject({ method: 'POST', url: 'https://gateway.example.com/v1/images/edits', headers: { authorization: 'Bearer sk-upstream', 'content-type': 'multipart/form-data; boundary=b' }, body })
  })

  it('without the original request there is nothing to forward: an internal error, not a guess', () => {
    expect(thrownBy(() => gatewayImages.toRequests(imageJob({}), ctx))).toMatchObject({ kind: 'internal_error', status: 500 })
  })
})

describe('answers', () => {
  it('the images JSON, or the same JSON inside the images SSE (keepalives, one data event, [DONE])', () => {
    const expected = { images: [{ b64: 'iVBORw0KGgo=', url: undefined, mimeType: 'image/png', revisedPrompt: 'a fox' }], tier: 'high' }
    const job = imageJob({ tier: 'high' })
    expect(gatewayImages.fromResponse(JSON.stringify(answer), job)).toMatchObject({ ...expected, usage: { inputTokens: 20, outputTokens: 4160 } })
    const sse = `: keepalive\n\n: keepalive\n\ndata: ${JSON.stringify(answer)}\n\ndata: [DONE]\n\n`
    expect(gatewayImages.fromResponse(sse, job)).toMatchObject(expected)
  })

  it("an error event in the SSE is the upstream's error with the status its type names", () => {
    const sse = 'data: {"error":{"message":"The model made no image.","type":"invalid_request_error","code":"image_refused"}}\n\ndata: [DONE]\n\n'
    expect(thrownBy(() => gatewayImages.fromResponse(sse, imageJob({})))).toMatchObject({ status: 400, code: 'image_refused', message: 'The model made no image.' })
  })
})
