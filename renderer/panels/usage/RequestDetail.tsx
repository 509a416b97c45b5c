import type { ReactNode } from 'react'
import type { RequestLogEntry, UpstreamAttempt } from '../../../shared/admin'
import { formatMs, formatUsd } from '../../format'
import { nextWords, outcomeWords, type AttemptWords } from './attempts'
import { requestFacts } from './request-detail'
import type { UsageT } from './strings'
import { UsageBreakdown } from './UsageBreakdown'
import { Inspector } from './Inspector'

const tokens = (n: number | null) => (n === null ? '–' : n.toLocaleString())

/**
 * A request's detail, opened under its row: who asked (key, group), the model as requested and as served, the
 * accounts tried, the outcome, the usage and its cost, and the timings, then the failover loop's attempts.
 */
export function RequestDetail({ t, r, keyName, span }: { t: UsageT; r: RequestLogEntry; keyName: string; span: number }) {
  const facts = requestFacts(r)
  const item = (label: string, value: ReactNode, field: string) => (
    <div className="usage-detail-item" data-field={field}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  )
  return (
    <tr className="usage-detail" data-testid="usage-detail">
      <td colSpan={span}>
        <dl className="usage-detail-list">
          {item(t('detail_id'), <code>{r.id}</code>, 'id')}
          {item(t('detail_time'), new Date(r.createdAt).toLocaleString(), 'time')}
          {item(t('key'), r.keyId ? <code>{keyName}</code> : '–', 'key')}
          {item(t('group'), r.group ?? '–', 'group')}
          {item(t('endpoint'), r.endpoint, 'endpoint')}
          {item(t('detail_requested'), facts.requested ?? '–', 'requested')}
          {item(t('detail_served'), facts.served ? (facts.servedBy ? t('detail_servedBy', { model: facts.served, account: facts.servedBy }) : facts.served) : t('detail_notServed'), 'served')}
          {item(t('detail_accounts'), facts.accounts.length === 0 ? t('detail_noAccounts') : facts.accounts.join(', '), 'accounts')}
          {item(t('status'), r.errorCode ? `${r.status} ${r.errorCode}` : String(r.status), 'status')}
          {item(t('col_tokens'), `${tokens(r.inputTokens)} / ${tokens(r.outputTokens)}`, 'usage')}
          {item(t('col_cost'), formatUsd(r.cost), 'cost')}
          {item(t('detail_total'), formatMs(r.latencyMs), 'latency')}
          {item(t('detail_upstream'), facts.upstreamMs === null ? '–' : formatMs(facts.upstreamMs), 'upstreamMs')}
        </dl>
        {r.attempts && r.attempts.length > 0 && <Attempts t={t} attempts={r.attempts} />}
        <UsageBreakdown r={r} />
        <Inspector r={r} />
      </td>
    </tr>
  )
}

/** A request's upstream attempts (the failover loop's records). */
function Attempts({ t, attempts }: { t: UsageT; attempts: UpstreamAttempt[] }) {
  const words = (w: AttemptWords) => ('key' in w ? t(w.key, w.vars) : w.text)
  return (
    <table className="usage-attempts-table" data-testid="usage-attempts">
      <caption className="muted small">{t('attemptsTitle')}</caption>
      <thead>
        <tr><th>#</th><th>{t('attempt_account')}</th><th>{t('attempt_model')}</th><th>{t('attempt_outcome')}</th><th>{t('attempt_ms')}</th><th>{t('attempt_next')}</th></tr>
      </thead>
      <tbody>
        {attempts.map((a, i) => (
          <tr key={i} data-testid="usage-attempt" data-outcome={a.outcome}>
            <td>{i + 1}</td>
            <td><code>{a.account}</code></td>
            <td>{a.model}</td>
            <td>{words(outcomeWords(a.outcome))}</td>
            <td>{formatMs(a.ms)}</td>
            <td>{a.next === undefined ? '' : words(nextWords(a.next))}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
