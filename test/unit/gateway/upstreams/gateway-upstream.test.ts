// The adapter of an upstream of vendor `gateway` (another gateway of this interface): requests forwarded as they came,
// its error envelopes read back.
import { describe, expect, it } from 'vitest'
import { forwardOriginal, fromGatewayError, gatewayInteractions } from '../../../../electron/gateway/upstreams/gateway-upstream.js'
import { account, catalogRow } from './adapter-kit.js'

const upstream = account('gateway', 'https://gateway.example.com', 'sk-upstream-gateway-key')

describe('forwarding', () => {
  it("sends the client's bytes to the same path with the upstream's own key, keeping headers such as an Idempotency-Key", () => {
    const body = Buffer.from('--b\r\nContent-Disposition: form-data; name="prompt"\r\n\r\na cat\r\n--b--\r\n')
    expect(forwardOriginal(upstream, { path: '/v1/images/edits', contentType: 'multipart/form-data; boundary=b', body, headers: { 'idempotency-key': 'k-1', authorization: 'Bearer client-key' } })).toEqual({
      method: 'POST',
      url: 'https://gateway.example.com/v1/images/edits',
      headers: { 'idempotency-key': 'k-1', authorization: 'Bearer sk-upstream-gateway-key', 'content-type': 'multipart/form-data; boundary=b', accept: 'application/json, text/event-stream' },
      body,
    })
  })

  it("interactions: the client's own body bytes, bearer auth instead of x-goog-api-key", () => {
    const raw = Buffer.from('{"model":"gemini-omni-flash-preview","input":"Hi"}')
    const spec = gatewayInteractions.toRequest({ model: 'gemini-omni-flash-preview', input: 'Hi' }, { upstream, model: catalogRow('gemini-omni-flash-preview', 'gemini-interactions', 'gemini'), rawBody: raw })
    expect(spec).toEqual({ method: 'POST', url: 'https://gateway.example.com/v1beta/interactions', headers: { authorization: 'Bearer sk-upstream-gateway-key', 'content-type': 'application/json', accept: 'application/json' }, body: raw })
  })
})

describe('errors in every envelope the upstream gateway answers with', () => {
  it('chat protocol: message, type and code', () => {
    expect(fromGatewayError(402, '{"error":{"message":"This request could cost up to 1.28 USD, and 0.50 USD is left.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}'))
      .toMatchObject({ kind: 'invalid_request', status: 402, type: 'insufficient_quota', code: 'insufficient_quota', message: 'This request could cost up to 1.28 USD, and 0.50 USD is left.' })
  })

  it("messages protocol: Anthropic's envelope is read for its message", () => {
    expect(fromGatewayError(529, '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}')).toMatchObject({ kind: 'upstream_error', status: 529, message: 'Overloaded' })
  })

  it("DashScope's native envelope (video path): its code passes through", () => {
    expect(fromGatewayError(400, '{"request_id":"r-1","code":"InvalidParameter","message":"The size is not supported."}'))
      .toMatchObject({ kind: 'invalid_request', status: 400, code: 'InvalidParameter', message: 'The size is not supported.' })
    expect(fromGatewayError(500, '{"request_id":"r-2","code":"InternalError","message":""}')).toMatchObject({ kind: 'upstream_error', status: 500, message: 'upstream answered HTTP 500' })
  })
})
