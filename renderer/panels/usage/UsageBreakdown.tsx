import type { RequestLogEntry } from '../../../shared/admin'
import { formatNumber, formatUsd } from '../../format'
import { useT } from '../../i18n'
import { useAppStore } from '../../stores/app-store'
import { BREAKDOWN_STRINGS } from './breakdown-strings'
import { breakdownLines, hasBreakdown } from './usage-breakdown'

/**
 * How a request was billed, in its row's detail: where the usage came from (the vendor's report, the gateway's count,
 * or the reservation) and each priced part (input, cache reads and writes, output, reasoning, images, seconds,
 * characters) with its units, list price and cost (docs/vendor-usage.md).
 */
export function UsageBreakdown({ r }: { r: RequestLogEntry }) {
  const t = useT(BREAKDOWN_STRINGS)
  const language = useAppStore((s) => s.language)
  if (!hasBreakdown(r)) return null
  const lines = breakdownLines(r)
  return (
    <table className="usage-attempts-table usage-breakdown" style={{ marginTop: 8 }} data-testid="usage-breakdown" data-source={r.usageSource ?? ''}>
      <caption className="muted small" style={{ whiteSpace: 'nowrap' }}>
        {t('title')}
        {r.usageSource !== null && <> · {t('source')}: <span data-testid="usage-source">{t(`source_${r.usageSource}`)}</span></>}
      </caption>
      {lines.length > 0 && (
        <>
          <thead>
            <tr><th>{t('col_part')}</th><th>{t('col_units')}</th><th>{t('col_price')}</th><th>{t('col_cost')}</th></tr>
          </thead>
          <tbody>
            {lines.map((line) => (
              <tr key={line.kind} data-testid="usage-breakdown-part" data-kind={line.kind.slice('kind_'.length)}>
                <td>{t(line.kind)}</td>
                <td>{formatNumber(language, line.units)}</td>
                <td>{t(line.rate.key, { price: line.rate.price })}</td>
                <td>{line.cost}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr><td colSpan={3}>{t('total')}</td><td>{formatUsd(r.cost)}</td></tr>
          </tfoot>
        </>
      )}
    </table>
  )
}
