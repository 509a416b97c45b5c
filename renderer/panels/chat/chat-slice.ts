import type { StateCreator } from 'zustand'
import { listModels, type ModelEntry } from '../../api/gateway'
import type { AppState } from '../../stores/app-store'
import { toAnswerRequest } from './build-request'
import { findLedgerRow, streamAnswer, type AnswerOutcome } from './chat-api'
import {
  DEFAULT_SETTINGS, type AssistantMessage, type Attachment, type ChatSettings, type ComposerDraft, type Conversation,
  type StreamedAnswer, type UserMessage,
} from './chat-types'
import { frameThrottle } from './frame-throttle'

/** The models of the group the panel works in, as GET /v1/models gave them. */
export interface ChatModels {
  groupId: string | null
  models: ModelEntry[]
  loading: boolean
  error: unknown
}

/** Conversations (saved) and the composer, models and streams under way (not saved). */
export interface ChatSlice {
  conversations: Conversation[]
  activeConversationId: string | null
  /** conversation id → what the composer holds */
  chatDrafts: Record<string, ComposerDraft>
  /** conversation id → id of the assistant message being streamed */
  chatStreaming: Record<string, string>
  /** message id → the answer so far, while it streams */
  chatLive: Record<string, StreamedAnswer>
  chatModels: ChatModels
  newConversation(): string
  selectConversation(id: string): void
  renameConversation(id: string, title: string): void
  deleteConversation(id: string): void
  setConversationModel(model: string | null): void
  setConversationSettings(patch: Partial<ChatSettings>): void
  setComposerText(text: string): void
  addAttachments(attachments: Attachment[]): void
  removeAttachment(index: number): void
  loadChatModels(groupId: string): Promise<void>
  sendMessage(): Promise<void>
  /** asks again for a failed last answer, in its place */
  retryAnswer(conversationId: string, messageId: string): Promise<void>
  stopAnswer(conversationId: string): void
  /** Compare in Chat: the prompt and the answer picked join the conversation, whose model becomes the answer's */
  continueWith(conversationId: string, user: UserMessage, answer: AssistantMessage): void
}

type SetState = Parameters<StateCreator<AppState, [], [], ChatSlice>>[0]
type GetState = () => AppState

// Abort controllers are not state: nothing renders them and they cannot be saved.
const controllers = new Map<string, AbortController>()

const EMPTY_DRAFT: ComposerDraft = { text: '', attachments: [] }
const newId = () => crypto.randomUUID()

const activeOf = (s: AppState) => s.conversations.find((c) => c.id === s.activeConversationId)

function mapConversation(s: AppState, id: string, fn: (c: Conversation) => Conversation): Pick<ChatSlice, 'conversations'> {
  return { conversations: s.conversations.map((c) => (c.id === id ? fn(c) : c)) }
}

function patchMessage(s: AppState, convId: string, msgId: string, patch: Partial<AssistantMessage>): Pick<ChatSlice, 'conversations'> {
  return mapConversation(s, convId, (c) => ({
    ...c,
    messages: c.messages.map((m) => (m.id === msgId && m.role === 'assistant' ? { ...m, ...patch } : m)),
  }))
}

function setDraft(s: AppState, convId: string, fn: (d: ComposerDraft) => ComposerDraft): Pick<ChatSlice, 'chatDrafts'> {
  return { chatDrafts: { ...s.chatDrafts, [convId]: fn(s.chatDrafts[convId] ?? EMPTY_DRAFT) } }
}

function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  const { [key]: _, ...rest } = record
  return rest
}

function pendingAnswer(model: string, now: number): AssistantMessage {
  return {
    id: newId(), role: 'assistant', model, state: 'streaming', text: '', reasoning: '', toolCalls: [], finishReason: null,
    usage: null, requestId: null, error: null, createdAt: now,
  }
}

function outcomePatch({ answer, state, requestId, error }: AnswerOutcome): Partial<AssistantMessage> {
  return {
    state, requestId, error, text: answer.text, reasoning: answer.reasoning, toolCalls: answer.toolCalls,
    finishReason: answer.finishReason, usage: answer.usage,
  }
}

