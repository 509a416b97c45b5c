import type { GroupProtocol } from '../../../shared/types'
import { quoteBody, type QuoteBody } from '../../api/quote'
import type { AssistantMessage, ChatMessage, ComposerDraft, Conversation, Effort, UserMessage } from './chat-types'

/** The HTTP call for one answer: path, extra headers and JSON body. */
export interface AnswerRequest {
  path: string
  headers: Record<string, string>
  body: Record<string, unknown>
}

/** The messages protocol requires `max_tokens`; this is the answer room when the conversation sets none. */
export const DEFAULT_MESSAGES_MAX_TOKENS = 4096

/**
 * Thinking budgets for the messages protocol, the same steps the gateway uses for Gemini's
 * reasoning_effort (spec §4.1: medium 8192, high 24576); low is the vendor's minimum.
 * @see ../../../docs/vendors/anthropic.md (`thinking.budget_tokens` ≥ 1024 and < max_tokens)
 */
export const THINKING_BUDGET: Partial<Record<Effort, number>> = { low: 1024, medium: 8192, high: 24576 }
const MIN_THINKING_BUDGET = 1024

/**
 * Families whose vendor wants `max_completion_tokens`: OpenAI's reasoning models reject the older
 * `max_tokens`; the others' validators (GLM, Qwen ranges, spec §4.1) read `max_tokens`.
 */
const MAX_TOKENS_FIELD: Record<string, 'max_tokens' | 'max_completion_tokens'> = { gpt: 'max_completion_tokens' }

/** Earlier turns worth sending: answers with text; failed or empty answers and the one being written are left out. */
function history(messages: ChatMessage[]): Array<UserMessage | AssistantMessage> {
  return messages.filter((m) => m.role === 'user' || (m.state !== 'streaming' && m.text.trim() !== ''))
}

/** `data:image/png;base64,AAA` → media type and base64 data. */
export function splitDataUrl(dataUrl: string): { mediaType: string; data: string } {
  const match = /^data:([^;,]+)(?:;[^,]*)?;base64,(.*)$/s.exec(dataUrl)
  if (!match) throw new Error('not a base64 data URL')
  return { mediaType: match[1], data: match[2] }
}

function toChatMessage(m: UserMessage | AssistantMessage): Record<string, unknown> {
  if (m.role === 'assistant') return { role: 'assistant', content: m.text }
  if (m.attachments.length === 0) return { role: 'user', content: m.text }
  const parts: unknown[] = m.text.trim() !== '' ? [{ type: 'text', text: m.text }] : []
  for (const a of m.attachments) parts.push({ type: 'image_url', image_url: { url: a.dataUrl } })
  return { role: 'user', content: parts }
}

/** POST /v1/chat/completions, streamed with the usage chunk (spec §4.1, §6 rule 2). */
export function toChatCompletionsRequest(conv: Conversation, family?: string): AnswerRequest {
  const body: Record<string, unknown> = {
    model: conv.model,
    messages: history(conv.messages).map(toChatMessage),
    stream: true,
    stream_options: { include_usage: true },
  }
  if (conv.settings.effort !== 'default') body.reasoning_effort = conv.settings.effort
  if (conv.settings.maxTokens !== null) body[MAX_TOKENS_FIELD[family ?? ''] ?? 'max_tokens'] = conv.settings.maxTokens
  return { path: '/v1/chat/completions', headers: {}, body }
}

function toMessagesBlocks(m: UserMessage | AssistantMessage): unknown[] {
  if (m.role === 'assistant') return [{ type: 'text', text: m.text }]
  // Images before the text: the vendor's guidance for image prompts.
  const blocks: unknown[] = m.attachments.map((a) => {
    const { mediaType, data } = splitDataUrl(a.dataUrl)
    return { type: 'image', source: { type: 'base64', media_type: mediaType, data } }
  })
  if (m.text.trim() !== '') blocks.push({ type: 'text', text: m.text })
  return blocks
}

/** Messages must alternate user/assistant; turns left adjacent by a dropped failed answer are joined. */
function alternate(turns: Array<UserMessage | AssistantMessage>): Array<{ role: string; content: unknown[] }> {
  const out: Array<{ role: string; content: unknown[] }> = []
  for (const m of turns) {
    const last = out.at(-1)
    if (last && last.role === m.role) last.content.push(...toMessagesBlocks(m))
    else out.push({ role: m.role, content: toMessagesBlocks(m) })
  }
  return out
}

/** `thinking` for an effort: a budget below max_tokens, or nothing when the effort or the room is too small. */
export function thinkingFor(effort: Effort, maxTokens: number): { type: 'enabled'; budget_tokens: number } | undefined {
  const wanted = THINKING_BUDGET[effort]
  if (wanted === undefined) return undefined
  const budget = Math.min(wanted, maxTokens - 1)
  return budget >= MIN_THINKING_BUDGET ? { type: 'enabled', budget_tokens: budget } : undefined
}

/**
 * POST /v1/messages, streamed. Without a set max_tokens, thinking gets its budget on top of the
 * default answer room, so "high" does not starve the answer.
 */
export function toMessagesRequest(conv: Conversation): AnswerRequest {
  const { effort, maxTokens } = conv.settings
  const maxOut = maxTokens ?? DEFAULT_MESSAGES_MAX_TOKENS + (THINKING_BUDGET[effort] ?? 0)
  const body: Record<string, unknown> = {
    model: conv.model,
    max_tokens: maxOut,
    messages: alternate(history(conv.messages)),
    stream: true,
  }
  const thinking = thinkingFor(effort, maxOut)
  if (thinking) body.thinking = thinking
  return { path: '/v1/messages', headers: { 'anthropic-version': '2023-06-01' }, body }
}

/** The request for the next answer of `conv`, in the group's protocol. */
export function toAnswerRequest(protocol: GroupProtocol, conv: Conversation, family?: string): AnswerRequest {
  return protocol === 'messages' ? toMessagesRequest(conv) : toChatCompletionsRequest(conv, family)
}

/** The quote of the answer Send would ask for: the conversation with the draft as its next user message. */
export function nextAnswerQuote(protocol: GroupProtocol, conv: Conversation, draft: ComposerDraft, family?: string): QuoteBody {
  const user: UserMessage = { id: 'draft', role: 'user', text: draft.text, attachments: draft.attachments, createdAt: 0 }
  const { path, body } = toAnswerRequest(protocol, { ...conv, messages: [...conv.messages, user] }, family)
  return quoteBody(path, body)
}
