import { useRef, useState } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { formatUsd, useT } from '../../i18n'
import { useAppStore } from '../../stores/app-store'
import { toAnswerRequest } from './build-request'
import { findLedgerRow, streamAnswer, type AnswerOutcome } from './chat-api'
import type { AssistantMessage, Conversation, StreamedAnswer, UserMessage } from './chat-types'
import { COMPARE_STRINGS } from './compare-strings'
import { Markdown } from './Markdown'

/** How many models one comparison asks at most. */
export const MAX_COMPARED = 3

interface Column {
  model: string
  live: StreamedAnswer | null
  outcome: AnswerOutcome | null
  /** USD from the ledger; undefined while looked up, null when it could not be read */
  cost?: number | null
}

/**
 * Compare in Chat: one prompt (after the conversation so far) to two or three models of the group at once, the
 * answers side by side with their cost; "Continue with this answer" puts the prompt and that answer into the
 * conversation, with its model chosen for what follows.
 */
export function CompareBox({ conversation }: { conversation: Conversation }) {
  const t = useT(COMPARE_STRINGS)
  const ids = useAppStore(useShallow((s) => s.chatModels.models.filter((m) => m.type === 'chat').map((m) => m.id)))
  const continueWith = useAppStore((s) => s.continueWith)
  const [open, setOpen] = useState(false)
  const [picked, setPicked] = useState<string[]>([])
  const [prompt, setPrompt] = useState('')
  const [columns, setColumns] = useState<Column[]>([])
  const [asked, setAsked] = useState<UserMessage | null>(null)
  const controller = useRef<AbortController | null>(null)
  const running = columns.some((c) => c.outcome === null)
  if (ids.length < 2) return null
  const toggle = (id: string) => setPicked((p) => (p.includes(id) ? p.filter((m) => m !== id) : p.length < MAX_COMPARED ? [...p, id] : p))
  const patch = (model: string, change: Partial<Column>) => setColumns((cs) => cs.map((c) => (c.model === model ? { ...c, ...change } : c)))

  const compare = () => {
    const s = useAppStore.getState()
    const group = s.groups.find((g) => g.id === s.groupId)
    if (!group || picked.length < 2 || prompt.trim() === '') return
    const user: UserMessage = { id: crypto.randomUUID(), role: 'user', text: prompt, attachments: [], createdAt: Date.now() }
    const abort = new AbortController()
    controller.current = abort
    setAsked(user)
    setColumns(picked.map((model) => ({ model, live: null, outcome: null })))
    for (const model of picked) {
      const conv: Conversation = { ...conversation, model, messages: [...conversation.messages, user] }
      const family = s.chatModels.models.find((m) => m.id === model)?.family
      const request = { ...toAnswerRequest(group.protocol, conv, family), group: group.id, protocol: group.protocol, language: s.language }
      void streamAnswer(request, abort.signal, (live) => patch(model, { live })).then(async (outcome) => {
        patch(model, { outcome, live: outcome.answer })
        if (!outcome.requestId) return patch(model, { cost: null })
        const row = await findLedgerRow(outcome.requestId).catch(() => undefined)
        patch(model, { cost: row ? row.cost : null })
      })
    }
  }

  const adopt = (c: Column) => {
    if (!asked || !c.outcome) return
    const { answer, state, requestId, error } = c.outcome
    const message: AssistantMessage = {
      id: crypto.randomUUID(), role: 'assistant', model: c.model, state, text: answer.text, reasoning: answer.reasoning, toolCalls: answer.toolCalls,
      finishReason: answer.finishReason, usage: answer.usage, requestId, cost: c.cost, error, createdAt: Date.now(),
    }
    continueWith(conversation.id, asked, message)
    setColumns([])
    setAsked(null)
    setPrompt('')
    setOpen(false)
  }

  if (!open) return <button type="button" onClick={() => setOpen(true)} data-testid="compare-open">{t('open')}</button>
  return (
    <section className="card chat-compare" data-testid="chat-compare" aria-label={t('title')}>
      <div className="row">
        <h3>{t('title')}</h3>
        <button type="button" onClick={() => { controller.current?.abort(); setOpen(false) }} data-testid="compare-close">{t('close')}</button>
      </div>
      <fieldset className="chat-compare-models">
        <legend>{t('models')}</legend>
        {ids.map((id) => (
          <label key={id}>
            <input type="checkbox" checked={picked.includes(id)} disabled={!picked.includes(id) && picked.length >= MAX_COMPARED} onChange={() => toggle(id)} data-testid="compare-model" value={id} />
            <span>{id}</span>
          </label>
        ))}
      </fieldset>
      <label className="chat-compare-prompt">
        <span>{t('prompt')}</span>
        <textarea value={prompt} rows={3} onChange={(e) => setPrompt(e.target.value)} data-testid="compare-prompt" />
      </label>
      <p className="muted small">{t('pickHelp')}</p>
      <div className="row">
        <button type="button" className="primary" disabled={running || picked.length < 2 || prompt.trim() === ''} onClick={compare} data-testid="compare-send">{t('send')}</button>
        {running && <button type="button" onClick={() => controller.current?.abort()} data-testid="compare-stop">{t('stop')}</button>}
      </div>
      {columns.length > 0 && (
        <div className="chat-compare-columns" style={{ gridTemplateColumns: `repeat(${columns.length}, minmax(0, 1fr))` }}>
          {columns.map((c) => (
            <div key={c.model} className="chat-compare-column" data-testid="compare-column" data-model={c.model}>
              <h4>{c.model}</h4>
              <Markdown text={c.live?.text ?? ''} />
              {c.outcome?.error && <p className="small" data-testid="compare-error">{t('failed', { message: c.outcome.error.message || c.outcome.error.code })}</p>}
              <p className="muted small" data-testid="compare-cost">
                {c.live?.usage ? `${t('tokens', { input: c.live.usage.inputTokens, output: c.live.usage.outputTokens })} · ` : ''}
                {c.outcome === null || c.cost === undefined ? t('costPending') : c.cost === null ? t('costUnavailable') : formatUsd(c.cost)}
              </p>
              <button type="button" disabled={c.outcome?.state !== 'done' || c.cost === undefined} onClick={() => adopt(c)} data-testid="compare-continue">{t('continue')}</button>
            </div>
          ))}
        </div>
      )}
    </section>
  )
}
