import { ActionError } from '../../components/ActionError'
import { formatUsd, useT } from '../../i18n'
import { useAppStore } from '../../stores/app-store'
import type { AssistantMessage, ToolCall, UserMessage } from './chat-types'
import { Markdown } from './Markdown'
import { STRINGS, type ChatT as T } from './strings'

/** A sent message: its text as written and its images. */
export function UserMessageView({ message }: { message: UserMessage }) {
  const t = useT(STRINGS)
  return (
    <article className="chat-message user" data-testid="chat-message-user">
      <div className="chat-role small muted">{t('you')}</div>
      {message.attachments.length > 0 && (
        <div className="chat-thumbs">
          {message.attachments.map((a, i) => (
            <img key={i} src={a.dataUrl} alt={a.name} title={a.name} className="chat-thumb" data-testid="chat-message-image" />
          ))}
        </div>
      )}
      {message.text && <div className="chat-user-text">{message.text}</div>}
    </article>
  )
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2)
  } catch {
    return text
  }
}

function ToolCalls({ calls, t }: { calls: ToolCall[]; t: T }) {
  return calls.map((call, i) => (
    <details key={call.id || i} className="chat-tool-call" data-testid="chat-tool-call">
      <summary>{t('toolCalls', { name: call.name })}</summary>
      <pre>
        <code>{prettyJson(call.arguments)}</code>
      </pre>
    </details>
  ))
}

function UsageLine({ message, t }: { message: AssistantMessage; t: T }) {
  const { usage, cost, requestId } = message
  if (!usage && !requestId) return null
  const parts: string[] = []
  if (usage) {
    parts.push(t('usage', { input: usage.inputTokens, output: usage.outputTokens }))
    if (usage.cachedInputTokens) parts.push(t('cached', { cached: usage.cachedInputTokens }))
  }
  if (requestId) parts.push(cost === undefined ? t('costPending') : cost === null ? t('costUnavailable') : formatUsd(cost))
  return (
    <div className="small muted" data-testid="chat-usage" title={message.costError ?? requestId ?? undefined}>
      {parts.join(' · ')}
    </div>
  )
}

/** An answer: live while it streams, then as saved; reasoning and tool calls fold away. */
export function AssistantMessageView({ message, conversationId, last }: { message: AssistantMessage; conversationId: string; last: boolean }) {
  const t = useT(STRINGS)
  const retry = useAppStore((s) => s.retryAnswer)
  const live = useAppStore((s) => (message.state === 'streaming' ? s.chatLive[message.id] : undefined))
  const shown = live ?? message
  const streaming = message.state === 'streaming'
  const finish = message.finishReason && !['stop', 'end_turn', 'tool_calls', 'tool_use'].includes(message.finishReason)
  return (
    <article className="chat-message assistant" data-testid="chat-message-assistant" data-state={message.state}>
      <div className="chat-role small muted">
        {message.model}
        {streaming && <span className="badge">{t('streaming')}</span>}
        {message.state === 'stopped' && <span className="badge" data-testid="chat-stopped">{t('stopped')}</span>}
        {finish && <span className="badge">{t('finish', { reason: message.finishReason! })}</span>}
      </div>
      {shown.reasoning && (
        <details className="chat-reasoning" data-testid="chat-reasoning">
          <summary>{streaming && !shown.text ? t('thinking') : t('reasoning')}</summary>
          <div className="chat-reasoning-text">{shown.reasoning}</div>
        </details>
      )}
      {shown.text && <Markdown text={shown.text} />}
      <ToolCalls calls={shown.toolCalls} t={t} />
      {message.error && (
        <ActionError error={{ ...message.error, requestId: message.requestId }} onRetry={last ? () => void retry(conversationId, message.id) : undefined} />
      )}
      {!streaming && <UsageLine message={message} t={t} />}
    </article>
  )
}
