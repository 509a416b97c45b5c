import { useState } from 'react'
import { VENDORS, type Vendor } from '../../../shared/types'
import { admin } from '../../api/admin'
import { ErrorNote } from '../../components/ErrorNote'
import { useT } from '../../i18n'
import { STRINGS } from './strings'
import {
  upstreamCreateBody, upstreamFormProblem, upstreamPatchBody, withVendor, type UpstreamForm,
} from './upstream-form'
import { useAction } from './use-action'
import type { KeysData } from './use-keys-data'

/** Add an account to the group, or edit one. The secret is typed, sent once, and never shown again (blank keeps it). */
export function UpstreamEditor({ mode, group, initial, data, onClose }: { mode: 'create' | 'edit'; group: string; initial: UpstreamForm; data: KeysData; onClose: () => void }) {
  const t = useT(STRINGS)
  const [form, setForm] = useState(initial)
  const save = useAction()
  const problem = upstreamFormProblem(form, mode)
  const taken = data.upstreams.map((u) => u.id)
  const submit = () => void save.run(async () => {
    if (mode === 'create') await admin.createUpstream(upstreamCreateBody(form, group))
    else await admin.updateUpstream(form.id, upstreamPatchBody(form))
    await data.changed()
    onClose()
  })
  const keyPlaceholder = form.vendor === 'kling' ? t('apiKeyKling') : mode === 'edit' ? t('apiKeyKeep') : ''
  return (
    <form className="keys-editor" onSubmit={(e) => { e.preventDefault(); submit() }} data-testid="upstream-editor">
      <div className="row">
        <label>
          <span>{t('vendor')}</span>
          <select value={form.vendor} disabled={mode === 'edit'} onChange={(e) => setForm(withVendor(form, e.target.value as Vendor, taken))} data-testid="upstream-vendor">
            {VENDORS.map((v) => <option key={v} value={v}>{v}</option>)}
          </select>
        </label>
        <label>
          <span>{t('accountId')}</span>
          <input value={form.id} disabled={mode === 'edit'} onChange={(e) => setForm({ ...form, id: e.target.value })} data-testid="upstream-id" />
        </label>
        <label className="keys-wide">
          <span>{t('baseUrl')}</span>
          <input value={form.baseUrl} placeholder="https://" onChange={(e) => setForm({ ...form, baseUrl: e.target.value })} data-testid="upstream-base-url" />
        </label>
      </div>
      <div className="row">
        <label className="keys-wide">
          <span>{t('apiKey')}</span>
          <input
            type="password" autoComplete="off" value={form.apiKey} placeholder={keyPlaceholder}
            onChange={(e) => setForm({ ...form, apiKey: e.target.value })} data-testid="upstream-api-key"
          />
        </label>
        <label className="keys-wide">
          <span>{t('modelsOptional')}</span>
          <input value={form.models} placeholder={t('allModels')} onChange={(e) => setForm({ ...form, models: e.target.value })} data-testid="upstream-models" />
        </label>
        <label>
          <span>{t('priority')}</span>
          <input type="number" step="any" value={form.priority} onChange={(e) => setForm({ ...form, priority: e.target.value })} className="keys-number" data-testid="upstream-priority" />
        </label>
        <label title={t('upstreamBudgetHelp')}>
          <span>{t('upstreamBudget')}</span>
          <input type="number" min={0} step="any" value={form.budget} placeholder={t('noLimit')} onChange={(e) => setForm({ ...form, budget: e.target.value })} className="keys-number" data-testid="upstream-budget" />
        </label>
      </div>
      <fieldset className="keys-model-names" data-testid="upstream-model-names">
        <legend title={t('modelNamesHelp')}>{t('modelNames')}</legend>
        <p className="muted small">{t('modelNamesHelp')}</p>
        {form.names.map((row, i) => (
          <div className="row" key={i} data-testid="upstream-model-name">
            <label>
              <span>{t('gatewayModel')}</span>
              <input value={row.model} list="upstream-model-ids" onChange={(e) => setForm({ ...form, names: form.names.map((r, j) => (j === i ? { ...r, model: e.target.value } : r)) })} data-testid="upstream-model-name-model" />
            </label>
            <span aria-hidden="true">→</span>
            <label className="keys-wide">
              <span>{t('nameAtAccount')}</span>
              <input value={row.name} onChange={(e) => setForm({ ...form, names: form.names.map((r, j) => (j === i ? { ...r, name: e.target.value } : r)) })} data-testid="upstream-model-name-name" />
            </label>
            <button type="button" onClick={() => setForm({ ...form, names: form.names.filter((_, j) => j !== i) })} data-testid="upstream-model-name-remove">{t('removeModelName')}</button>
          </div>
        ))}
        <datalist id="upstream-model-ids">
          {data.catalog.map((m) => <option key={m.model} value={m.model} />)}
        </datalist>
        <button type="button" onClick={() => setForm({ ...form, names: [...form.names, { model: '', name: '' }] })} data-testid="upstream-model-name-add">{t('addModelName')}</button>
      </fieldset>
      <ErrorNote error={save.error} onDismiss={save.clear} />
      <div className="row">
        <button type="submit" className="primary" disabled={problem !== null || save.busy} data-testid="upstream-save">{mode === 'create' ? t('create') : t('save')}</button>
        <button type="button" onClick={onClose}>{t('cancel')}</button>
        {problem && problem !== 'id' && <span className="muted small">{t(`problem_${problem}`)}</span>}
      </div>
    </form>
  )
}
