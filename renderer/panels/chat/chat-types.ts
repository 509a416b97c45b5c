/** The chat panel's data: conversations as they are saved, and the answer a stream builds up. */
import type { UpstreamNote } from '../../../shared/upstream-reasons'

/** Reasoning effort as the panel offers it; `default` sends nothing and leaves the model's own default. */
export const EFFORTS = ['default', 'none', 'low', 'medium', 'high'] as const
/** One of EFFORTS. */
export type Effort = (typeof EFFORTS)[number]

/** Per-conversation request settings. */
export interface ChatSettings {
  effort: Effort
  /** output cap; null: the protocol's default (omitted on the chat protocol) */
  maxTokens: number | null
}

/** An image sent with a user message, kept as a data URL so the conversation is self-contained. */
export interface Attachment {
  name: string
  mediaType: string
  dataUrl: string
}

/** A tool call the model made; `arguments` is the JSON text as streamed (fragments concatenated). */
export interface ToolCall {
  id: string
  name: string
  arguments: string
}

/** Token counts of one answer; `inputTokens` includes cached input. */
export interface TokenUsage {
  inputTokens: number
  outputTokens: number
  cachedInputTokens?: number
}

/** An error answer or an error event; `status` is null for errors that arrived after the stream started. */
export interface MessageError {
  status: number | null
  code: string
  message: string
  /** why the vendor failed, as the gateway said (`error.upstream`) */
  upstream?: UpstreamNote | null
}

/** An answer's life: `streaming`, then `done`, `stopped` (by the user) or `error`. */
export type MessageState = 'streaming' | 'done' | 'stopped' | 'error'

/** What the user sent. */
export interface UserMessage {
  id: string
  role: 'user'
  text: string
  attachments: Attachment[]
  createdAt: number
}

/** A model's answer, with what the stream and the ledger said about it. */
export interface AssistantMessage {
  id: string
  role: 'assistant'
  model: string
  state: MessageState
  text: string
  reasoning: string
  toolCalls: ToolCall[]
  finishReason: string | null
  usage: TokenUsage | null
  /** the gateway's request id (`x-request-id`), the key of its ledger row */
  requestId: string | null
  /** USD from the ledger; undefined while not looked up yet, null when the row could not be read */
  cost?: number | null
  /** why the ledger row could not be read */
  costError?: string
  error: MessageError | null
  createdAt: number
}

/** A turn of a conversation. */
export type ChatMessage = UserMessage | AssistantMessage

/** A saved conversation: its messages, model and settings. */
export interface Conversation {
  id: string
  /** set by renaming; null shows the start of the first message */
  title: string | null
  model: string | null
  settings: ChatSettings
  messages: ChatMessage[]
  createdAt: number
  updatedAt: number
}

/** What the composer holds before sending. */
export interface ComposerDraft {
  text: string
  attachments: Attachment[]
}

/** The answer a stream has produced so far; the reducers of both protocols build it event by event. */
export interface StreamedAnswer {
  text: string
  reasoning: string
  toolCalls: ToolCall[]
  usage: TokenUsage | null
  finishReason: string | null
  error: MessageError | null
  /** the protocol's end marker (`[DONE]`, `message_stop`) or an error event arrived */
  done: boolean
  /** protocol index (tool_calls[].index, content block index) → position in toolCalls */
  toolSlots: Record<number, number>
  /** content block index → block type (messages protocol) */
  blocks: Record<number, string>
}

/** One server-sent event as the parser hands it over. */
export interface SseEvent {
  event?: string
  data: string
}

/** The answer before the first event. */
export const emptyAnswer = (): StreamedAnswer => ({
  text: '', reasoning: '', toolCalls: [], usage: null, finishReason: null, error: null, done: false, toolSlots: {}, blocks: {},
})

/** Settings of the first conversation: the model's own defaults. */
export const DEFAULT_SETTINGS: ChatSettings = { effort: 'default', maxTokens: null }
