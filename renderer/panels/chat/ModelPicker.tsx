import { useEffect } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { ErrorNote } from '../../components/ErrorNote'
import { useT } from '../../i18n'
import { useAppStore } from '../../stores/app-store'
import { DEFAULT_MESSAGES_MAX_TOKENS, THINKING_BUDGET } from './build-request'
import { EFFORTS, type Conversation, type Effort } from './chat-types'
import { STRINGS } from './strings'

/** The chat-type models of the group (GET /v1/models); the choice is kept per conversation. */
export function ModelPicker({ conversation }: { conversation: Conversation }) {
  const t = useT(STRINGS)
  const ids = useAppStore(useShallow((s) => s.chatModels.models.filter((m) => m.type === 'chat').map((m) => m.id)))
  const loading = useAppStore((s) => s.chatModels.loading)
  const error = useAppStore((s) => s.chatModels.error)
  const current = useAppStore((s) => s.chatModels.groupId === s.groupId)
  const setModel = useAppStore((s) => s.setConversationModel)
  const { model } = conversation
  const unstarted = conversation.messages.length === 0
  useEffect(() => {
    // Switching group clears a model the new group does not have (Send would only get a 404). A conversation
    // not started yet then takes the group's first model, so a new chat can start at once; a started one waits
    // for the user to pick.
    if (!current || loading || error) return
    if (model !== null && ids.includes(model)) return
    const next = unstarted ? (ids[0] ?? null) : null
    if (next !== model) setModel(next)
  }, [current, loading, error, model, ids, unstarted, setModel])
  if (error) return <ErrorNote error={error} />
  return (
    <label>
      <span>{t('model')}</span>
      <select value={model ?? ''} onChange={(e) => setModel(e.target.value)} disabled={loading} data-testid="chat-model">
        {model === null && <option value="">{loading ? t('loadingModels') : ids.length === 0 ? t('noModels') : t('chooseModel')}</option>}
        {model !== null && !ids.includes(model) && <option value={model}>{loading ? model : t('notInGroup', { model })}</option>}
        {ids.map((id) => (
          <option key={id} value={id}>
            {id}
          </option>
        ))}
      </select>
    </label>
  )
}

/** Reasoning effort and the output cap of the conversation's requests. */
export function RequestSettings({ conversation, protocol }: { conversation: Conversation; protocol: 'chat' | 'messages' }) {
  const t = useT(STRINGS)
  const setSettings = useAppStore((s) => s.setConversationSettings)
  const { effort, maxTokens } = conversation.settings
  // The messages protocol always sends max_tokens: show what "auto" means there.
  const auto = protocol === 'messages' ? String(DEFAULT_MESSAGES_MAX_TOKENS + (THINKING_BUDGET[effort] ?? 0)) : t('maxTokensAuto')
  return (
    <>
      <label>
        <span>{t('effort')}</span>
        <select value={effort} onChange={(e) => setSettings({ effort: e.target.value as Effort })} data-testid="chat-effort">
          {EFFORTS.map((e) => (
            <option key={e} value={e}>
              {t(`effort_${e}`)}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>{t('maxTokens')}</span>
        <input
          type="number"
          min={1}
          step={1}
          className="chat-max-tokens"
          value={maxTokens ?? ''}
          placeholder={auto}
          onChange={(e) => {
            const n = Number.parseInt(e.target.value, 10)
            setSettings({ maxTokens: Number.isFinite(n) && n > 0 ? n : null })
          }}
          data-testid="chat-max-tokens"
        />
      </label>
    </>
  )
}
