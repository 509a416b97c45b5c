import type { GatewayError } from '../errors.js'
import { responsesAnswerText } from './answer-text.js'
import { fromOpenAIError, jsonPost, outputWithReasoning, parseJson } from './openai-compatible.js'
import { streamErrorStatus } from './stream-error-status.js'
import { StreamState } from './stream-translator.js'
import type { RelayAdapter, SseEvent, TokenUsage } from '../contract/upstream.js'

interface ResponsesUsage {
  input_tokens?: number
  output_tokens?: number
  total_tokens?: number
  input_tokens_details?: { cached_tokens?: number } | null
  output_tokens_details?: { reasoning_tokens?: number } | null
}

/**
 * Responses counts cached tokens inside input_tokens; the ledger bills them apart. Reasoning is inside output_tokens
 * (OpenAI's and xAI's Responses both); were it apart, the total would say so (outputWithReasoning).
 */
export function fromResponsesUsage(usage: ResponsesUsage | null | undefined): TokenUsage | undefined {
  if (!usage || typeof usage.input_tokens !== 'number') return undefined
  const cached = usage.input_tokens_details?.cached_tokens ?? 0
  // A missing output count stays missing: billing counts the answer instead (billed-usage.ts).
  const { output, reasoning } = outputWithReasoning(usage.input_tokens, usage.output_tokens, usage.output_tokens_details?.reasoning_tokens, usage.total_tokens)
  return { inputTokens: usage.input_tokens - cached, cachedInputTokens: cached, outputTokens: output as number, ...(reasoning ? { reasoningTokens: reasoning } : {}), raw: usage }
}

const TERMINAL = new Set(['response.completed', 'response.incomplete', 'response.failed', 'error'])
/** Deltas of output text, reasoning, refusals and tool-call arguments. */
const CONTENT_DELTAS = new Set([
  'response.output_text.delta', 'response.refusal.delta', 'response.function_call_arguments.delta',
  'response.reasoning_summary_text.delta', 'response.reasoning_text.delta', 'response.custom_tool_call_input.delta',
])
/** Ends of a real answer: content, even when the answer is empty. */
const ANSWER_ENDS = new Set(['response.completed', 'response.incomplete'])

interface ResponsesEvent {
  type?: string
  sequence_number?: number
  delta?: unknown
  item?: { type?: string }
  response?: { id?: string; usage?: ResponsesUsage; error?: unknown }
  code?: unknown
  message?: unknown
}

/** The error a `response.failed` or `error` event stands for, in OpenAI's error shape. */
function responsesError(data: ResponsesEvent): GatewayError {
  const error = data.type === 'response.failed' ? data.response?.error : { code: data.code, message: data.message }
  return fromOpenAIError(streamErrorStatus(error), JSON.stringify({ error }))
}

/**
 * OpenAI's Responses protocol, relayed as is.
 * @see ../../../docs/vendors/openai.md §2
 */
export function openAIResponses(path: string): RelayAdapter {
  return {
    toRequest: (body, { upstream, rawBody }) => jsonPost(`${upstream.baseUrl}${path}`, upstream, rawBody ?? body),
    fromResponse(text) {
      const parsed = parseJson(text) as { usage?: ResponsesUsage } | undefined
      if (parsed === undefined || typeof parsed !== 'object') throw new SyntaxError('invalid JSON from the upstream')
      return { body: text, usage: fromResponsesUsage(parsed.usage), outputText: () => responsesAnswerText(parsed) }
    },
    streamTranslator() {
      const stream = new StreamState()
      let responseId: string | undefined
      let sequence = -1
      return stream.translator({
        push(event: SseEvent) {
          const parsed = parseJson(event.data) as ResponsesEvent | undefined
          const data = parsed !== null && typeof parsed === 'object' ? parsed : undefined
          const type = data?.type ?? event.event
          if (typeof data?.sequence_number === 'number') sequence = data.sequence_number
          if (data?.response?.id) responseId = data.response.id
          const delta = type !== undefined && CONTENT_DELTAS.has(type) && typeof data?.delta === 'string' ? data.delta : ''
          if (delta !== '') stream.produce(delta)
          stream.content ||= delta !== '' || (type !== undefined && ANSWER_ENDS.has(type)) || (type === 'response.output_item.added' && data?.item?.type === 'function_call')
          if (data && (type === 'response.failed' || type === 'error')) stream.error ??= responsesError({ ...data, type })
          if (type !== undefined && TERMINAL.has(type)) {
            stream.done = true
            stream.report(fromResponsesUsage(data?.response?.usage))
          }
          if (event.data === '[DONE]') return ['data: [DONE]\n\n']
          return [`${event.event ? `event: ${event.event}\n` : ''}data: ${event.data}\n\n`]
        },
        // Spec §6: on the responses protocol a break after the start is `response.failed`.
        errorFrame(code, message) {
          const failed = {
            type: 'response.failed',
            sequence_number: sequence + 1,
            response: { id: responseId ?? null, object: 'response', status: 'failed', error: { code, message }, output: [], usage: null },
          }
          return `event: response.failed\ndata: ${JSON.stringify(failed)}\n\n`
        },
      })
    },
    fromError: fromOpenAIError,
  }
}
