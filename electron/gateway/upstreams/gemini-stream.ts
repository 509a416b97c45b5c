import { completionId, finishReason, fromGeminiUsage, geminiError, openAIUsage, promptBlocked, translateParts, type GeminiResponse, type GeminiUsage } from './gemini-response.js'
import { parseJson } from './openai-compatible.js'
import { StreamState } from './stream-translator.js'
import type { ChatStreamTranslator, SseEvent, UpstreamCtx } from '../contract/upstream.js'

interface CandidateState {
  started: boolean
  toolCalls: number
  finished: boolean
}

/**
 * `streamGenerateContent?alt=sse` events (`data: {GenerateContentResponse}`, no [DONE]) into
 * chat.completion.chunk frames: the first delta of a choice carries role, then text /
 * reasoning_content / tool call deltas (Gemini sends each call whole, so one fragment per call),
 * then a finish chunk per choice. Once every choice has finished: the usage-only chunk (only when
 * the client asked for it) and `data: [DONE]`, emitted here since Gemini has none.
 * A prompt blocked before any candidate, or an `{"error":...}` event, throws a GatewayError (so upstreamError() stays empty).
 */
export function geminiStreamTranslator({ includeUsage }: { includeUsage: boolean }, { model }: UpstreamCtx): ChatStreamTranslator {
  const stream = new StreamState()
  let id: string | undefined
  const created = Math.floor(Date.now() / 1000)
  let usage: GeminiUsage | undefined
  const choices = new Map<number, CandidateState>()

  const frame = (payload: unknown) => `data: ${JSON.stringify(payload)}\n\n`
  const chunk = (index: number, delta: Record<string, unknown>, finish: string | null) => frame({
    id, object: 'chat.completion.chunk', created, model: model.id,
    choices: [{ index, delta, logprobs: null, finish_reason: finish }],
    ...(includeUsage ? { usage: null } : {}),
  })

  function end(): string[] {
    stream.done = true
    id ??= completionId(undefined)
    const frames: string[] = []
    if (includeUsage && usage) frames.push(frame({ id, object: 'chat.completion.chunk', created, model: model.id, choices: [], usage: openAIUsage(usage) }))
    frames.push('data: [DONE]\n\n')
    return frames
  }

  function translate(res: GeminiResponse): string[] {
    if (!res || typeof res !== 'object') return []
    if (res.error) throw geminiError(typeof res.error.code === 'number' ? res.error.code : 502, res.error)
    id ??= completionId(res.responseId)
    if (res.usageMetadata) usage = res.usageMetadata
    const candidates = res.candidates ?? []
    if (candidates.length === 0 && res.promptFeedback?.blockReason) throw promptBlocked(res.promptFeedback.blockReason)
    const frames: string[] = []
    for (const candidate of candidates) {
      const index = candidate.index ?? 0
      const state = choices.get(index) ?? { started: false, toolCalls: 0, finished: false }
      choices.set(index, state)
      if (state.finished) continue
      const { message: delta, produced: text } = translateParts(candidate.content?.parts ?? [], state.toolCalls)
      stream.produce(text)
      state.toolCalls += Array.isArray(delta.tool_calls) ? delta.tool_calls.length : 0
      stream.content ||= Boolean(delta.content || delta.reasoning_content || delta.tool_calls || candidate.finishReason)
      if (Object.keys(delta).length > 0) {
        frames.push(chunk(index, state.started ? delta : { role: 'assistant', ...delta }, null))
        state.started = true
      }
      if (candidate.finishReason) {
        frames.push(chunk(index, state.started ? {} : { role: 'assistant' }, finishReason(candidate.finishReason, state.toolCalls > 0)))
        state.started = true
        state.finished = true
      }
    }
    if (choices.size > 0 && [...choices.values()].every((s) => s.finished)) frames.push(...end())
    return frames
  }

  return stream.translator({
    push(event: SseEvent): string[] {
      if (stream.done) return []
      const data = event.data.trim()
      if (data === '') return []
      if (data === '[DONE]') return end()
      const parsed = parseJson(data)
      if (parsed === undefined) return []
      return (Array.isArray(parsed) ? parsed : [parsed]).flatMap((res) => translate(res as GeminiResponse))
    },
    // intermediate chunks carry a partial usageMetadata (the prompt's counts, the output's so far): a cut stream
    // takes its input from it and counts its output (usageSoFar)
    usage: () => (stream.done ? fromGeminiUsage(usage) : undefined),
    usageSoFar: () => fromGeminiUsage(usage),
  })
}
