import type { SseEvent, StreamedAnswer, TokenUsage } from './chat-types'
import { parseJson, toStreamError } from './stream-chat'

interface MessagesUsage {
  input_tokens?: number | null
  output_tokens?: number | null
  cache_creation_input_tokens?: number | null
  cache_read_input_tokens?: number | null
}

interface ContentBlock {
  type: string
  text?: string
  thinking?: string
  id?: string
  name?: string
  input?: unknown
}

interface MessagesEvent {
  type?: string
  index?: number
  message?: { usage?: MessagesUsage }
  content_block?: ContentBlock
  delta?: { type?: string; text?: string; thinking?: string; partial_json?: string; stop_reason?: string | null }
  usage?: MessagesUsage
  error?: { type?: string; message?: string }
}

/** Billable input is the sum of the three disjoint input counts; output_tokens is cumulative, not an increment. */
function mergeUsage(prev: TokenUsage | null, u: MessagesUsage): TokenUsage {
  const usage: TokenUsage = { inputTokens: prev?.inputTokens ?? 0, outputTokens: u.output_tokens ?? prev?.outputTokens ?? 0 }
  if (prev?.cachedInputTokens) usage.cachedInputTokens = prev.cachedInputTokens
  if (typeof u.input_tokens === 'number') {
    const cached = u.cache_read_input_tokens ?? 0
    usage.inputTokens = u.input_tokens + (u.cache_creation_input_tokens ?? 0) + cached
    if (cached) usage.cachedInputTokens = cached
    else delete usage.cachedInputTokens
  }
  return usage
}

function startBlock(a: StreamedAnswer, index: number, block: ContentBlock): StreamedAnswer {
  const next = { ...a, blocks: { ...a.blocks, [index]: block.type } }
  switch (block.type) {
    case 'text':
      // Separate text blocks (around a tool call) would otherwise run into one sentence.
      return { ...next, text: (a.text ? `${a.text}\n\n` : '') + (block.text ?? '') }
    case 'thinking':
      return { ...next, reasoning: a.reasoning + (block.thinking ?? '') }
    case 'tool_use':
    case 'server_tool_use': {
      // The input is streamed as JSON fragments; a non-empty input here is one that arrived whole.
      const whole = block.input && typeof block.input === 'object' && Object.keys(block.input).length > 0 ? JSON.stringify(block.input) : ''
      return {
        ...next,
        toolSlots: { ...a.toolSlots, [index]: a.toolCalls.length },
        toolCalls: [...a.toolCalls, { id: block.id ?? '', name: block.name ?? '', arguments: whole }],
      }
    }
    default:
      return next
  }
}

function applyDelta(a: StreamedAnswer, index: number, delta: NonNullable<MessagesEvent['delta']>): StreamedAnswer {
  switch (delta.type) {
    case 'text_delta':
      return { ...a, text: a.text + (delta.text ?? '') }
    case 'thinking_delta':
      return { ...a, reasoning: a.reasoning + (delta.thinking ?? '') }
    case 'input_json_delta': {
      const slot = a.toolSlots[index]
      if (slot === undefined) return a
      const toolCalls = [...a.toolCalls]
      toolCalls[slot] = { ...toolCalls[slot], arguments: toolCalls[slot].arguments + (delta.partial_json ?? '') }
      return { ...a, toolCalls }
    }
    default:
      return a
  }
}

/**
 * Folds one messages-protocol stream event into the answer: message_start and message_delta usage,
 * text, thinking and tool_use blocks with their deltas, the stop reason, message_stop, and
 * `event: error` (spec §6 rule 1). Ping and unknown events are skipped, as the vendor's versioning asks.
 * @see ../../../docs/vendors/anthropic.md
 */
export function reduceMessagesEvent(a: StreamedAnswer, ev: SseEvent): StreamedAnswer {
  const data = parseJson(ev.data) as MessagesEvent | undefined
  if (!data || typeof data !== 'object') return a
  const type = data.type ?? ev.event
  switch (type) {
    case 'message_start':
      return data.message?.usage ? { ...a, usage: mergeUsage(a.usage, data.message.usage) } : a
    case 'content_block_start':
      return data.content_block ? startBlock(a, data.index ?? 0, data.content_block) : a
    case 'content_block_delta':
      return data.delta ? applyDelta(a, data.index ?? 0, data.delta) : a
    case 'message_delta': {
      const next = data.usage ? { ...a, usage: mergeUsage(a.usage, data.usage) } : a
      return data.delta?.stop_reason ? { ...next, finishReason: data.delta.stop_reason } : next
    }
    case 'message_stop':
      return { ...a, done: true }
    case 'error':
      return { ...a, error: toStreamError(data.error), done: true }
    default:
      return a
  }
}
