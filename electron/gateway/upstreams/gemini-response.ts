import { randomBytes } from 'node:crypto'
import { GatewayError, gatewayError } from '../errors.js'
import { chatAnswerText } from './answer-text.js'
import type { GeminiPart } from './gemini-request.js'
import { encodeToolCallId } from './gemini-tool-ids.js'
import { parseJson } from './openai-compatible.js'
import type { ChatResult, TokenUsage, UpstreamCtx } from '../contract/upstream.js'

/** Gemini `GenerateContentResponse`, as much of it as the translation reads. */
export interface GeminiResponse {
  candidates?: GeminiCandidate[]
  promptFeedback?: { blockReason?: string; blockReasonMessage?: string }
  usageMetadata?: GeminiUsage
  responseId?: string
  modelVersion?: string
  error?: GeminiErrorObject
}

export interface GeminiCandidate {
  content?: { role?: string; parts?: GeminiPart[] }
  finishReason?: string
  index?: number
}

export interface GeminiUsage {
  promptTokenCount?: number
  candidatesTokenCount?: number
  thoughtsTokenCount?: number
  cachedContentTokenCount?: number
  toolUsePromptTokenCount?: number
  totalTokenCount?: number
}

export interface GeminiErrorObject {
  code?: number
  message?: string
  status?: string
  details?: Array<{ '@type'?: string; reason?: string }>
}

/** One Gemini answer as an OpenAI `chat.completion` object. */
export function fromGeminiResponse(text: string, { model }: UpstreamCtx): ChatResult {
  const parsed = parseJson(text)
  const res = (Array.isArray(parsed) ? parsed[0] : parsed) as GeminiResponse | undefined
  if (!res || typeof res !== 'object') throw malformed('the upstream answered with invalid JSON')
  if (res.error) throw geminiError(typeof res.error.code === 'number' ? res.error.code : 502, res.error)
  const candidates = res.candidates ?? []
  if (candidates.length === 0) {
    if (res.promptFeedback?.blockReason) throw promptBlocked(res.promptFeedback.blockReason)
    throw malformed('the upstream answered without candidates')
  }
  const choices = candidates.map((c, i) => {
    const { message, sawToolCall } = translateParts(c.content?.parts ?? [])
    return { index: c.index ?? i, message, logprobs: null, finish_reason: finishReason(c.finishReason, sawToolCall) ?? 'stop' }
  })
  const usage = res.usageMetadata
  const body = {
    id: completionId(res.responseId),
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: model.id,
    choices,
    ...(usage ? { usage: openAIUsage(usage) } : {}),
  }
  return { body: JSON.stringify(body), usage: fromGeminiUsage(usage), outputText: () => chatAnswerText(body) }
}

/**
 * Parts into an assistant message (or stream delta): thought parts are reasoning_content, never
 * content; functionCall parts are tool calls carrying their thought signature both as Google's
 * `extra_content.google.thought_signature` and inside the id (see gemini-tool-ids.ts); a signature
 * on another part is returned on the message as `extra_content.google.thought_signature`.
 */
export function translateParts(parts: GeminiPart[], firstToolIndex?: number): { message: Record<string, unknown>; sawToolCall: boolean; produced: string } {
  let content = ''
  let reasoning = ''
  let signature: string | undefined
  const toolCalls: Record<string, unknown>[] = []
  const produced: string[] = []
  for (const part of parts) {
    if (part.functionCall) {
      const call = toolCall(part)
      if (firstToolIndex !== undefined) call.index = firstToolIndex + toolCalls.length
      toolCalls.push(call)
      produced.push((call.function as { arguments: string }).arguments)
      continue
    }
    if (part.thoughtSignature) signature = part.thoughtSignature
    if (typeof part.text !== 'string') continue
    if (part.thought === true) reasoning += part.text
    else content += part.text
    produced.push(part.text)
  }
  const message: Record<string, unknown> = firstToolIndex === undefined
    ? { role: 'assistant', content: content !== '' ? content : toolCalls.length > 0 ? null : '' }
    : content !== '' ? { content } : {}
  if (reasoning !== '') message.reasoning_content = reasoning
  if (toolCalls.length > 0) message.tool_calls = toolCalls
  if (signature) message.extra_content = { google: { thought_signature: signature } }
  return { message, sawToolCall: toolCalls.length > 0, produced: produced.join('') }
}

