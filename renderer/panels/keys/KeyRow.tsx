import { useState } from 'react'
import type { KeySummary } from '../../../shared/admin'
import { admin } from '../../api/admin'
import { ErrorNote } from '../../components/ErrorNote'
import { formatUsd, useT } from '../../i18n'
import { ConfirmButton } from './ConfirmButton'
import { keyLimitsPatch, keyStatus, limitsFormOf, type KeyLimitsForm } from './key-form'
import { STRINGS, type KeysT } from './strings'
import { useAction } from './use-action'
import type { KeysData } from './use-keys-data'

const BADGE = { active: 'ok', disabled: '', expired: 'error', exhausted: 'error' } as const
const day = (unixSeconds: number) => new Date(unixSeconds * 1000).toLocaleDateString()

/** One key: its hint (never the secret), name, dates, spend and status, and what can be changed. */
export function KeyRow({ k, data }: { k: KeySummary; data: KeysData }) {
  const t = useT(STRINGS)
  const [mode, setMode] = useState<'view' | 'rename' | 'limits'>('view')
  const action = useAction()
  const status = keyStatus(k, Date.now() / 1000)
  const patch = (body: Record<string, unknown>) => action.run(async () => {
    await admin.updateKey(k.id, body)
    await data.changed()
    setMode('view')
  })
  return (
    <>
      <tr data-testid="key-row" data-key-id={k.id} data-status={status}>
        <td>
          <code data-testid="key-hint">{k.hint}</code>
          {k.app && <span className="badge keys-app" title={t('appKeyHelp')} data-testid="key-app">{t('appKey')}</span>}
        </td>
        <td>{mode === 'rename' ? <RenameForm t={t} k={k} onSave={(name) => void patch({ name })} onCancel={() => setMode('view')} /> : (k.name ?? <span className="muted">{t('unnamed')}</span>)}</td>
        <td>{day(k.createdAt)}</td>
        <td>{formatUsd(k.used)} / {k.quota === null ? t('noLimit') : formatUsd(k.quota)}</td>
        <td>{k.expiresAt === null ? t('never') : day(k.expiresAt)}</td>
        <td><span className={`badge ${BADGE[status]}`} data-testid="key-status">{t(`status_${status}`)}</span></td>
        <td className="keys-actions">
          <button type="button" className="link" onClick={() => setMode('rename')} data-testid="key-rename">{t('rename')}</button>
          <button type="button" className="link" disabled={action.busy} onClick={() => void patch({ disabled: !k.disabled })} data-testid="key-disable">
            {k.disabled ? t('enable') : t('disable')}
          </button>
          <button type="button" className="link" onClick={() => setMode(mode === 'limits' ? 'view' : 'limits')} data-testid="key-limits">{t('limits')}</button>
          <ConfirmButton
            label={t('revoke')} question={t('confirmRevoke', { key: k.name ? `${k.name} (${k.hint})` : k.hint })} testId="key-revoke" disabled={action.busy}
            onConfirm={() => void action.run(async () => {
              await admin.revokeKey(k.id)
              await data.changed()
            })}
          />
        </td>
      </tr>
      {(mode === 'limits' || action.error !== null) && (
        <tr className="keys-subrow">
          <td colSpan={7}>
            {mode === 'limits' && <LimitsForm t={t} initial={limitsFormOf(k)} busy={action.busy} onSave={(body) => void patch(body)} onCancel={() => setMode('view')} />}
            <ErrorNote error={action.error} onDismiss={action.clear} />
          </td>
        </tr>
      )}
    </>
  )
}

function RenameForm({ t, k, onSave, onCancel }: { t: KeysT; k: KeySummary; onSave: (name: string | null) => void; onCancel: () => void }) {
  const [name, setName] = useState(k.name ?? '')
  return (
    <form className="row" onSubmit={(e) => { e.preventDefault(); onSave(name.trim() || null) }}>
      <input value={name} autoFocus onChange={(e) => setName(e.target.value)} aria-label={t('keyName')} data-testid="key-rename-input" />
      <button type="submit" data-testid="key-rename-save">{t('save')}</button>
      <button type="button" className="link" onClick={onCancel}>{t('cancel')}</button>
    </form>
  )
}

function LimitsForm({ t, initial, busy, onSave, onCancel }: { t: KeysT; initial: KeyLimitsForm; busy: boolean; onSave: (body: Record<string, unknown>) => void; onCancel: () => void }) {
  const [form, setForm] = useState(initial)
  const built = keyLimitsPatch(form)
  return (
    <form className="row" onSubmit={(e) => { e.preventDefault(); if (built.ok) onSave(built.body) }}>
      <label>
        <span>{t('concurrency')}</span>
        <input type="number" min={1} step={1} value={form.concurrency} placeholder={t('noLimit')} className="keys-number"
          onChange={(e) => setForm({ ...form, concurrency: e.target.value })} data-testid="key-limit-concurrency" />
      </label>
      <label>
        <span>{t('quota')}</span>
        <input type="number" min={0} step="any" value={form.quota} placeholder={t('noLimit')} className="keys-number"
          onChange={(e) => setForm({ ...form, quota: e.target.value })} data-testid="key-limit-quota" />
      </label>
      <label>
        <span>{t('expires')}</span>
        <input type="date" value={form.expires} onChange={(e) => setForm({ ...form, expires: e.target.value })} data-testid="key-limit-expires" />
      </label>
      <button type="submit" disabled={!built.ok || busy} data-testid="key-limits-save">{t('save')}</button>
      <button type="button" className="link" onClick={onCancel}>{t('cancel')}</button>
      {!built.ok && <span className="muted small">{t(`problem_${built.problem}`)}</span>}
    </form>
  )
}
