/**
 * What a request's spans say, as the OpenTelemetry GenAI and HTTP semantic conventions name it: pure functions of the
 * request's context and its attempt records. Ids, models, counts and outcomes only: never a prompt, an answer, a key
 * or a header's value.
 */
import type { UpstreamAttempt } from '../../../shared/admin.js'
import type { Vendor } from '../../../shared/types.js'
import type { RequestContext } from '../context.js'
import { allInputTokens } from '../money/billed-usage.js'
import { chargeNano, nanoToUsd } from '../money/money.js'
import { attemptReason } from '../metrics/gateway-metrics.js'

export type SpanAttributes = Record<string, string | number | boolean | string[]>

/** `gen_ai.operation.name` of each ledger endpoint that calls a model: the convention's values, else a plain name. */
const OPERATIONS: Readonly<Record<string, string>> = {
  'chat.completions': 'chat',
  responses: 'chat',
  messages: 'chat',
  interactions: 'generate_content',
  'messages.count_tokens': 'count_tokens',
  'audio.speech': 'text_to_speech',
  'images.generations': 'image_generation',
  'images.edits': 'image_edit',
  'video.generate': 'video_generation',
  'video.native': 'video_generation',
}

/** The GenAI operation of an endpoint; undefined for the calls that call no model (lists, task polls, usage). */
export const operationOf = (endpoint: string): string | undefined => OPERATIONS[endpoint]

/** Whether an endpoint's answer names finish reasons (a chat answer's text protocols). */
export const answersWithFinishReasons = (endpoint: string): boolean => {
  const op = OPERATIONS[endpoint]
  return op === 'chat' || op === 'generate_content'
}

/** `gen_ai.provider.name`: the convention's well-known value for a vendor, else the vendor's own name. */
const PROVIDERS: Partial<Record<Vendor, string>> = { openai: 'openai', anthropic: 'anthropic', gemini: 'gcp.gemini', xai: 'x_ai' }
export const providerOf = (vendor: Vendor): string => PROVIDERS[vendor] ?? vendor

/** How finish reasons look in the answers the gateway sends (chat `finish_reason`, messages `stop_reason`, Gemini `finishReason`). */
const FINISH_REASON = /"(?:finish_reason|stop_reason|finishReason)"\s*:\s*"([A-Za-z_]{1,40})"/g
/**
 * The values the protocols define (OpenAI chat and its compatible vendors, Anthropic messages, Gemini's FinishReason):
 * only these are kept, so a tool call's arguments (a JSON object in messages and Gemini answers) that happen to name
 * such a key never put the model's words on a span.
 */
const FINISH_REASONS: ReadonlySet<string> = new Set([
  'stop', 'length', 'tool_calls', 'content_filter', 'function_call', 'sensitive', 'network_error', 'insufficient_system_resource',
  'end_turn', 'max_tokens', 'stop_sequence', 'tool_use', 'pause_turn', 'refusal', 'model_context_window_exceeded',
  'FINISH_REASON_UNSPECIFIED', 'STOP', 'MAX_TOKENS', 'SAFETY', 'RECITATION', 'LANGUAGE', 'OTHER', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII',
  'MALFORMED_FUNCTION_CALL', 'IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT', 'IMAGE_RECITATION', 'IMAGE_OTHER', 'NO_IMAGE', 'UNEXPECTED_TOOL_CALL',
  'TOO_MANY_TOOL_CALLS',
])
/** More than any answer has choices: what a span keeps. */
export const MAX_FINISH_REASONS = 16

/** Adds the finish reasons named in a piece of an answer (protocol fields only: a quote of one inside text is escaped). */
export function collectFinishReasons(text: string, into: string[]): void {
  FINISH_REASON.lastIndex = 0
  for (let m = FINISH_REASON.exec(text); m !== null && into.length < MAX_FINISH_REASONS; m = FINISH_REASON.exec(text)) {
    if (FINISH_REASONS.has(m[1])) into.push(m[1])
  }
}

/** The request body's largest size read again for its parameters (max_tokens, temperature …). */
export const MAX_PARAMETER_BODY_BYTES = 1024 * 1024

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)

/** The sampling parameters the client set (numbers only), by their `gen_ai.request.*` names. */
export function requestParameters(body: unknown): SpanAttributes {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return {}
  const b = body as Record<string, unknown>
  const gemini = (typeof b.generationConfig === 'object' && b.generationConfig !== null ? b.generationConfig : {}) as Record<string, unknown>
  const out: SpanAttributes = {}
  const put = (name: string, value: number | undefined) => {
    if (value !== undefined) out[name] = value
  }
  put('gen_ai.request.max_tokens', num(b.max_tokens) ?? num(b.max_completion_tokens) ?? num(b.max_output_tokens) ?? num(gemini.maxOutputTokens))
  put('gen_ai.request.temperature', num(b.temperature) ?? num(gemini.temperature))
  put('gen_ai.request.top_p', num(b.top_p) ?? num(gemini.topP))
  put('gen_ai.request.top_k', num(b.top_k) ?? num(gemini.topK))
  put('gen_ai.request.frequency_penalty', num(b.frequency_penalty))
  put('gen_ai.request.presence_penalty', num(b.presence_penalty))
  put('gen_ai.request.seed', num(b.seed))
  put('gen_ai.request.choice.count', num(b.n) ?? num(gemini.candidateCount))
  return out
}

