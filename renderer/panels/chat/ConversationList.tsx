import { useRef, useState } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { useT } from '../../i18n'
import { useAppStore } from '../../stores/app-store'
import { conversationLabel, conversationLabels } from './conversation-labels'
import { STRINGS } from './strings'

function ConversationItem({ id }: { id: string }) {
  const t = useT(STRINGS)
  const conv = useAppStore((s) => s.conversations.find((c) => c.id === id))
  const shownAs = useAppStore((s) => {
    const i = s.conversations.findIndex((c) => c.id === id)
    return i < 0 ? '' : conversationLabels(s.conversations, t('untitled'))[i]
  })
  const active = useAppStore((s) => s.activeConversationId === id)
  const { selectConversation, renameConversation, deleteConversation } = useAppStore.getState()
  const [mode, setMode] = useState<'view' | 'rename' | 'delete'>('view')
  if (!conv) return null
  const label = shownAs
  if (mode === 'rename') {
    const initial = conv.title ?? conversationLabel(conv) ?? ''
    const done = (title: string | undefined) => {
      if (title !== undefined) renameConversation(id, title)
      setMode('view')
    }
    return <RenameInput initial={initial} onDone={done} />
  }
  return (
    <li className={active ? 'chat-conv active' : 'chat-conv'} data-testid="chat-conversation" data-id={id} aria-current={active || undefined}>
      <button type="button" className="chat-conv-title" onClick={() => selectConversation(id)} title={label}>
        {label}
      </button>
      {mode === 'delete' ? (
        <span className="row">
          <button type="button" className="danger small" onClick={() => deleteConversation(id)} data-testid="chat-delete-confirm">
            {t('confirmDelete')}
          </button>
          <button type="button" className="small" onClick={() => setMode('view')}>
            {t('cancel')}
          </button>
        </span>
      ) : (
        <span className="chat-conv-actions">
          <button type="button" className="link small" onClick={() => setMode('rename')} data-testid="chat-rename">
            {t('rename')}
          </button>
          <button type="button" className="link small danger" onClick={() => setMode('delete')} data-testid="chat-delete">
            {t('delete')}
          </button>
        </span>
      )}
    </li>
  )
}

/** Enter or leaving the field keeps the name; Escape leaves it as it was. */
function RenameInput({ initial, onDone }: { initial: string; onDone: (title: string | undefined) => void }) {
  const finished = useRef(false)
  const finish = (title: string | undefined) => {
    if (finished.current) return
    finished.current = true
    onDone(title)
  }
  return (
    <li className="chat-conv active">
      <input
        autoFocus
        defaultValue={initial}
        onKeyDown={(e) => {
          if (e.key === 'Enter') finish(e.currentTarget.value)
          else if (e.key === 'Escape') finish(undefined)
        }}
        onBlur={(e) => finish(e.currentTarget.value)}
        data-testid="chat-rename-input"
      />
    </li>
  )
}

/** The left column: new, switch, rename and delete conversations. */
export function ConversationList() {
  const t = useT(STRINGS)
  const ids = useAppStore(useShallow((s) => s.conversations.map((c) => c.id)))
  const newConversation = useAppStore((s) => s.newConversation)
  return (
    <aside className="chat-list">
      <button type="button" className="primary" onClick={() => newConversation()} data-testid="chat-new">
        {t('newChat')}
      </button>
      <ul aria-label={t('conversations')}>
        {ids.map((id) => (
          <ConversationItem key={id} id={id} />
        ))}
      </ul>
    </aside>
  )
}
