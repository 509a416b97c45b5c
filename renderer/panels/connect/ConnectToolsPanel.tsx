import { useCallback, useEffect, useState } from 'react'
import type { GroupSummary } from '../../../shared/admin'
import type { ConnectOverview, ConnectResult, ToolStatus } from '../../../shared/connect'
import { ErrorNote } from '../../components/ErrorNote'
import { groupName, useT } from '../../i18n'
import { useAppStore } from '../../stores/app-store'
import { useAction } from '../keys/use-action'
import { connectApi } from './connect-api'
import { STRINGS } from './strings'
import './connect.css'

type How = 'connect' | 'disconnect' | 'undo'

/** Claude Code, Codex and Gemini CLI as found on the gateway's machine, each connected, previewed or taken back; the SDK variables. */
export function ConnectToolsPanel() {
  const t = useT(STRINGS)
  const [overview, setOverview] = useState<ConnectOverview | null>(null)
  const [groups, setGroups] = useState<GroupSummary[]>([])
  const load = useAction()
  const reload = useCallback(() => load.run(async () => {
    const [next, all] = await Promise.all([connectApi.overview(), connectApi.groups()])
    setOverview(next)
    setGroups(all)
  }), [load.run])
  useEffect(() => void reload(), [reload])

  return (
    <section className="card connect-tools" data-testid="panel-connect">
      <h3>{t('title')}</h3>
      <p className="muted small">{t('intro')}</p>
      <ErrorNote error={load.error} />
      {!overview && !load.error && <p className="muted">{t('loading')}</p>}
      {overview?.tools.map((tool) => <ToolCard key={tool.tool} tool={tool} groups={groups} onChanged={reload} />)}
      {overview && (
        <div className="connect-sdk">
          <h4>{t('sdkTitle')}</h4>
          <p className="muted small">{t('sdkIntro')}</p>
          <dl className="connect-sdk-list">
            {overview.sdk.map((v) => (
              <div key={v.name} data-testid={`connect-sdk-${v.name}`}>
                <dt><code>{v.name}</code></dt>
                <dd>
                  <span className="muted small">{v.value === null ? t('sdkNotSet') : `${v.value} · ${v.pointsHere ? t('sdkHere') : t('sdkElsewhere')}`}</span>
                  <code className="connect-snippet">export {v.name}={v.suggested}</code>
                </dd>
              </div>
            ))}
          </dl>
        </div>
      )}
    </section>
  )
}

function ToolCard({ tool, groups, onChanged }: { tool: ToolStatus; groups: GroupSummary[]; onChanged: () => Promise<unknown> }) {
  const t = useT(STRINGS)
  const language = useAppStore((s) => s.language)
  const usable = groups.filter((g) => g.protocol === tool.protocol)
  const [group, setGroup] = useState('')
  const [model, setModel] = useState('')
  const [pending, setPending] = useState<{ how: How; result: ConnectResult } | null>(null)
  const [done, setDone] = useState<How | null>(null)
  const action = useAction()
  const chosen = usable.find((g) => g.id === group) ?? usable[0]
  const body = { ...(chosen ? { group: chosen.id } : {}), ...(tool.tool === 'codex' && model && chosen?.models.includes(model) ? { model } : {}) }

  const preview = (how: How) => action.run(async () => {
    setDone(null)
    const result = how === 'connect' ? await connectApi.connect(tool.tool, { ...body, dryRun: true }) : await connectApi.release(tool.tool, how, true)
    setPending({ how, result })
  })
  const apply = () => pending && action.run(async () => {
    if (pending.how === 'connect') await connectApi.connect(tool.tool, body)
    else await connectApi.release(tool.tool, pending.how, false)
    setDone(pending.how)
    setPending(null)
    await onChanged()
  })

  return (
    <article className="connect-tool" data-testid={`connect-tool-${tool.tool}`}>
      <header className="row">
        <strong>{tool.name}</strong>
        <span className="muted small">{tool.program ? t('found', { path: tool.program }) : t('notFound')}</span>
      </header>
      {!tool.supported && <p className="muted" data-testid={`connect-unsupported-${tool.tool}`}>{t('unsupported')}</p>}
      {tool.supported && (
        <>
          <p className="muted small">{tool.homeFound ? t('homeFound') : t('homeMissing')}</p>
          <div className="small">{t('files')}: {tool.files.map((f) => <code key={f} className="connect-path">{f}</code>)}</div>
          {tool.connection ? (
            <div className="connect-status" data-testid={`connect-status-${tool.tool}`}>
              <p>{t('connected', { date: new Date(tool.connection.connectedAt).toLocaleString(language), group: tool.connection.group })} · {t('keyHint', { hint: tool.connection.keyHint })}</p>
              <ul className="small">
                {tool.connection.files.map((f) => <li key={f.path}><code className="connect-path">{f.path}</code> — {f.backup ? t('backup', { path: f.backup }) : t('noBackup')}</li>)}
              </ul>
              <p className="small">{t('run', { command: tool.usage })}</p>
              <div className="row">
                <button type="button" onClick={() => void preview('disconnect')} disabled={action.busy} data-testid={`connect-disconnect-${tool.tool}`}>{t('disconnect')}</button>
                <button type="button" onClick={() => void preview('undo')} disabled={action.busy} data-testid={`connect-undo-${tool.tool}`}>{t('undo')}</button>
              </div>
            </div>
          ) : usable.length === 0 ? (
            <p className="muted small">{t('noGroup', { protocol: tool.protocol ?? '' })}</p>
          ) : (
            <div className="row connect-choose">
              <label>
                <span>{t('group')}</span>
                <select value={chosen?.id ?? ''} onChange={(e) => { setGroup(e.target.value); setPending(null) }} data-testid={`connect-group-${tool.tool}`}>
                  {usable.map((g) => <option key={g.id} value={g.id}>{groupName(g, language) || g.id}</option>)}
                </select>
              </label>
              {tool.tool === 'codex' && chosen && (
                <label>
                  <span>{t('model')}</span>
                  <select value={chosen.models.includes(model) ? model : chosen.models[0] ?? ''} onChange={(e) => { setModel(e.target.value); setPending(null) }} data-testid={`connect-model-${tool.tool}`}>
                    {chosen.models.map((m) => <option key={m} value={m}>{m}</option>)}
                  </select>
                </label>
              )}
              <button type="button" className="primary" onClick={() => void preview('connect')} disabled={action.busy} data-testid={`connect-preview-${tool.tool}`}>{t('preview')}</button>
            </div>
          )}
        </>
      )}
      {pending && (
        <div className="connect-diff" data-testid={`connect-diff-${tool.tool}`}>
          <h4>{t('diffTitle')}</h4>
          {pending.result.changes.map((c) => (
            <div key={c.path}>
              <p className="small"><code className="connect-path">{c.path}</code> — {t(`action_${c.action}`)}</p>
              {c.diff ? <pre className="connect-diff-text">{c.diff}</pre> : <p className="muted small">{t('noChange')}</p>}
            </div>
          ))}
          <div className="row">
            <button type="button" className="primary" onClick={() => void apply()} disabled={action.busy} data-testid={`connect-apply-${tool.tool}`}>{t(`confirm_${pending.how}`)}</button>
            <button type="button" onClick={() => setPending(null)} disabled={action.busy}>{t('cancel')}</button>
          </div>
        </div>
      )}
      {done && <p className="small" role="status" data-testid={`connect-done-${tool.tool}`}>{t(`done_${done}`)}</p>}
      <ErrorNote error={action.error} onDismiss={action.clear} />
    </article>
  )
}
