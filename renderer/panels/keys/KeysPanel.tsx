import { ErrorNote } from '../../components/ErrorNote'
import { NEXT_STEP_STRINGS } from '../../components/next-step'
import { NextStep, useHasAccounts } from '../../components/NextStep'
import { useT } from '../../i18n'
import { useAppStore } from '../../stores/app-store'
import { GatewayKeys } from './GatewayKeys'
import { GroupList } from './GroupList'
import { SnippetCard } from './SnippetCard'
import { STRINGS } from './strings'
import { Upstreams } from './Upstreams'
import { useKeysData } from './use-keys-data'
import './keys.css'

/** Groups, the upstream accounts they relay to (the key vault), the gateway keys of a group, and how to use them from code. */
export function KeysPanel() {
  const t = useT(STRINGS)
  const groupId = useAppStore((s) => s.groupId)
  const group = useAppStore((s) => s.groups.find((g) => g.id === s.groupId))
  const data = useKeysData(groupId)
  const next = useT(NEXT_STEP_STRINGS)
  const setPanel = useAppStore((s) => s.setPanel)
  const hasAccounts = useHasAccounts()
  return (
    <section className="panel keys" data-testid="panel-keys">
      <div className="row">
        <h2>{t('title')}</h2>
        <button type="button" className="link" onClick={() => setPanel('welcome')} data-testid="keys-guided-setup">{next('guidedSetup')}</button>
      </div>
      {!hasAccounts && data.upstreams.length === 0 && <NextStep text="noAccountsAtAll" action="guidedSetup" testId="keys-next-step" />}
      {data.error ? <ErrorNote error={data.error} /> : null}
      <GroupList data={data} />
      {group ? (
        <>
          <Upstreams group={group} data={data} />
          <GatewayKeys group={group} data={data} />
          <SnippetCard group={group} catalog={data.catalog} />
        </>
      ) : (
        <p className="muted">{t('chooseGroup')}</p>
      )}
    </section>
  )
}
