import { GatewayError } from '../errors.js'
import type { HttpSpec } from '../contract/http-spec.js'
import { messagesAnswerText } from './answer-text.js'
import { parseJson } from './openai-compatible.js'
import { streamErrorStatus } from './stream-error-status.js'
import { StreamState } from './stream-translator.js'
import type { RelayAdapter, SseEvent, TokenUsage, UpstreamCtx } from '../contract/upstream.js'

export const DEFAULT_VERSION = '2023-06-01'

interface AnthropicUsage {
  input_tokens?: number | null
  output_tokens?: number
  cache_creation_input_tokens?: number | null
  cache_read_input_tokens?: number | null
  cache_creation?: { ephemeral_5m_input_tokens?: number | null; ephemeral_1h_input_tokens?: number | null } | null
  output_tokens_details?: { thinking_tokens?: number | null } | null
}

const count = (n: unknown): number => (Number.isSafeInteger(n) && (n as number) > 0 ? (n as number) : 0)

/**
 * The input counts are disjoint: uncached input, cache reads (the cached rate) and cache writes, split by the
 * cache's lifetime (`cache_creation`: 5 minutes or 1 hour, each at its own rate). Without the split every write is a
 * 5-minute one, the default lifetime. Output includes thinking (docs/vendor-usage.md).
 */
export function fromAnthropicUsage(usage: AnthropicUsage | null | undefined, outputTokens = usage?.output_tokens ?? 0): TokenUsage | undefined {
  if (!usage || typeof usage.input_tokens !== 'number') return undefined
  const split = usage.cache_creation ?? undefined
  const writes = usage.cache_creation_input_tokens ?? count(split?.ephemeral_5m_input_tokens) + count(split?.ephemeral_1h_input_tokens)
  const hour = Math.min(count(split?.ephemeral_1h_input_tokens), count(writes))
  // Thinking is inside output_tokens; newer answers say how much of it (output_tokens_details.thinking_tokens).
  const thinking = Math.min(count(usage.output_tokens_details?.thinking_tokens), count(outputTokens))
  return {
    inputTokens: usage.input_tokens,
    cachedInputTokens: usage.cache_read_input_tokens ?? 0,
    cacheWrite5mTokens: count(writes) - hour,
    cacheWrite1hTokens: hour,
    outputTokens,
    ...(thinking > 0 ? { reasoningTokens: thinking } : {}),
    raw: { ...usage, output_tokens: outputTokens },
  }
}

function header(ctx: UpstreamCtx, name: string): string | undefined {
  const value = ctx.clientHeaders?.[name]
  return Array.isArray(value) ? value.join(',') : value
}

/**
 * `x-api-key` + `anthropic-version` (the client's, or the SDK's default), `anthropic-beta` passed through; the client's
 * own bytes when the body is as it sent them (an agent's conversation is not encoded again).
 */