function toolCall(part: GeminiPart): Record<string, unknown> {
  const fc = part.functionCall!
  const signature = part.thoughtSignature
  return {
    id: encodeToolCallId({ signature, geminiId: typeof fc.id === 'string' && fc.id !== '' ? fc.id : undefined }),
    type: 'function',
    function: { name: fc.name, arguments: JSON.stringify(fc.args ?? {}) },
    ...(signature ? { extra_content: { google: { thought_signature: signature } } } : {}),
  }
}

const FILTERED = new Set([
  'SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII',
  'IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT', 'IMAGE_RECITATION',
])

/** STOP→stop, MAX_TOKENS→length, the filter reasons→content_filter, a function call→tool_calls; others stop. */
export function finishReason(reason: string | undefined, sawToolCall: boolean): string | null {
  if (!reason) return null
  if (reason === 'MAX_TOKENS') return 'length'
  if (FILTERED.has(reason)) return 'content_filter'
  return sawToolCall ? 'tool_calls' : 'stop'
}

function counts(u: GeminiUsage) {
  const prompt = (u.promptTokenCount ?? 0) + (u.toolUsePromptTokenCount ?? 0)
  const thoughts = u.thoughtsTokenCount ?? 0
  return { prompt, cached: u.cachedContentTokenCount ?? 0, thoughts, output: (u.candidatesTokenCount ?? 0) + thoughts }
}

/**
 * Billing usage: promptTokenCount (plus toolUsePromptTokenCount, billed as input) includes the
 * cached tokens, which the ledger bills apart; output is candidates plus thinking tokens.
 */
export function fromGeminiUsage(u: GeminiUsage | undefined): TokenUsage | undefined {
  if (!u || typeof u.promptTokenCount !== 'number') return undefined
  const { prompt, cached, thoughts, output } = counts(u)
  return { inputTokens: prompt - cached, cachedInputTokens: cached, outputTokens: output, ...(thoughts > 0 ? { reasoningTokens: thoughts } : {}), raw: u }
}

/** The same counts in OpenAI's usage shape (prompt_tokens includes cached tokens, as OpenAI's does). */
export function openAIUsage(u: GeminiUsage): Record<string, unknown> {
  const { prompt, cached, thoughts, output } = counts(u)
  return {
    prompt_tokens: prompt,
    completion_tokens: output,
    total_tokens: prompt + output,
    prompt_tokens_details: { cached_tokens: cached },
    completion_tokens_details: { reasoning_tokens: thoughts },
  }
}

export function completionId(responseId: unknown): string {
  return `chatcmpl-${typeof responseId === 'string' && responseId !== '' ? responseId : randomBytes(12).toString('hex')}`
}

/** A prompt Gemini refused to answer (no candidates, promptFeedback.blockReason) is a client error, not an empty 200. */
export function promptBlocked(reason: string): GatewayError {
  return gatewayError('invalid_request', 'gemini_prompt_blocked', { reason }, { upstreamCode: 'prompt_blocked' })
}

const TYPE_BY_STATUS: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  503: 'overloaded_error',
  504: 'timeout_error',
}

/**
 * `{"error":{"code","message","status"}}` into a GatewayError with the same status and message,
 * code = the status string lowercased. An invalid account key is a 400 API_KEY_INVALID at Gemini;
 * it is reported as a 401 `upstream_error` so that it reads as the account's credentials being refused
 * (failover material), never as the client's own key being wrong.
 */
export function geminiError(status: number, error: GeminiErrorObject | undefined): GatewayError {
  const message = typeof error?.message === 'string' && error.message !== '' ? error.message : `upstream answered HTTP ${status}`
  if (error?.details?.some((d) => d?.reason === 'API_KEY_INVALID')) return new GatewayError('upstream_error', { text: message }, { status: 401 })
  return new GatewayError(status >= 500 ? 'upstream_error' : 'invalid_request', { text: message }, {
    status,
    type: TYPE_BY_STATUS[status],
    upstreamCode: typeof error?.status === 'string' && error.status !== '' ? error.status.toLowerCase() : undefined,
  })
}

export function malformed(detail: string): GatewayError {
  return new GatewayError('upstream_error', { id: 'upstream_error', params: { detail } })
}
