import { Fragment, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react'
import type { KeySummary, RequestLogPage } from '../../../shared/admin'
import { ENDPOINTS } from '../../../shared/types'
import { admin } from '../../api/admin'
import { ErrorNote } from '../../components/ErrorNote'
import { formatMs, formatUsd } from '../../format'
import { groupName, useCount, useT } from '../../i18n'
import { useAppStore } from '../../stores/app-store'
import { useAction } from '../keys/use-action'
import { EMPTY_FILTERS, LOG_COLUMNS, logQuery, PAGE_SIZE, pageTotals, savedColumns, toggleColumn, type LogColumn, type LogFilters } from './log-query'
import { PLURALS, STRINGS, type UsageCount, type UsageT } from './strings'
import { callsOf, worthShowing } from './attempts'
import { RequestDetail } from './RequestDetail'

const AUTO_REFRESH_MS = 5_000

/** The request log, newest first, filtered, a page at a time, with the page's totals; the app's housekeeping calls only when asked. */
export function RequestLog({ housekeeping }: { housekeeping: boolean }) {
  const t = useT(STRINGS)
  const count = useCount(PLURALS)
  // The column choice is saved with the app's state (a saved list is checked: unknown names are dropped).
  const saved = useAppStore((s) => s.usageColumns)
  const columns = useMemo(() => savedColumns(saved), [saved])
  const setColumns = useAppStore((s) => s.setUsageColumns)
  const [draft, setDraft] = useState<LogFilters>(EMPTY_FILTERS)
  const [filters, setFilters] = useState<LogFilters>(EMPTY_FILTERS)
  // Cursors of the pages shown so far: the last is the current page's `before` (null: the newest page).
  const [cursors, setCursors] = useState<Array<string | null>>([null])
  const [page, setPage] = useState<RequestLogPage | null>(null)
  const [keys, setKeys] = useState<KeySummary[]>([])
  const [auto, setAuto] = useState(false)
  const load = useAction()
  const before = cursors[cursors.length - 1]
  const reload = useCallback(() => load.run(async () => setPage(await admin.requests(logQuery(filters, before, PAGE_SIZE, housekeeping)))), [load.run, filters, before, housekeeping])
  // Showing or hiding the housekeeping calls starts again at the newest page.
  useEffect(() => setCursors([null]), [housekeeping])

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
        <ColumnChooser t={t} columns={columns} setColumns={setColumns} />
      </div>
      <Filters t={t} draft={draft} setDraft={setDraft} keys={keys} onApply={apply} onClear={() => { setDraft(EMPTY_FILTERS); setFilters(EMPTY_FILTERS); setCursors([null]) }} />
      <ErrorNote error={load.error} />
      <ErrorNote error={keysError} />
      {page && <LogTable t={t} count={count} page={page} hints={hints} columns={columns} />}
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
  const language = useAppStore((s) => s.language)
  const set = (patch: Partial<LogFilters>) => setDraft({ ...draft, ...patch })
  return (
    <form className="row usage-filters" onSubmit={(e) => { e.preventDefault(); onApply() }}>
      <label>
        <span>{t('group')}</span>
        <select value={draft.group} onChange={(e) => set({ group: e.target.value })} data-testid="usage-filter-group">
          <option value="">{t('any')}</option>
          {groups.map((g) => <option key={g.id} value={g.id}>{groupName(g, language) || g.id}</option>)}
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
const shortTime = (ms: number) => new Date(ms).toLocaleString(undefined, { month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })

/** Which columns the table shows; every choice fits the table's width (cells are cut with their text as title). */
function ColumnChooser({ t, columns, setColumns }: { t: UsageT; columns: LogColumn[]; setColumns: (c: LogColumn[]) => void }) {
  return (
    <details className="usage-columns" data-testid="usage-columns">
      <summary>{t('columns')}</summary>
      <div className="usage-columns-menu">
        {LOG_COLUMNS.map((c) => (
          <label key={c} className="small">
            <input type="checkbox" checked={columns.includes(c)} onChange={() => setColumns(toggleColumn(columns, c))} data-testid={`usage-column-${c}`} />
            {t(`col_${c}`)}
          </label>
        ))}
      </div>
    </details>
  )
}

function LogTable({ t, count, page, hints, columns }: { t: UsageT; count: UsageCount; page: RequestLogPage; hints: Map<string, string>; columns: LogColumn[] }) {
  const totals = pageTotals(page.data)
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set())
  const toggle = (id: string) => setOpen((was) => {
    const next = new Set(was)
    if (!next.delete(id)) next.add(id)
    return next
  })
  if (page.data.length === 0) return <p className="muted">{t('noRequests')}</p>
  const keyOf = (r: Row) => (r.keyId ? (hints.get(r.keyId) ?? r.keyId) : '–')
  // Every cell is cut to its column with an ellipsis; its whole text is its title.
  const text = (value: string, testId?: string) => <td className="usage-ellipsis" title={value} data-testid={testId}>{value}</td>
  // Times and token counts wrap at their spaces instead (a date over its time, input over output).
  const wrapped = (value: string) => <td className="usage-wrap" title={value}>{value}</td>
  const cell: Record<LogColumn, (r: Row) => ReactNode> = {
    time: (r) => wrapped(shortTime(r.createdAt)),
    group: (r) => text(r.group ?? '–'),
    key: (r) => <td className="usage-ellipsis" title={keyOf(r)}><code>{keyOf(r)}</code></td>,
    model: (r) => text(r.model ?? '–', 'usage-model'),
    endpoint: (r) => text(r.endpoint),
    status: (r) => (
      <td className="usage-status" title={r.errorCode ?? undefined}>
        <span className={`badge ${r.status < 400 ? 'ok' : 'error'}`}>{r.status}</span>
        {r.errorCode && <span className="muted small"> {r.errorCode}</span>}
        {r.attempts && worthShowing(r.attempts) && (
          <button type="button" className="link small" aria-expanded={open.has(r.id)} title={t('attemptsShow')} onClick={() => toggle(r.id)} data-testid="usage-attempts-toggle">
            {' '}{count('attempts', callsOf(r.attempts))}
          </button>
        )}
      </td>
    ),
    tokens: (r) => wrapped(`${tokens(r.inputTokens)} / ${tokens(r.outputTokens)}`),
    cost: (r) => text(formatUsd(r.cost), 'usage-cost'),
    latency: (r) => text(formatMs(r.latencyMs), 'usage-latency'),
  }
  const foot: Partial<Record<LogColumn, string>> = {
    status: totals.errors > 0 ? count('errors', totals.errors) : '',
    tokens: `${totals.inputTokens.toLocaleString()} / ${totals.outputTokens.toLocaleString()}`,
    cost: formatUsd(totals.cost),
  }
  return (
    <div className="usage-table-wrap" data-testid="usage-table-wrap">
      <table className="usage-table" data-testid="usage-table">
        <colgroup>
          <col className="usage-col-open" />
          {columns.map((c) => <col key={c} className={`usage-col-${c}`} />)}
        </colgroup>
        <thead>
          <tr>
            <th><span className="usage-sr-only">{t('detail')}</span></th>
            {columns.map((c) => <th key={c} data-column={c}>{t(`col_${c}`)}</th>)}
          </tr>
        </thead>
        <tbody>
          {page.data.map((r) => (
            <Fragment key={r.id}>
              <tr data-testid="usage-row" data-status={r.status} data-id={r.id}>
                <td>
                  <button type="button" className="link usage-open" aria-expanded={open.has(r.id)} aria-label={t('detailOf', { id: r.id })} title={r.id} onClick={() => toggle(r.id)} data-testid="usage-row-open">
                    {open.has(r.id) ? '▾' : '▸'}
                  </button>
                </td>
                {columns.map((c) => <Fragment key={c}>{cell[c](r)}</Fragment>)}
              </tr>
              {open.has(r.id) && <RequestDetail t={t} r={r} keyName={keyOf(r)} span={columns.length + 1} />}
            </Fragment>
          ))}
        </tbody>
      </table>
      <p className="muted small usage-page-totals" data-testid="usage-totals">
        {[`${t('totals')}: ${count('requests', totals.count)}`, ...columns.filter((c) => foot[c]).map((c) => `${t(`col_${c}`)} ${foot[c]}`)].join(' · ')}
      </p>
    </div>
  )
}

type Row = RequestLogPage['data'][number]
