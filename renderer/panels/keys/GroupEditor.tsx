import { useMemo, useState } from 'react'
import { admin } from '../../api/admin'
import { ErrorNote } from '../../components/ErrorNote'
import { useT } from '../../i18n'
import { useAppStore } from '../../stores/app-store'
import {
  groupCreateBody, groupFormProblem, groupPatchBody, moveItem, selectableModels, toggle, type GroupForm,
} from './group-form'
import { STRINGS, type KeysT } from './strings'
import { useAction } from './use-action'
import type { KeysData } from './use-keys-data'

const TYPES = ['chat', 'image', 'video', 'speech', 'interactions'] as const

/** Create or edit a group: id, name and protocol (at creation), its models, and its accounts in failover order. */
export function GroupEditor({ mode, initial, data, onClose }: { mode: 'create' | 'edit'; initial: GroupForm; data: KeysData; onClose: () => void }) {
  const t = useT(STRINGS)
  const setGroup = useAppStore((s) => s.setGroup)
  const [form, setForm] = useState(initial)
  const save = useAction()
  const problem = groupFormProblem(form)
  const submit = () => void save.run(async () => {
    if (mode === 'create') {
      await admin.createGroup(groupCreateBody(form))
      setGroup(form.id.trim())
    } else {
      await admin.updateGroup(form.id, groupPatchBody(form))
    }
    await data.changed()
    onClose()
  })
  return (
    <form className="keys-editor" onSubmit={(e) => { e.preventDefault(); submit() }} data-testid="group-editor">
      <div className="row">
        <label>
          <span>{t('groupId')}</span>
          <input value={form.id} disabled={mode === 'edit'} onChange={(e) => setForm({ ...form, id: e.target.value })} data-testid="group-id" />
        </label>
        <label>
          <span>{t('groupName')}</span>
          <input value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} data-testid="group-name" />
        </label>
        <label title={mode === 'edit' ? t('protocolFixed') : undefined}>
          <span>{t('protocol')}</span>
          <select value={form.protocol} disabled={mode === 'edit'} onChange={(e) => setForm({ ...form, protocol: e.target.value as GroupForm['protocol'] })} data-testid="group-protocol">
            <option value="chat">{t('protocol_chat')}</option>
            <option value="messages">{t('protocol_messages')}</option>
          </select>
        </label>
      </div>
      <ModelPicker t={t} form={form} setForm={setForm} data={data} />
      <FailoverOrder t={t} form={form} setForm={setForm} data={data} />
      <label className="keys-option">
        <input type="checkbox" checked={form.continuation} onChange={(e) => setForm({ ...form, continuation: e.target.checked })} data-testid="group-continuation" />
        <span>{t('continuation')}</span>
      </label>
      <p className="muted small">{t('continuationHelp')}</p>
      <ErrorNote error={save.error} onDismiss={save.clear} />
      <div className="row">
        <button type="submit" className="primary" disabled={problem !== null || save.busy} data-testid="group-save">{mode === 'create' ? t('create') : t('save')}</button>
        <button type="button" onClick={onClose}>{t('cancel')}</button>
        {problem && <span className="muted small">{t(`problem_${problem}`)}</span>}
      </div>
    </form>
  )
}

type Part = { t: KeysT; form: GroupForm; setForm: (f: GroupForm) => void; data: KeysData }

function ModelPicker({ t, form, setForm, data }: Part) {
  const [filter, setFilter] = useState('')
  const byType = useMemo(() => selectableModels(data.catalog, form.protocol, form.models, filter), [data.catalog, form.protocol, form.models, filter])
  return (
    <fieldset className="keys-models">
      <legend>{t('models')} ({form.models.length})</legend>
      <input placeholder={t('filterModels')} value={filter} onChange={(e) => setFilter(e.target.value)} data-testid="group-model-filter" />
      {form.protocol === 'messages' && <p className="muted small">{t('messagesModelsOnly')}</p>}
      {TYPES.filter((type) => byType.has(type)).map((type) => (
        <div key={type} className="keys-model-type">
          <span className="muted small">{t(`type_${type}`)}</span>
          <div className="keys-model-grid">
            {byType.get(type)!.map((m) => (
              <label key={m.model} className="small">
                <input type="checkbox" checked={form.models.includes(m.model)} onChange={() => setForm({ ...form, models: toggle(form.models, m.model) })} value={m.model} data-testid="group-model" />
                {m.model}
              </label>
            ))}
          </div>
        </div>
      ))}
    </fieldset>
  )
}

function FailoverOrder({ t, form, setForm, data }: Part) {
  const [adding, setAdding] = useState('')
  const others = data.upstreams.filter((u) => !form.upstreams.includes(u.id))
  const vendorOf = (id: string) => data.upstreams.find((u) => u.id === id)?.vendor
  return (
    <fieldset>
      <legend>{t('failover')}</legend>
      <p className="muted small">{t('failoverHelp')}</p>
      {form.upstreams.length === 0 && <p className="muted small">{t('noAccountsInOrder')}</p>}
      <ol className="keys-order">
        {form.upstreams.map((id, i) => (
          <li key={id} className="row" data-testid="group-upstream">
            <span>{id}</span>
            <span className="muted small">{vendorOf(id)}</span>
            <button type="button" className="link" disabled={i === 0} onClick={() => setForm({ ...form, upstreams: moveItem(form.upstreams, i, -1) })} aria-label={t('moveUp')}>↑</button>
            <button type="button" className="link" disabled={i === form.upstreams.length - 1} onClick={() => setForm({ ...form, upstreams: moveItem(form.upstreams, i, 1) })} aria-label={t('moveDown')}>↓</button>
            <button type="button" className="link" onClick={() => setForm({ ...form, upstreams: form.upstreams.filter((x) => x !== id) })}>{t('remove')}</button>
          </li>
        ))}
      </ol>
      {others.length > 0 && (
        <div className="row">
          <select value={adding} onChange={(e) => setAdding(e.target.value)} data-testid="group-upstream-add">
            <option value="">{t('chooseAccount')}</option>
            {others.map((u) => <option key={u.id} value={u.id}>{u.id} ({u.vendor})</option>)}
          </select>
          <button type="button" disabled={!adding} onClick={() => { setForm({ ...form, upstreams: [...form.upstreams, adding] }); setAdding('') }}>{t('addToOrder')}</button>
        </div>
      )}
    </fieldset>
  )
}
