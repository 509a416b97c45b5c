import { useCallback, useEffect, useMemo, useState } from 'react'
import type { KeySummary, RequestLogPage } from '../../../shared/admin'
import { ENDPOINTS } from '../../../shared/types'
import { admin } from '../../api/admin'
import { ErrorNote } from '../../components/ErrorNote'
import { formatUsd, useT } from '../../i18n'
import { useAppStore } from '../../stores/app-store'
import { useAction } from '../keys/use-action'
import { EMPTY_FILTERS, logQuery, pageTotals, type LogFilters } from './log-query'
import { STRINGS, type UsageT } from './strings'

const AUTO_REFRESH_MS = 5_000

/** The request log, newest first, filtered, a page at a time, with the page's totals. */
export function RequestLog() {
  const t = useT(STRINGS)
  const [draft, setDraft] = useState<LogFilters>(EMPTY_FILTERS)
  const [filters, setFilters] = useState<LogFilters>(EMPTY_FILTERS)
  // Cursors of the pages shown so far: the last is the current page's `before` (null: the newest page).
  const [cursors, setCursors] = useState<Array<string | null>>([null])
  const [page, setPage] = useState<RequestLogPage | null>(null)
  const [keys, setKeys] = useState<KeySummary[]>([])
  const [auto, setAuto] = useState(false)
  const load = useAction()
  const before = cursors[cursors.length - 1]
  const reload = useCallback(() => load.run(async () => setPage(await admin.requests(logQuery(filters, before)))), [load.run, filters, before])

  useEffect(() => {
    void reload()
  }, [reload])
  const [keysError, setKeysError] = useState<unknown>(null)
  // Read at the start (the key filter lists them) and again when the page shows a key made since.
  const unknownKey = page?.data.some((r) => r.keyId !== null && !keys.some((k) => k.id === r.keyId)) ?? false
  useEffect(() => {
    admin.keys().then((k) => { setKeys(k); setKeysError(null) }, setKeysError)
  }, [unknownKey])
  useEffect(() => {
    // Only the newest page moves; an older page stays as it is while being read.
    if (!auto || before !== null) return
    const timer = setInterval(() => void reload(), AUTO_REFRESH_MS)
    return () => clearInterval(timer)
  }, [auto, before, reload])

  const hints = useMemo(() => new Map(keys.map((k) => [k.id, k.hint])), [keys])
  const apply = () => {
    setFilters(draft)
    setCursors([null])
  }
  return (
    <section className="card usage-log">
      <div className="row">
        <h3>{t('requests')}</h3>
        <label className="small">
          <input type="checkbox" checked={auto} onChange={(e) => setAuto(e.target.checked)} data-testid="usage-auto-refresh" />
          {t('autoRefresh')}
        </label>
        <button type="button" className="link" onClick={() => void reload()} disabled={load.busy} data-testid="usage-refresh">{t('refresh')}</button>
      </div>
      <Filters t={t} draft={draft} setDraft={setDraft} keys={keys} onApply={apply} onClear={() => { setDraft(EMPTY_FILTERS); setFilters(EMPTY_FILTERS); setCursors([null]) }} />
      <ErrorNote error={load.error} />
      <ErrorNote error={keysError} />
      {page && <LogTable t={t} page={page} hints={hints} />}
      <div className="row">
        <button type="button" disabled={cursors.length === 1} onClick={() => setCursors([null])} data-testid="usage-newest">{t('newest')}</button>
        <button type="button" disabled={cursors.length === 1} onClick={() => setCursors(cursors.slice(0, -1))} data-testid="usage-newer">{t('newer')}</button>
        <button type="button" disabled={!page?.next} onClick={() => setCursors([...cursors, page!.next])} data-testid="usage-older">{t('older')}</button>
        <span className="muted small">{t('pageOf', { n: cursors.length })}</span>
      </div>
    </section>
  )
}