/** The longest model name a span carries of a model the client named (catalog ids are far shorter). */
const MAX_MODEL_CHARS = 128

/** The request span's name: "{operation} {model}" for a model call, else "{method} {route}" (HTTP server spans). */
export function requestSpanName(ctx: RequestContext, endpoint: string, route: string): string {
  const op = operationOf(endpoint)
  if (op === undefined) return `${ctx.req.method ?? 'GET'} ${route}`
  // A name the client made up stays out of the name (one span name per made-up model would be unbounded).
  const model = ctx.model === undefined ? undefined : (ctx.requestedModel ?? ctx.model.id)
  return model === undefined ? op : `${op} ${model}`
}

/** The request span's attributes, as its ledger row records the request (status: the row's). */
export function requestAttributes(ctx: RequestContext, endpoint: string, route: string, status: number, vendorOf: (account: string) => Vendor | undefined): SpanAttributes {
  const { outcome } = ctx
  const attrs: SpanAttributes = {
    'http.request.method': ctx.req.method ?? 'GET',
    'http.route': route,
    'url.path': ctx.path,
    'url.scheme': 'http',
    'http.response.status_code': status,
    'gatehouse.request.id': ctx.id,
    'gatehouse.endpoint': endpoint,
  }
  const port = ctx.req.socket?.localPort
  if (port !== undefined) attrs['server.port'] = port
  const client = ctx.req.socket?.remoteAddress
  if (client !== undefined) attrs['client.address'] = client
  if (ctx.key !== undefined) attrs['gatehouse.key.id'] = ctx.key.id
  if (ctx.group !== undefined) attrs['gatehouse.group.id'] = ctx.group.id
  if (status >= 400 && outcome.errorCode !== undefined) attrs['error.type'] = ctx.redact(outcome.errorCode)
  else if (status >= 500) attrs['error.type'] = String(status)
  const op = operationOf(endpoint)
  if (op === undefined) return attrs
  attrs['gen_ai.operation.name'] = op
  const requested = ctx.requestedModel ?? ctx.model?.id
  if (requested !== undefined) attrs['gen_ai.request.model'] = ctx.redact(requested.slice(0, MAX_MODEL_CHARS))
  const served = outcome.upstreamId === undefined ? undefined : vendorOf(outcome.upstreamId)
  const vendor = served ?? ctx.model?.vendor
  if (vendor !== undefined) attrs['gen_ai.provider.name'] = providerOf(vendor)
  if (outcome.upstreamId !== undefined) attrs['gatehouse.upstream.account'] = outcome.upstreamId
  if (ctx.model !== undefined && status < 400) attrs['gen_ai.response.model'] = ctx.model.id
  const usage = outcome.usage
  if (usage !== undefined) {
    attrs['gen_ai.usage.input_tokens'] = allInputTokens(usage)
    attrs['gen_ai.usage.output_tokens'] = usage.outputTokens
    if (usage.cachedInputTokens !== undefined) attrs['gen_ai.usage.cache_read.input_tokens'] = usage.cachedInputTokens
    const written = (usage.cacheWrite5mTokens ?? 0) + (usage.cacheWrite1hTokens ?? 0)
    if (written > 0) attrs['gen_ai.usage.cache_creation.input_tokens'] = written
  }
  const cost = chargeNano(outcome.costNano)
  if (cost > 0) attrs['gatehouse.cost.usd'] = nanoToUsd(cost)
  return attrs
}

/** An attempt span's name: the convention's "{operation} {model}" of the call, or "{operation}" off a model call. */
export const attemptSpanName = (endpoint: string, entry: UpstreamAttempt): string => `${operationOf(endpoint) ?? 'upstream'} ${entry.model}`

/** One attempt's attributes: its account, vendor, what came of it and why the loop moved on (never its key). */
export function attemptAttributes(endpoint: string, entry: UpstreamAttempt, vendor: Vendor | undefined): SpanAttributes {
  const attrs: SpanAttributes = {
    'gen_ai.request.model': entry.model,
    'gatehouse.upstream.account': entry.account,
    'gatehouse.upstream.outcome': entry.outcome,
  }
  const op = operationOf(endpoint)
  if (op !== undefined) attrs['gen_ai.operation.name'] = op
  if (vendor !== undefined) attrs['gen_ai.provider.name'] = providerOf(vendor)
  if (entry.next !== undefined) attrs['gatehouse.upstream.next'] = entry.next
  const reason = attemptReason(entry.outcome)
  if (reason !== undefined) {
    attrs['gatehouse.upstream.reason'] = reason
    attrs['error.type'] = reason
  }
  if (entry.outcome.startsWith('status ')) attrs['http.response.status_code'] = Number(entry.outcome.slice(7))
  return attrs
}

/** Whether an attempt failed (its span's status is an error): a call that did not answer, or ended the request. */
export const attemptFailed = (entry: UpstreamAttempt): boolean => attemptReason(entry.outcome) !== undefined
