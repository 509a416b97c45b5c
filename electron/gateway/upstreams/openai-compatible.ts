import { GatewayError } from '../errors.js'
import type { HttpSpec } from '../contract/http-spec.js'
import type { UpstreamAccount } from '../contract/accounts.js'
import { allInputTokens } from '../money/billed-usage.js'
import { chatAnswerText } from './answer-text.js'
import { streamErrorStatus } from './stream-error-status.js'
import { StreamState } from './stream-translator.js'
import type { ChatAdapter, ChatStreamTranslator, SseEvent, TokenUsage } from '../contract/upstream.js'

/**
 * OpenAI's chat-completions wire protocol, spoken by OpenAI and by the OpenAI-compatible
 * endpoints of xAI, Zhipu, Ark, DashScope and other gateways of this interface.
 * @see ../../../docs/vendors/openai.md
 */
export function openAICompatibleChat(chatPath: string): ChatAdapter {
  return {
    // An untouched body goes out as the client's own bytes: no second serialization.
    toRequest: (body, { upstream, rawBody }) => jsonPost(`${upstream.baseUrl}${chatPath}`, upstream, rawBody ?? body),
    fromResponse(text) {
      const parsed = parseJson(text) as { usage?: OpenAIUsage } | undefined
      if (parsed === undefined || typeof parsed !== 'object') throw malformed('the upstream answered with invalid JSON')
      return { body: text, usage: fromOpenAIUsage(parsed.usage), outputText: () => chatAnswerText(parsed) }
    },
    streamTranslator: ({ includeUsage }) => openAIStreamRelay(includeUsage),
    fromError: fromOpenAIError,
  }
}