function Filters({ t, draft, setDraft, keys, onApply, onClear }: {
  t: UsageT; draft: LogFilters; setDraft: (f: LogFilters) => void; keys: KeySummary[]; onApply: () => void; onClear: () => void
}) {
  const groups = useAppStore((s) => s.groups)
  const set = (patch: Partial<LogFilters>) => setDraft({ ...draft, ...patch })
  return (
    <form className="row usage-filters" onSubmit={(e) => { e.preventDefault(); onApply() }}>
      <label>
        <span>{t('group')}</span>
        <select value={draft.group} onChange={(e) => set({ group: e.target.value })} data-testid="usage-filter-group">
          <option value="">{t('any')}</option>
          {groups.map((g) => <option key={g.id} value={g.id}>{g.name || g.id}</option>)}
        </select>
      </label>
      <label>
        <span>{t('key')}</span>
        <select value={draft.key} onChange={(e) => set({ key: e.target.value })} data-testid="usage-filter-key">
          <option value="">{t('any')}</option>
          {keys.filter((k) => !draft.group || k.group === draft.group).map((k) => <option key={k.id} value={k.id}>{k.name ? `${k.name} (${k.hint})` : k.hint}</option>)}
        </select>
      </label>
      <label>
        <span>{t('model')}</span>
        <input value={draft.model} onChange={(e) => set({ model: e.target.value })} size={16} data-testid="usage-filter-model" />
      </label>
      <label>
        <span>{t('endpoint')}</span>
        <input value={draft.endpoint} list="usage-endpoints" onChange={(e) => set({ endpoint: e.target.value })} size={16} data-testid="usage-filter-endpoint" />
        <datalist id="usage-endpoints">{ENDPOINTS.map((e) => <option key={e} value={e} />)}</datalist>
      </label>
      <label>
        <span>{t('status')}</span>
        <select value={draft.status} onChange={(e) => set({ status: e.target.value as LogFilters['status'] })} data-testid="usage-filter-status">
          <option value="">{t('any')}</option>
          <option value="ok">{t('status_ok')}</option>
          <option value="error">{t('status_error')}</option>
        </select>
      </label>
      <label>
        <span>{t('since')}</span>
        <input type="date" value={draft.since} onChange={(e) => set({ since: e.target.value })} data-testid="usage-filter-since" />
      </label>
      <label>
        <span>{t('until')}</span>
        <input type="date" value={draft.until} onChange={(e) => set({ until: e.target.value })} data-testid="usage-filter-until" />
      </label>
      <button type="submit" className="primary" data-testid="usage-apply">{t('apply')}</button>
      <button type="button" onClick={onClear}>{t('clear')}</button>
    </form>
  )
}

const tokens = (n: number | null) => (n === null ? '–' : n.toLocaleString())
const latency = (ms: number) => (ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms).toLocaleString()} ms`)

function LogTable({ t, page, hints }: { t: UsageT; page: RequestLogPage; hints: Map<string, string> }) {
  const totals = pageTotals(page.data)
  if (page.data.length === 0) return <p className="muted">{t('noRequests')}</p>
  return (
    <table className="usage-table">
      <thead>
        <tr>
          {(['col_time', 'col_group', 'col_key', 'col_model', 'col_endpoint', 'col_status', 'col_tokens', 'col_cost', 'col_latency'] as const).map((c) => <th key={c}>{t(c)}</th>)}
        </tr>
      </thead>
      <tbody>
        {page.data.map((r) => (
          <tr key={r.id} data-testid="usage-row" data-status={r.status}>
            <td title={r.id}>{new Date(r.createdAt).toLocaleString()}</td>
            <td>{r.group ?? '–'}</td>
            <td><code>{r.keyId ? (hints.get(r.keyId) ?? r.keyId) : '–'}</code></td>
            <td>{r.model ?? '–'}</td>
            <td>{r.endpoint}</td>
            <td>
              <span className={`badge ${r.status < 400 ? 'ok' : 'error'}`} title={r.errorCode ?? undefined}>{r.status}</span>
              {r.errorCode && <span className="muted small"> {r.errorCode}</span>}
            </td>
            <td>{tokens(r.inputTokens)} / {tokens(r.outputTokens)}</td>
            <td>{formatUsd(r.cost)}</td>
            <td>{latency(r.latencyMs)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr data-testid="usage-totals">
          <th colSpan={5}>{t('totals')}: {totals.count}</th>
          <th>{totals.errors > 0 ? t('errors', { n: totals.errors }) : ''}</th>
          <th>{totals.inputTokens.toLocaleString()} / {totals.outputTokens.toLocaleString()}</th>
          <th>{formatUsd(totals.cost)}</th>
          <th />
        </tr>
      </tfoot>
    </table>
  )
}
