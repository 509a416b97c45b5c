import { useEffect } from 'react'
import { GroupNeedsAccount } from '../../components/NextStep'
import { useT } from '../../i18n'
import { useAppStore } from '../../stores/app-store'
import './chat.css'
import { CompareBox } from './CompareBox'
import { Composer } from './Composer'
import { ConversationList } from './ConversationList'
import { MessageList } from './MessageList'
import { ModelPicker, RequestSettings } from './ModelPicker'
import { STRINGS } from './strings'

/** Chat with the models of the current group, streamed, in saved conversations. */
export function ChatPanel() {
  const t = useT(STRINGS)
  const groupId = useAppStore((s) => s.groupId)
  const protocol = useAppStore((s) => s.groups.find((g) => g.id === s.groupId)?.protocol)
  const conversation = useAppStore((s) => s.conversations.find((c) => c.id === s.activeConversationId))
  const hasConversations = useAppStore((s) => s.conversations.length > 0)
  // Send waits until the conversation's model is one of the group's (a model of another group answers 404).
  const modelInGroup = useAppStore((s) => {
    const model = s.conversations.find((c) => c.id === s.activeConversationId)?.model
    return s.chatModels.groupId === s.groupId && s.chatModels.models.some((m) => m.id === model)
  })
  const loadChatModels = useAppStore((s) => s.loadChatModels)
  const newConversation = useAppStore((s) => s.newConversation)
  const selectConversation = useAppStore((s) => s.selectConversation)
  useEffect(() => {
    if (groupId) void loadChatModels(groupId)
  }, [groupId, loadChatModels])
  useEffect(() => {
    // There is always a conversation to type into.
    if (conversation) return
    const first = useAppStore.getState().conversations[0]
    if (first) selectConversation(first.id)
    else newConversation()
  }, [conversation, hasConversations, newConversation, selectConversation])

  return (
    <section className="panel chat" data-testid="panel-chat">
      <ConversationList />
      <div className="chat-main">
        {!groupId || !protocol ? (
          <p className="muted">{t('noGroup')}</p>
        ) : (
          conversation && (
            <>
              <GroupNeedsAccount testId="chat-next-step" />
              <div className="row chat-settings">
                <ModelPicker conversation={conversation} />
                <RequestSettings conversation={conversation} protocol={protocol} />
              </div>
              <CompareBox conversation={conversation} />
              <MessageList conversationId={conversation.id} />
              <Composer conversationId={conversation.id} canSend={conversation.model !== null && modelInGroup} />
            </>
          )
        )}
      </div>
    </section>
  )
}