export function jsonPost(url: string, upstream: UpstreamAccount, body: unknown): HttpSpec {
  return {
    method: 'POST',
    url,
    headers: {
      authorization: `Bearer ${upstream.apiKey}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: Buffer.isBuffer(body) ? body : JSON.stringify(body),
  }
}

interface OpenAIUsage {
  prompt_tokens?: number
  completion_tokens?: number
  total_tokens?: number
  prompt_tokens_details?: {
    cached_tokens?: number
    /** DashScope's explicit cache: tokens written to it, inside prompt_tokens (and by lifetime in cache_creation) */
    cache_creation_input_tokens?: number
    cache_creation?: { ephemeral_5m_input_tokens?: number; ephemeral_1h_input_tokens?: number } | null
  } | null
  completion_tokens_details?: { reasoning_tokens?: number } | null
}

const isTokens = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0

/**
 * The output billed for a completion count, a reasoning count and the total. OpenAI, DeepSeek, DashScope, GLM, Ark
 * and Groq count reasoning inside the completion (total = prompt + completion); xAI's chat completions count it
 * apart (total = prompt + completion + reasoning) and bill it as output. The total tells the two apart, so no
 * vendor's reasoning is billed twice or not at all (docs/vendor-usage.md).
 */
export function outputWithReasoning(prompt: number, completion: number | undefined, reasoning: unknown, total: unknown): { output: number | undefined; reasoning?: number } {
  if (!isTokens(completion) || !isTokens(reasoning) || reasoning === 0) return { output: completion }
  if (isTokens(total) && total === prompt + completion + reasoning) return { output: completion + reasoning, reasoning }
  return { output: completion, reasoning: Math.min(reasoning, completion) }
}

const count = (n: unknown): number => (isTokens(n) ? n : 0)

/**
 * Cache writes inside prompt_tokens (DashScope's explicit cache: `cache_creation_input_tokens`, split by lifetime in
 * `cache_creation`, 5 minutes when it is not); none for vendors that do not report them.
 */
function cacheWrites(details: OpenAIUsage['prompt_tokens_details']): { cacheWrite5mTokens: number; cacheWrite1hTokens: number } | undefined {
  const split = details?.cache_creation ?? undefined
  const writes = count(details?.cache_creation_input_tokens) || count(split?.ephemeral_5m_input_tokens) + count(split?.ephemeral_1h_input_tokens)
  if (writes === 0) return undefined
  const hour = Math.min(count(split?.ephemeral_1h_input_tokens), writes)
  return { cacheWrite5mTokens: writes - hour, cacheWrite1hTokens: hour }
}

/**
 * OpenAI counts cached tokens inside prompt_tokens, and DashScope its cache writes too; the ledger bills each apart.
 * Reasoning: outputWithReasoning.
 */
export function fromOpenAIUsage(usage: OpenAIUsage | null | undefined): TokenUsage | undefined {
  if (!usage || typeof usage.prompt_tokens !== 'number') return undefined
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0
  const writes = cacheWrites(usage.prompt_tokens_details)
  const written = (writes?.cacheWrite5mTokens ?? 0) + (writes?.cacheWrite1hTokens ?? 0)
  // A missing completion count stays missing: billing counts the answer instead (billed-usage.ts).
  const { output, reasoning } = outputWithReasoning(usage.prompt_tokens, usage.completion_tokens, usage.completion_tokens_details?.reasoning_tokens, usage.total_tokens)
  return {
    inputTokens: usage.prompt_tokens - cached - written, cachedInputTokens: cached, ...writes,
    outputTokens: output as number, ...(reasoning ? { reasoningTokens: reasoning } : {}), raw: usage,
  }
}

type OpenAIDelta = { content?: string | null; reasoning_content?: string | null; refusal?: string | null; tool_calls?: Array<{ function?: { arguments?: string } }> }

interface OpenAIChunk {
  id?: unknown
  created?: unknown
  model?: unknown
  choices?: Array<{ index?: number; delta?: OpenAIDelta; finish_reason?: string | null }>
  usage?: OpenAIUsage | null
}

/** Content of a chunk: text, reasoning, a refusal, a tool call, or a finish reason (a role-only delta is none). */
const carriesContent = (choice: { delta?: OpenAIDelta; finish_reason?: string | null }): boolean =>
  Boolean(choice.finish_reason || choice.delta?.content || choice.delta?.reasoning_content || choice.delta?.refusal || choice.delta?.tool_calls?.length)

/**
 * Relays chunks unchanged, except usage (spec §4.1, §6 rule 2): vendors put it in different places (OpenAI,
 * DashScope and Ark: one final chunk with `choices: []`; GLM: on the last content chunk, always; xAI: on the
 * finish chunk, then an empty final chunk). Usage is taken off content chunks and, when the client asked for
 * it, sent as one final `{"choices":[],"usage":{…}}` chunk just before `data: [DONE]`.
 * @see ../../../docs/vendors/README.md (streaming table), ../../../docs/vendors/zhipu-glm.md, ../../../docs/vendors/xai.md
 */
function openAIStreamRelay(includeUsage: boolean): ChatStreamTranslator {
  const stream = new StreamState()
  let usageFrame: string | undefined
  // Per choice index: whether its finish reason came; and the last chunk with choices (its id, created and model).
  const finished: boolean[] = []
  let last: OpenAIChunk | undefined
  const end = (): string[] => {
    stream.done = true
    return includeUsage && usageFrame !== undefined ? [usageFrame, 'data: [DONE]\n\n'] : ['data: [DONE]\n\n']
  }
  return stream.translator({
    push(event: SseEvent): string[] {
      if (event.data === '[DONE]') return end()
      const chunk = parseJson(event.data) as (OpenAIChunk & { error?: unknown }) | undefined
      if (chunk === undefined || chunk === null || typeof chunk !== 'object') return []
      // An error payload is how an OpenAI-compatible stream ends in failure: relayed, and the end of it.
      const failed = chunk.error !== undefined || event.event === 'error'
      if (failed) {
        stream.done = true
        stream.error ??= fromOpenAIError(streamErrorStatus(chunk.error), event.data)
      }
      const choices = Array.isArray(chunk.choices) ? chunk.choices : []
      for (const choice of choices) {
        collectDelta(choice.delta, stream)
        stream.content ||= carriesContent(choice)
        const index = typeof choice?.index === 'number' && choice.index >= 0 && choice.index < MAX_CHOICES ? choice.index : 0
        if (choice?.finish_reason) finished[index] = true
        else finished[index] ??= false
      }
      if (choices.length > 0) last = chunk
      if (chunk.usage) {
        stream.report(fromOpenAIUsage(chunk.usage))
        usageFrame = `data: ${choices.length === 0 ? event.data : JSON.stringify({ ...chunk, choices: [] })}\n\n`
      }
      // A chunk without choices carries usage or nothing (xAI's closing one): the usage goes out just before
      // [DONE], once, and only to clients that asked.
      if (choices.length === 0 && !failed) return []
      if (chunk.usage) {
        const { usage: _riding, ...withoutUsage } = chunk
        return [`data: ${JSON.stringify(withoutUsage)}\n\n`]
      }
      if (includeUsage) return [`data: ${event.data}\n\n`]
      // Asked for usage only for billing: without include_usage, OpenAI's chunks carry no usage field.
      return [`data: ${event.data.replace(',"usage":null', '')}\n\n`]
    },
    // A body that ended without [DONE] once every choice had its finish reason: the usage chunk (the upstream's,
    // else `usage`, the gateway's count) if the client asked for it, and [DONE].
    endOfAnswer(usage) {
      if (finished.length === 0 || !finished.every(Boolean) || stream.error !== undefined) return undefined
      if (includeUsage && usageFrame === undefined && usage !== undefined) {
        usageFrame = `data: ${JSON.stringify({ id: last?.id, object: 'chat.completion.chunk', created: last?.created, model: last?.model, choices: [], usage: toOpenAIUsage(usage) })}\n\n`
      }
      return end()
    },
  })
}

/** Choice indexes tracked for their finish: n is far below it (a larger index counts as choice 0). */
const MAX_CHOICES = 128

/** A usage the gateway counted, in a chat chunk's shape: cached tokens (and cache writes) are part of prompt_tokens. */
function toOpenAIUsage(usage: TokenUsage): Record<string, unknown> {
  const cached = usage.cachedInputTokens ?? 0
  const prompt = allInputTokens(usage)
  return {
    prompt_tokens: prompt, completion_tokens: usage.outputTokens, total_tokens: prompt + usage.outputTokens,
    ...(cached > 0 ? { prompt_tokens_details: { cached_tokens: cached } } : {}),
  }
}

function collectDelta(delta: NonNullable<OpenAIChunk['choices']>[number]['delta'], into: StreamState): void {
  if (!delta || typeof delta !== 'object') return
  if (typeof delta.content === 'string') into.answer(delta.content)
  if (typeof delta.reasoning_content === 'string') into.produce(delta.reasoning_content)
  for (const call of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) if (typeof call?.function?.arguments === 'string') into.produce(call.function.arguments)
}

/** `{"error":{"message","type","param","code"}}` into a GatewayError with the upstream's status and code. */
export function fromOpenAIError(status: number, text: string): GatewayError {
  const body = parseJson(text) as { error?: { message?: string; type?: string; code?: string | null; param?: string | null } } | undefined
  const error = body?.error
  const message = typeof error?.message === 'string' && error.message !== '' ? error.message : `upstream answered HTTP ${status}`
  return new GatewayError(status >= 500 ? 'upstream_error' : 'invalid_request', { text: message }, {
    status,
    type: error?.type ?? undefined,
    upstreamCode: typeof error?.code === 'string' ? error.code : undefined,
    param: error?.param ?? undefined,
  })
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function malformed(detail: string): GatewayError {
  return new GatewayError('upstream_error', { id: 'upstream_error', params: { detail } })
}