function messagesPost(path: string, body: unknown, ctx: UpstreamCtx): HttpSpec {
  const beta = header(ctx, 'anthropic-beta')
  return {
    method: 'POST',
    url: `${ctx.upstream.baseUrl}${path}`,
    headers: {
      'x-api-key': ctx.upstream.apiKey,
      'anthropic-version': header(ctx, 'anthropic-version') ?? DEFAULT_VERSION,
      ...(beta ? { 'anthropic-beta': beta } : {}),
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: ctx.rawBody ?? JSON.stringify(body),
  }
}

/** `{"type":"error","error":{"type","message"}}` into a GatewayError with the upstream's status. */
export function fromAnthropicError(status: number, text: string): GatewayError {
  const body = parseJson(text) as { error?: { type?: string; message?: string } } | undefined
  const message = body?.error?.message || `upstream answered HTTP ${status}`
  return new GatewayError(status >= 500 ? 'upstream_error' : 'invalid_request', { text: message }, { status, type: body?.error?.type })
}

interface StreamEventData {
  type?: string
  index?: number
  message?: { usage?: AnthropicUsage }
  usage?: AnthropicUsage
  delta?: { type?: string; text?: string; thinking?: string; partial_json?: string; stop_reason?: string | null }
  content_block?: { type?: string }
  error?: { type?: string; message?: string }
}

/** Content of an event: a delta of text, thinking or tool input, a tool call's start, or the stop reason of an answer. */
function carriesContent(data: StreamEventData): boolean {
  switch (data.type) {
    case 'content_block_delta': return Boolean(data.delta?.text || data.delta?.thinking || data.delta?.partial_json)
    case 'content_block_start': return data.content_block?.type === 'tool_use' || data.content_block?.type === 'server_tool_use'
    case 'message_delta': return Boolean(data.delta?.stop_reason)
    default: return false
  }
}

/**
 * Anthropic's Messages protocol, relayed event by event.
 * @see ../../../docs/vendors/anthropic.md
 */
export const anthropicMessages: RelayAdapter = {
  toRequest: (body, ctx) => messagesPost('/v1/messages', body, ctx),
  fromResponse(text) {
    const parsed = parseJson(text) as { usage?: AnthropicUsage } | undefined
    if (parsed === undefined || typeof parsed !== 'object') throw new SyntaxError('invalid JSON from the upstream')
    return { body: text, usage: fromAnthropicUsage(parsed.usage), outputText: () => messagesAnswerText(parsed) }
  },
  streamTranslator() {
    const stream = new StreamState()
    let start: AnthropicUsage | undefined
    let outputTokens: number | undefined
    // The message's stop reason came (message_delta): the answer is whole, only message_stop is to follow.
    let stopped = false
    return stream.translator({
      push(event: SseEvent) {
        const parsed = parseJson(event.data) as StreamEventData | undefined
        const data = parsed !== null && typeof parsed === 'object' ? parsed : undefined
        if (data?.type === 'error') stream.error ??= fromAnthropicError(streamErrorStatus(data.error), event.data)
        stream.content ||= data !== undefined && carriesContent(data)
        switch (data?.type) {
          case 'message_start': start = data.message?.usage; break
          // output_tokens in message_delta is cumulative; newer versions may repeat the input counts there.
          case 'message_delta': stopped ||= Boolean(data.delta?.stop_reason); outputTokens = data.usage?.output_tokens ?? outputTokens; if (typeof data.usage?.input_tokens === 'number') start = { ...start, ...data.usage }; else if (data.usage?.output_tokens_details) start = { ...start, output_tokens_details: data.usage.output_tokens_details }; break
          // The protocol ends with message_stop, or with its own error event.
          case 'message_stop': case 'error': stream.done = true; break
          case 'content_block_delta': {
            const piece = data.delta?.text ?? data.delta?.thinking ?? data.delta?.partial_json
            // The answer's own text is its first block's: only such an answer can be continued (relay/continuation.ts).
            if (typeof data.delta?.text === 'string' && (data.index ?? 0) === 0) stream.answer(data.delta.text)
            else if (typeof piece === 'string') stream.produce(piece)
          }
        }
        return [`event: ${event.event ?? data?.type ?? 'message'}\ndata: ${event.data}\n\n`]
      },
      // A body that ended after the stop reason but without message_stop: the gateway sends it.
      endOfAnswer() {
        if (!stopped) return undefined
        stream.done = true
        return ['event: message_stop\ndata: {"type":"message_stop"}\n\n']
      },
      // The counts arrive in two events (input at the start, output at the end): joined when asked.
      usage: () => (outputTokens === undefined && !stream.done ? undefined : fromAnthropicUsage(start, outputTokens)),
      // message_start's counts before the end: the input in every class, the output it had counted then.
      usageSoFar: () => fromAnthropicUsage(start, outputTokens ?? start?.output_tokens),
    })
  },
  fromError: fromAnthropicError,
}

/** POST /v1/messages/count_tokens: free, relayed as is. */
export const anthropicCountTokens: RelayAdapter = {
  ...anthropicMessages,
  toRequest: (body, ctx) => messagesPost('/v1/messages/count_tokens', body, ctx),
  fromResponse(text) {
    if (typeof parseJson(text) !== 'object') throw new SyntaxError('invalid JSON from the upstream')
    return { body: text }
  },
}
