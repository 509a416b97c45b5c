import { NextStep, useHasAccounts } from '../../components/NextStep'
import { useT } from '../../i18n'
import { AccountCard } from './AccountCard'
import { RequestLog } from './RequestLog'
import { STRINGS } from './strings'
import './usage.css'

/** The account (balance, reservations, concurrency) and the per-request log. */
export function UsagePanel() {
  const t = useT(STRINGS)
  const hasAccounts = useHasAccounts()
  return (
    <section className="panel usage" data-testid="panel-usage">
      <h2>{t('title')}</h2>
      {!hasAccounts && <NextStep text="usageEmpty" action="addAccount" testId="usage-next-step" />}
      <AccountCard />
      <RequestLog />
    </section>
  )
}
