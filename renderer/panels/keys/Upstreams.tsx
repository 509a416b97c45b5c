import { useEffect, useRef, useState } from 'react'
import type { GroupSummary, UpstreamSummary, UpstreamTestResult } from '../../../shared/admin'
import { admin } from '../../api/admin'
import { ErrorNote } from '../../components/ErrorNote'
import { formatUsd, useT } from '../../i18n'
import { useAppStore } from '../../stores/app-store'
import { TestResult } from '../welcome/TestResult'
import { ConfirmButton } from './ConfirmButton'
import { STRINGS } from './strings'
import { UpstreamEditor } from './UpstreamEditor'
import { accountModelsText, newUpstreamForm, upstreamFormOf } from './upstream-form'
import { useAction } from './use-action'
import type { KeysData } from './use-keys-data'

/** The group's upstream accounts in failover order: vendor, base URL, the key's hint only; add, edit, remove. */
export function Upstreams({ group, data }: { group: GroupSummary; data: KeysData }) {
  const t = useT(STRINGS)
  const [adding, setAdding] = useState(false)
  const accounts = group.upstreams.map((id) => data.upstreams.find((u) => u.id === id)).filter((u): u is UpstreamSummary => u !== undefined)
  return (
    <section className="card keys-section">
      <div className="row">
        <h3>{t('upstreams')}</h3>
        <button type="button" onClick={() => setAdding(true)} disabled={adding} data-testid="upstream-add">{t('addAccount')}</button>
      </div>
      <p className="muted small">{t('upstreamsHelp')}</p>
      {adding && (
        <UpstreamEditor
          mode="create" group={group.id} data={data} onClose={() => setAdding(false)}
          initial={newUpstreamForm('openai', data.upstreams.map((u) => u.id))}
        />
      )}
      {accounts.length === 0 && <p className="muted">{t('noUpstreams')}</p>}
      <ul className="keys-list">
        {accounts.map((u) => <UpstreamRow key={u.id} upstream={u} group={group} data={data} />)}
      </ul>
    </section>
  )
}

function UpstreamRow({ upstream: u, group, data }: { upstream: UpstreamSummary; group: GroupSummary; data: KeysData }) {
  const t = useT(STRINGS)
  const [editing, setEditing] = useState(false)
  const action = useAction()
  // Test connection of the saved account: the gateway reads its sealed key by id; the key never comes to the app.
  const test = useAction()
  const [tested, setTested] = useState<UpstreamTestResult | null>(null)
  const others = u.groups.filter((g) => g !== group.id)
  // Opened from an error naming this account: shown highlighted and scrolled into view.
  const focused = useAppStore((s) => s.focusedUpstream === u.id)
  const row = useRef<HTMLLIElement>(null)
  useEffect(() => {
    if (focused) row.current?.scrollIntoView({ block: 'center' })
  }, [focused])
  return (
    <li ref={row} className={focused ? 'keys-upstream focused' : 'keys-upstream'} data-testid="upstream-row" data-upstream-id={u.id} data-focused={focused || undefined}>
      <div className="row">
        <strong>{u.id}</strong>
        <span className="badge">{u.vendor}</span>
        <code className="small">{u.baseUrl}</code>
        <span className="small" title={t('secretHidden')} data-testid="upstream-hint"><code>{u.apiKeyHint}</code></span>
        <span className="muted small">{t('priority')}: {u.priority}</span>
        {u.budget !== null && <span className="muted small" data-testid="upstream-budget-shown">{t('upstreamSpent', { spent: formatUsd(u.spent), budget: formatUsd(u.budget) })}</span>}
        <span className="muted small">{t('models')}: {accountModelsText(u.models) || t('allModels')}</span>
        {others.length > 0 && <span className="muted small">{t('usedBy', { groups: others.join(', ') })}</span>}
      </div>
      <div className="row">
        <button type="button" onClick={() => setEditing(!editing)} data-testid="upstream-edit">{t('edit')}</button>
        <button
          type="button" disabled={test.busy} data-testid="upstream-test"
          onClick={() => void test.run(async () => {
            setTested(null)
            setTested(await admin.testUpstream({ id: u.id }))
          })}
        >
          {test.busy ? t('testing') : t('testConnection')}
        </button>
        <button
          type="button" disabled={action.busy} data-testid="upstream-remove"
          onClick={() => void action.run(async () => {
            await admin.updateGroup(group.id, { upstreams: group.upstreams.filter((id) => id !== u.id) })
            await data.changed()
          })}
        >
          {t('removeFromGroup')}
        </button>
        <ConfirmButton
          label={t('deleteAccount')} question={t('confirmDeleteAccount', { id: u.id, groups: u.groups.join(', ') || '–' })} testId="upstream-delete" disabled={action.busy}
          onConfirm={() => void action.run(async () => {
            await admin.deleteUpstream(u.id)
            await data.changed()
          })}
        />
      </div>
      <ErrorNote error={action.error} onDismiss={action.clear} />
      <ErrorNote error={test.error} onDismiss={test.clear} />
      {tested && <TestResult result={tested} className="small" />}
      {editing && <UpstreamEditor mode="edit" group={group.id} data={data} initial={upstreamFormOf(u)} onClose={() => setEditing(false)} />}
    </li>
  )
}