/** Reads the cost from the ledger; its token counts stand in when the stream carried no usage (stopped early). */
async function settleCost(set: SetState, convId: string, msgId: string, requestId: string, usage: AssistantMessage['usage']) {
  try {
    const row = await findLedgerRow(requestId)
    const ledgerUsage = row && row.inputTokens !== null ? { inputTokens: row.inputTokens, outputTokens: row.outputTokens ?? 0 } : null
    set((s) => patchMessage(s, convId, msgId, { cost: row ? row.cost : null, usage: usage ?? ledgerUsage }))
  } catch (err) {
    set((s) => patchMessage(s, convId, msgId, { cost: null, costError: err instanceof Error ? err.message : String(err) }))
  }
}

/** Streams one answer into `chatLive` (at most once per frame), then writes the outcome into the message. */
async function runAnswer(set: SetState, get: GetState, convId: string, msgId: string, conv: Conversation) {
  const s = get()
  const group = s.groups.find((g) => g.id === s.groupId)!
  const family = s.chatModels.models.find((m) => m.id === conv.model)?.family
  const request = { ...toAnswerRequest(group.protocol, conv, family), group: group.id, protocol: group.protocol, language: s.language }
  const controller = new AbortController()
  controllers.set(msgId, controller)
  let latest: StreamedAnswer | undefined
  const frame = frameThrottle(() => set((st) => ({ chatLive: { ...st.chatLive, [msgId]: latest! } })))
  const outcome = await streamAnswer(request, controller.signal, (answer) => {
    latest = answer
    frame.schedule()
  })
  frame.cancel()
  controllers.delete(msgId)
  set((st) => ({
    ...patchMessage(st, convId, msgId, outcomePatch(outcome)),
    chatLive: without(st.chatLive, msgId),
    chatStreaming: without(st.chatStreaming, convId),
  }))
  if (outcome.requestId) await settleCost(set, convId, msgId, outcome.requestId, outcome.answer.usage)
}

function createConversation(from: Conversation | undefined, now: number): Conversation {
  return {
    id: newId(), title: null, model: from?.model ?? null, settings: from?.settings ?? DEFAULT_SETTINGS, messages: [],
    createdAt: now, updatedAt: now,
  }
}

