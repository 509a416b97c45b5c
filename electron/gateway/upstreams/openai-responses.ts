import type { RelayAdapter, SseEvent, TokenUsage } from './types.js'
import { fromOpenAIError, jsonPost, parseJson } from './openai-compatible.js'

interface ResponsesUsage {
  input_tokens?: number
  output_tokens?: number
  input_tokens_details?: { cached_tokens?: number } | null
}

/** Responses counts cached tokens inside input_tokens; the ledger bills them apart. */
function fromResponsesUsage(usage: ResponsesUsage | null | undefined): TokenUsage | undefined {
  if (!usage || typeof usage.input_tokens !== 'number') return undefined
  const cached = usage.input_tokens_details?.cached_tokens ?? 0
  return { inputTokens: usage.input_tokens - cached, cachedInputTokens: cached, outputTokens: usage.output_tokens ?? 0, raw: usage }
}

const TERMINAL = new Set(['response.completed', 'response.incomplete', 'response.failed', 'error'])

/**
 * OpenAI's Responses protocol, relayed as is.
 * @see ../../../../shared/vendors/openai.md §2
 */
export function openAIResponses(path: string): RelayAdapter {
  return {
    toRequest: (body, { upstream }) => jsonPost(`${upstream.baseUrl}${path}`, upstream, body),
    fromResponse(text) {
      const parsed = parseJson(text) as { usage?: ResponsesUsage } | undefined
      if (parsed === undefined || typeof parsed !== 'object') throw new SyntaxError('invalid JSON from the upstream')
      return { body: text, usage: fromResponsesUsage(parsed.usage) }
    },
    streamTranslator() {
      let usage: TokenUsage | undefined
      let done = false
      let responseId: string | undefined
      let sequence = -1
      const produced: string[] = []
      return {
        push(event: SseEvent) {
          const data = parseJson(event.data) as { type?: string; sequence_number?: number; delta?: string; response?: { id?: string; usage?: ResponsesUsage } } | undefined
          const type = data?.type ?? event.event
          if (typeof data?.sequence_number === 'number') sequence = data.sequence_number
          if (data?.response?.id) responseId = data.response.id
          if ((type === 'response.output_text.delta' || type === 'response.function_call_arguments.delta' || type === 'response.reasoning_summary_text.delta') && typeof data?.delta === 'string') produced.push(data.delta)
          if (type !== undefined && TERMINAL.has(type)) {
            done = true
            usage = fromResponsesUsage(data?.response?.usage) ?? usage
          }
          if (event.data === '[DONE]') return ['data: [DONE]\n\n']
          return [`${event.event ? `event: ${event.event}\n` : ''}data: ${event.data}\n\n`]
        },
        usage: () => usage,
        producedText: () => produced.join(''),
        finished: () => done,
        // Spec §6: on the responses protocol a break after the start is `response.failed`.
        errorFrame(code, message) {
          const failed = {
            type: 'response.failed',
            sequence_number: sequence + 1,
            response: { id: responseId ?? null, object: 'response', status: 'failed', error: { code, message }, output: [], usage: null },
          }
          return `event: response.failed\ndata: ${JSON.stringify(failed)}\n\n`
        },
      }
    },
    fromError: fromOpenAIError,
  }
}
