import type { Conversation } from './chat-types'

/** The name shown for a conversation: its title, else the start of its first message. */
export function conversationLabel(c: Conversation): string | null {
  if (c.title) return c.title
  const first = c.messages.find((m) => m.role === 'user')
  const text = first?.text.trim().replace(/\s+/g, ' ')
  return text ? (text.length > 40 ? `${text.slice(0, 40)}…` : text) : null
}

/**
 * The names of all conversations, newest first: a name two conversations share gets its number among them, the
 * oldest keeping the bare name ("Hello", "Hello (2)"), so no two rows of the list read alike.
 */
export function conversationLabels(conversations: readonly Conversation[], untitled: string): string[] {
  const base = conversations.map((c) => conversationLabel(c) ?? untitled)
  const seen = new Map<string, number>()
  const labels = new Array<string>(base.length)
  for (let i = base.length - 1; i >= 0; i--) {
    const n = (seen.get(base[i]) ?? 0) + 1
    seen.set(base[i], n)
    labels[i] = n === 1 ? base[i] : `${base[i]} (${n})`
  }
  return labels
}
