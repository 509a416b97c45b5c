import { GatewayError } from '../errors.js'
import type { HttpSpec } from '../contract/http-spec.js'
import type { UpstreamAccount } from '../contract/accounts.js'
import { geminiInteractions } from './gemini-interactions.js'
import { fromOpenAIError, parseJson } from './openai-compatible.js'
import type { OriginalRequest, RelayAdapter } from '../contract/upstream.js'

/**
 * Helpers for an upstream of vendor `gateway`: another gateway of this same interface, reached at its root URL with
 * its own key as `Authorization: Bearer`. It takes every request as the client sent it (path and body unchanged).
 */

/** The client's request, sent unchanged to the same path of the upstream gateway. */
export function forwardOriginal(upstream: UpstreamAccount, original: OriginalRequest): HttpSpec {
  return {
    method: 'POST',
    url: `${upstream.baseUrl}${original.path}`,
    headers: { ...original.headers, authorization: `Bearer ${upstream.apiKey}`, 'content-type': original.contentType, accept: 'application/json, text/event-stream' },
    body: original.body,
  }
}

/**
 * An error answer of the upstream gateway in any of its envelopes: `{error:{message,type,code}}` (chat protocol),
 * `{type:"error",error:{type,message}}` (messages) or DashScope's `{request_id,code,message}` (native video path).
 */
export function fromGatewayError(status: number, text: string): GatewayError {
  const body = parseJson(text) as { error?: unknown; code?: unknown; message?: unknown } | undefined
  if (body && typeof body === 'object' && body.error === undefined && typeof body.code === 'string') {
    const message = typeof body.message === 'string' && body.message !== '' ? body.message : `upstream answered HTTP ${status}`
    return new GatewayError(status >= 500 ? 'upstream_error' : 'invalid_request', { text: message }, { status, upstreamCode: body.code })
  }
  return fromOpenAIError(status, text)
}

/**
 * `/v1beta/interactions` on the upstream gateway: the client's body unchanged, the answer and its stream in
 * Gemini's Interactions shape, as this gateway relays them.
 */
export const gatewayInteractions: RelayAdapter = {
  ...geminiInteractions,
  toRequest: (body, { upstream, rawBody }) => ({
    method: 'POST',
    url: `${upstream.baseUrl}/v1beta/interactions`,
    headers: { authorization: `Bearer ${upstream.apiKey}`, 'content-type': 'application/json', accept: body.stream === true ? 'text/event-stream' : 'application/json' },
    body: rawBody ?? JSON.stringify(body),
  }),
  fromError: fromGatewayError,
}
