import { interactionsAnswerText } from './answer-text.js'
import { fromGeminiError } from './gemini-chat.js'
import { geminiError } from './gemini-response.js'
import { parseJson } from './openai-compatible.js'
import { streamErrorStatus } from './stream-error-status.js'
import { StreamState } from './stream-translator.js'
import type { RelayAdapter, SseEvent, TokenUsage } from '../contract/upstream.js'

interface InteractionsUsage {
  total_input_tokens?: number
  total_output_tokens?: number
  total_thought_tokens?: number
  total_cached_tokens?: number
  total_tool_use_tokens?: number
}

/** Thinking is billed as output; cached input apart; tool-use prompt tokens as input. */
function fromInteractionsUsage(usage: InteractionsUsage | null | undefined): TokenUsage | undefined {
  if (!usage || typeof usage.total_input_tokens !== 'number') return undefined
  const cached = usage.total_cached_tokens ?? 0
  return {
    inputTokens: usage.total_input_tokens - cached + (usage.total_tool_use_tokens ?? 0),
    cachedInputTokens: cached,
    outputTokens: (usage.total_output_tokens ?? 0) + (usage.total_thought_tokens ?? 0),
    ...(usage.total_thought_tokens ? { reasoningTokens: usage.total_thought_tokens } : {}),
    raw: usage,
  }
}

interface InteractionEvent {
  event_type?: string
  interaction?: { usage?: InteractionsUsage }
  delta?: { type?: string; text?: string }
  error?: { code?: unknown; message?: string; status?: string }
}

/** Deltas of either generation of the API (`step.delta`, `content.delta`) and its ends of a real answer. */
const DELTAS = new Set(['step.delta', 'content.delta'])
const ANSWER_ENDS = new Set(['interaction.completed', 'interaction.complete'])

/**
 * Gemini's Interactions API (`/v1beta/interactions`), relayed as is: data-only SSE events carrying
 * `event_type`, the final usage in `interaction.completed`.
 * @see ../../../docs/vendors/gemini.md "Interactions API"
 */
export const geminiInteractions: RelayAdapter = {
  toRequest: (body, { upstream }) => ({
    method: 'POST',
    url: `${upstream.baseUrl}/v1beta/interactions`,
    headers: {
      'x-goog-api-key': upstream.apiKey,
      'content-type': 'application/json',
      accept: body.stream === true ? 'text/event-stream' : 'application/json',
    },
    body: JSON.stringify(body),
  }),
  fromResponse(text) {
    const parsed = parseJson(text) as { usage?: InteractionsUsage } | undefined
    if (parsed === undefined || typeof parsed !== 'object') throw new SyntaxError('invalid JSON from the upstream')
    return { body: text, usage: fromInteractionsUsage(parsed.usage), outputText: () => interactionsAnswerText(parsed) }
  },
  streamTranslator() {
    const stream = new StreamState()
    return stream.translator({
      push(event: SseEvent) {
        if (event.data === '[DONE]') {
          stream.done = true
          return ['data: [DONE]\n\n']
        }
        const parsed = parseJson(event.data) as InteractionEvent | undefined
        const data = parsed !== null && typeof parsed === 'object' ? parsed : undefined
        const type = data?.event_type ?? ''
        const delta = DELTAS.has(type) && data?.delta !== null && typeof data?.delta === 'object' ? data.delta : undefined
        if (typeof delta?.text === 'string') stream.produce(delta.text)
        // Any delta (text, thought, a function call) is content; a status update is not.
        stream.content ||= (delta !== undefined && Object.entries(delta).some(([k, v]) => k !== 'type' && v !== '' && v != null)) || ANSWER_ENDS.has(type)
        if (type === 'error') {
          stream.done = true
          const status = streamErrorStatus(data?.error)
          stream.error ??= geminiError(status, { ...data?.error, code: status })
        }
        if (data?.event_type === 'interaction.completed') {
          stream.done = true
          stream.report(fromInteractionsUsage(data.interaction?.usage))
        }
        return [`${event.event ? `event: ${event.event}\n` : ''}data: ${event.data}\n\n`]
      },
      // The protocol's own error event.
      errorFrame: (code, message) => `data: ${JSON.stringify({ event_type: 'error', error: { code, message } })}\n\n`,
    })
  },
  fromError: fromGeminiError,
}