/** The chat slice: conversation actions, and sending that streams the answer into the store. */
export const createChatSlice: StateCreator<AppState, [], [], ChatSlice> = (set, get) => ({
  conversations: [],
  activeConversationId: null,
  chatDrafts: {},
  chatStreaming: {},
  chatLive: {},
  chatModels: { groupId: null, models: [], loading: false, error: null },
  newConversation: () => {
    // A conversation nothing was asked or typed in yet is the new one: New chat goes to it instead of leaving it behind.
    const { conversations, chatDrafts } = get()
    const untouched = (c: Conversation) => {
      const draft = chatDrafts[c.id]
      return c.messages.length === 0 && c.title === null && !draft?.text.trim() && !draft?.attachments.length
    }
    const empty = conversations.find(untouched)
    if (empty) {
      set({ activeConversationId: empty.id })
      return empty.id
    }
    const conv = createConversation(activeOf(get()), Date.now())
    set((s) => ({ conversations: [conv, ...s.conversations], activeConversationId: conv.id }))
    return conv.id
  },
  selectConversation: (id) => set({ activeConversationId: id }),
  renameConversation: (id, title) =>
    set((s) => mapConversation(s, id, (c) => ({ ...c, title: title.trim() === '' ? null : title.trim() }))),
  deleteConversation: (id) => {
    const streaming = get().chatStreaming[id]
    if (streaming) controllers.get(streaming)?.abort()
    set((s) => {
      const conversations = s.conversations.filter((c) => c.id !== id)
      const activeConversationId = s.activeConversationId === id ? (conversations[0]?.id ?? null) : s.activeConversationId
      return { conversations, activeConversationId, chatDrafts: without(s.chatDrafts, id) }
    })
  },
  setConversationModel: (model) => {
    const id = get().activeConversationId
    if (id) set((s) => mapConversation(s, id, (c) => ({ ...c, model })))
  },
  setConversationSettings: (patch) => {
    const id = get().activeConversationId
    if (id) set((s) => mapConversation(s, id, (c) => ({ ...c, settings: { ...c.settings, ...patch } })))
  },
  setComposerText: (text) => {
    const id = get().activeConversationId
    if (id) set((s) => setDraft(s, id, (d) => ({ ...d, text })))
  },
  addAttachments: (attachments) => {
    const id = get().activeConversationId
    if (id) set((s) => setDraft(s, id, (d) => ({ ...d, attachments: [...d.attachments, ...attachments] })))
  },
  removeAttachment: (index) => {
    const id = get().activeConversationId
    if (id) set((s) => setDraft(s, id, (d) => ({ ...d, attachments: d.attachments.filter((_, i) => i !== index) })))
  },
  loadChatModels: async (groupId) => {
    set({ chatModels: { groupId, models: [], loading: true, error: null } })
    try {
      const models = await listModels(groupId)
      if (get().chatModels.groupId === groupId) set({ chatModels: { groupId, models, loading: false, error: null } })
    } catch (error) {
      if (get().chatModels.groupId === groupId) set({ chatModels: { groupId, models: [], loading: false, error } })
    }
  },
  sendMessage: async () => {
    const s = get()
    const conv = activeOf(s)
    const draft = conv && s.chatDrafts[conv.id]
    if (!conv?.model || !draft || s.chatStreaming[conv.id] || !s.groups.some((g) => g.id === s.groupId)) return
    if (draft.text.trim() === '' && draft.attachments.length === 0) return
    const now = Date.now()
    const user: UserMessage = { id: newId(), role: 'user', text: draft.text, attachments: draft.attachments, createdAt: now }
    const asked = { ...conv, messages: [...conv.messages, user], updatedAt: now }
    const answer = pendingAnswer(conv.model, now)
    set((st) => ({
      ...mapConversation(st, conv.id, () => ({ ...asked, messages: [...asked.messages, answer] })),
      chatDrafts: without(st.chatDrafts, conv.id),
      chatStreaming: { ...st.chatStreaming, [conv.id]: answer.id },
    }))
    await runAnswer(set, get, conv.id, answer.id, asked)
  },
  retryAnswer: async (conversationId, messageId) => {
    const s = get()
    const conv = s.conversations.find((c) => c.id === conversationId)
    const failed = conv?.messages.at(-1)
    if (!conv?.model || !failed || failed.id !== messageId || failed.role !== 'assistant' || failed.state !== 'error' || s.chatStreaming[conversationId]) return
    if (!s.groups.some((g) => g.id === s.groupId)) return
    // The question is asked again with the conversation's current model; the failed answer gives way to the new one.
    const asked = { ...conv, messages: conv.messages.slice(0, -1), updatedAt: Date.now() }
    const answer = pendingAnswer(conv.model, Date.now())
    set((st) => ({
      ...mapConversation(st, conv.id, () => ({ ...asked, messages: [...asked.messages, answer] })),
      chatStreaming: { ...st.chatStreaming, [conv.id]: answer.id },
    }))
    await runAnswer(set, get, conv.id, answer.id, asked)
  },
  stopAnswer: (conversationId) => {
    const msgId = get().chatStreaming[conversationId]
    if (msgId) controllers.get(msgId)?.abort()
  },
  continueWith: (conversationId, user, answer) => {
    if (get().chatStreaming[conversationId]) return
    set((s) => mapConversation(s, conversationId, (c) => ({ ...c, model: answer.model, messages: [...c.messages, user, answer], updatedAt: Date.now() })))
  },
})

/**
 * What the `chat` state document keeps: the conversations and the active one. An answer still
 * streaming is saved as stopped, since its stream does not survive a restart.
 */
export function chatPersisted(s: AppState) {
  const streaming = new Set(Object.keys(s.chatStreaming))
  const conversations = streaming.size === 0 ? s.conversations : s.conversations.map((c) => (streaming.has(c.id) ? stoppedCopy(c) : c))
  return { conversations, activeConversationId: s.activeConversationId }
}

function stoppedCopy(c: Conversation): Conversation {
  return { ...c, messages: c.messages.map((m) => (m.role === 'assistant' && m.state === 'streaming' ? { ...m, state: 'stopped' as const } : m)) }
}
