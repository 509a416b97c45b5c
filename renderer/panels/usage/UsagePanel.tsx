import { NextStep, useHasAccounts } from '../../components/NextStep'
import { useT } from '../../i18n'
import { useAppStore } from '../../stores/app-store'
import { AccountCard } from './AccountCard'
import { RequestLog } from './RequestLog'
import { STRINGS } from './strings'
import { UsageCharts } from './UsageCharts'
import './usage.css'

/**
 * The account (balance, reservations, concurrency), pictures of the usage over days, and the per-request log.
 * The app's own housekeeping calls (shared/admin.ts HOUSEKEEPING_ENDPOINTS from its own keys) are left out of the
 * pictures and the log unless the switch shows them. The switch, like the table's columns, is saved with the app's state.
 */
export function UsagePanel() {
  const t = useT(STRINGS)
  const housekeeping = useAppStore((s) => s.usageHousekeeping === true)
  const setHousekeeping = useAppStore((s) => s.setUsageHousekeeping)
  const hasAccounts = useHasAccounts()
  return (
    <section className="panel usage" data-testid="panel-usage">
      <div className="row">
        <h2>{t('title')}</h2>
        <label className="small usage-housekeeping" title={t('housekeepingHelp')}>
          <input type="checkbox" checked={housekeeping} onChange={(e) => setHousekeeping(e.target.checked)} data-testid="usage-housekeeping" />
          {t('housekeeping')}
        </label>
      </div>
      {!hasAccounts && <NextStep text="usageEmpty" action="addAccount" testId="usage-next-step" />}
      <AccountCard />
      <UsageCharts housekeeping={housekeeping} />
      <RequestLog housekeeping={housekeeping} />
    </section>
  )
}
