import { useState } from 'react'
import type { CreatedKey, GroupSummary } from '../../../shared/admin'
import { admin } from '../../api/admin'
import { ErrorNote } from '../../components/ErrorNote'
import { useT } from '../../i18n'
import { EMPTY_KEY_FORM, keyCreateBody, type KeyCreateForm } from './key-form'
import { KeyRow } from './KeyRow'
import { SecretDialog } from './SecretDialog'
import { STRINGS, type KeysT } from './strings'
import { useAction } from './use-action'
import type { KeysData } from './use-keys-data'

/** The group's gateway keys: create (the secret shown once), list, rename, disable, limits, revoke. */
export function GatewayKeys({ group, data }: { group: GroupSummary; data: KeysData }) {
  const t = useT(STRINGS)
  const [creating, setCreating] = useState(false)
  const [created, setCreated] = useState<CreatedKey | null>(null)
  return (
    <section className="card keys-section">
      <div className="row">
        <h3>{t('gatewayKeys')}</h3>
        <button type="button" onClick={() => setCreating(true)} disabled={creating} data-testid="key-create">{t('newKey')}</button>
      </div>
      {creating && (
        <CreateKeyForm t={t} group={group.id} data={data} onClose={() => setCreating(false)} onCreated={(k) => { setCreated(k); setCreating(false) }} />
      )}
      {data.keys.length === 0 ? (
        <p className="muted">{t('noKeys')}</p>
      ) : (
        <table className="keys-table">
          <thead>
            <tr>
              {(['col_key', 'col_name', 'col_created', 'col_used', 'col_expires', 'col_status', 'col_actions'] as const).map((c) => <th key={c}>{t(c)}</th>)}
            </tr>
          </thead>
          <tbody>
            {data.keys.map((k) => <KeyRow key={k.id} k={k} data={data} />)}
          </tbody>
        </table>
      )}
      {created && <SecretDialog secret={created.key} onClose={() => setCreated(null)} />}
    </section>
  )
}

function CreateKeyForm({ t, group, data, onClose, onCreated }: { t: KeysT; group: string; data: KeysData; onClose: () => void; onCreated: (k: CreatedKey) => void }) {
  const [form, setForm] = useState<KeyCreateForm>(EMPTY_KEY_FORM)
  const create = useAction()
  const built = keyCreateBody(group, form)
  const submit = () => {
    if (!built.ok) return
    void create.run(async () => {
      const key = await admin.createKey(built.body)
      onCreated(key)
      await data.changed()
    })
  }
  return (
    <form className="keys-editor" onSubmit={(e) => { e.preventDefault(); submit() }}>
      <div className="row">
        <label>
          <span>{t('keyName')}</span>
          <input value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} data-testid="key-name" />
        </label>
        <label>
          <span>{t('concurrency')}</span>
          <input type="number" min={1} step={1} value={form.concurrency} placeholder={t('noLimit')} className="keys-number"
            onChange={(e) => setForm({ ...form, concurrency: e.target.value })} data-testid="key-concurrency" />
        </label>
        <label>
          <span>{t('quota')}</span>
          <input type="number" min={0} step="any" value={form.quota} placeholder={t('noLimit')} className="keys-number"
            onChange={(e) => setForm({ ...form, quota: e.target.value })} data-testid="key-quota" />
        </label>
        <label>
          <span>{t('expires')}</span>
          <input type="date" value={form.expires} onChange={(e) => setForm({ ...form, expires: e.target.value })} data-testid="key-expires" />
        </label>
      </div>
      <ErrorNote error={create.error} onDismiss={create.clear} />
      <div className="row">
        <button type="submit" className="primary" disabled={!built.ok || create.busy} data-testid="key-create-submit">{t('createKey')}</button>
        <button type="button" onClick={onClose}>{t('cancel')}</button>
        {!built.ok && <span className="muted small">{t(`problem_${built.problem}`)}</span>}
      </div>
    </form>
  )
}
