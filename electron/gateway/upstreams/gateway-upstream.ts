import { GatewayError } from '../errors.js'
import type { HttpSpec } from '../contract/http-spec.js'
import type { UpstreamAccount } from '../contract/accounts.js'
import { geminiInteractions } from './gemini-interactions.js'
import { fromOpenAIError, parseJson } from './openai-compatible.js'
import type { OriginalRequest, RelayAdapter, UpstreamCtx } from '../contract/upstream.js'
import { accountModelName } from './model-names.js'

/**
 * Helpers for an upstream of vendor `gateway`: another gateway of this same interface, reached at its root URL with
 * its own key as `Authorization: Bearer`. It takes every request as the client sent it (path and body unchanged).
 */

/**
 * The client's request, sent to the same path of the upstream gateway: unchanged, but for a JSON body's `model`, which
 * names the model served as the account knows it (`gatewayModelName`): a model fallback's id, or the account's own
 * name for the model. A multipart body goes as sent.
 */
export function forwardOriginal(upstream: UpstreamAccount, original: OriginalRequest, model?: string): HttpSpec {
  return {
    method: 'POST',
    url: `${upstream.baseUrl}${original.path}`,
    headers: { ...original.headers, authorization: `Bearer ${upstream.apiKey}`, 'content-type': original.contentType, accept: 'application/json, text/event-stream' },
    body: model === undefined ? original.body : namingModel(original, model),
  }
}

/** The model an upstream gateway is asked for: the account's own name for the model served, else its gateway id. */
export const gatewayModelName = (ctx: Pick<UpstreamCtx, 'model' | 'upstream'>): string => accountModelName(ctx) ?? ctx.model.id

/** A JSON body naming `model`: the client's bytes when it already does (or is no JSON object), else re-encoded. */
function namingModel(original: OriginalRequest, model: string): Buffer {
  if (!/^application\/json\b/i.test(original.contentType)) return original.body
  let body: unknown
  try {
    body = JSON.parse(original.body.toString('utf8'))
  } catch {
    return original.body
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body) || (body as { model?: unknown }).model === model) return original.body
  return Buffer.from(JSON.stringify({ ...body, model }))
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
