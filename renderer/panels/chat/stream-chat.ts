import { upstreamNoteOf } from '../../api/http'
import type { MessageError, SseEvent, StreamedAnswer, TokenUsage, ToolCall } from './chat-types'

interface ChatToolCallDelta {
  index?: number
  id?: string
  function?: { name?: string; arguments?: string }
}

interface ChatChunk {
  choices?: Array<{
    index?: number
    delta?: { content?: string | null; reasoning_content?: string | null; tool_calls?: ChatToolCallDelta[] | null }
    finish_reason?: string | null
  }>
  usage?: { prompt_tokens?: number; completion_tokens?: number; prompt_tokens_details?: { cached_tokens?: number } | null } | null
  error?: { message?: string; type?: string; code?: string | number | null }
}

/** JSON.parse that answers undefined for text that is not JSON (keep-alives, partial noise). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** `{error:{message,type,code}}` (chat protocol) or `{type:'error',error:{type,message}}` (messages protocol). */
export function toStreamError(error: { message?: string; type?: string; code?: string | number | null; upstream?: unknown } | undefined): MessageError {
  const code = error?.code ?? error?.type ?? 'error'
  return { status: null, code: String(code), message: error?.message ?? '', upstream: upstreamNoteOf(error?.upstream) }
}

function fromChatUsage(usage: NonNullable<ChatChunk['usage']>): TokenUsage {
  const cached = usage.prompt_tokens_details?.cached_tokens
  return { inputTokens: usage.prompt_tokens ?? 0, outputTokens: usage.completion_tokens ?? 0, ...(cached ? { cachedInputTokens: cached } : {}) }
}

/** Tool call deltas carry an index; the id and name come once, the arguments in fragments to concatenate. */
function applyToolCalls(a: StreamedAnswer, deltas: ChatToolCallDelta[]): StreamedAnswer {
  const toolCalls = [...a.toolCalls]
  const toolSlots = { ...a.toolSlots }
  deltas.forEach((d, i) => {
    const index = d.index ?? i
    let slot = toolSlots[index]
    if (slot === undefined) {
      slot = toolSlots[index] = toolCalls.length
      toolCalls.push({ id: '', name: '', arguments: '' })
    }
    const prev = toolCalls[slot]
    const next: ToolCall = { ...prev, arguments: prev.arguments + (d.function?.arguments ?? '') }
    if (d.id) next.id = d.id
    if (d.function?.name) next.name = d.function.name
    toolCalls[slot] = next
  })
  return { ...a, toolCalls, toolSlots }
}

/**
 * Folds one chat-completions stream event into the answer: content, reasoning_content and tool_calls
 * deltas, the finish reason, the usage-only chunk (spec §6 rule 2), `[DONE]`, and an error payload or
 * `event: error` after the stream started (spec §6 rule 1).
 * @see ../../../docs/vendors/openai.md
 */
export function reduceChatEvent(a: StreamedAnswer, ev: SseEvent): StreamedAnswer {
  if (ev.data.trim() === '[DONE]') return { ...a, done: true }
  const chunk = parseJson(ev.data) as ChatChunk | undefined
  if (!chunk || typeof chunk !== 'object') return a
  if (ev.event === 'error' || chunk.error) return { ...a, error: toStreamError(chunk.error), done: true }
  let next = chunk.usage ? { ...a, usage: fromChatUsage(chunk.usage) } : a
  const choice = chunk.choices?.find((c) => (c.index ?? 0) === 0)
  if (!choice) return next
  const delta = choice.delta ?? {}
  if (delta.content) next = { ...next, text: next.text + delta.content }
  if (delta.reasoning_content) next = { ...next, reasoning: next.reasoning + delta.reasoning_content }
  if (delta.tool_calls?.length) next = applyToolCalls(next, delta.tool_calls)
  if (choice.finish_reason) next = { ...next, finishReason: choice.finish_reason }
  return next
}
