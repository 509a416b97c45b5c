import { useEffect, useRef } from 'react'
import { useT } from '../../i18n'
import { useAppStore } from '../../stores/app-store'
import { AssistantMessageView, UserMessageView } from './MessageView'
import { STRINGS } from './strings'

/** How close to the bottom counts as "reading the end", where new text keeps the view scrolled down. */
const STICK_PX = 48

/** The messages of a conversation, kept scrolled to the end while an answer streams in. */
export function MessageList({ conversationId }: { conversationId: string }) {
  const t = useT(STRINGS)
  const messages = useAppStore((s) => s.conversations.find((c) => c.id === conversationId)?.messages)
  const liveId = useAppStore((s) => s.chatStreaming[conversationId])
  const liveLength = useAppStore((s) => {
    const live = liveId ? s.chatLive[liveId] : undefined
    return live ? live.text.length + live.reasoning.length + live.toolCalls.length : 0
  })
  const ref = useRef<HTMLDivElement>(null)
  const stick = useRef(true)
  useEffect(() => {
    const el = ref.current
    if (el && stick.current) el.scrollTop = el.scrollHeight
  }, [messages, liveLength])
  if (!messages || messages.length === 0) return <div className="chat-messages muted">{t('empty')}</div>
  return (
    <div
      className="chat-messages"
      ref={ref}
      onScroll={(e) => {
        const el = e.currentTarget
        stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX
      }}
    >
      {messages.map((m, i) =>
        m.role === 'user' ? (
          <UserMessageView key={m.id} message={m} />
        ) : (
          <AssistantMessageView key={m.id} message={m} conversationId={conversationId} last={i === messages.length - 1} />
        ),
      )}
    </div>
  )
}
