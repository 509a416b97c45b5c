import { useMemo, useState } from 'react'
import type { GroupSummary } from '../../../shared/admin'
import { ErrorNote } from '../../components/ErrorNote'
import { useT } from '../../i18n'
import { useAppStore } from '../../stores/app-store'
import { copyText } from './clipboard'
import type { CatalogEntry } from './group-form'
import { buildSnippets, snippetModel, type Snippets } from './snippets'
import { STRINGS } from './strings'

/** "Use from code": the SDK set-up for the group's protocol, with the gateway's base URL. */
export function SnippetCard({ group, catalog }: { group: GroupSummary; catalog: CatalogEntry[] }) {
  const t = useT(STRINGS)
  const baseUrl = useAppStore((s) => s.session?.baseUrl ?? window.location.origin)
  const [tab, setTab] = useState<keyof Snippets>('node')
  const [copied, setCopied] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const snippets = useMemo(() => {
    const types = new Map(catalog.map((m) => [m.model, m.type]))
    return buildSnippets(group.protocol, baseUrl, snippetModel(group.models, (id) => types.get(id)))
  }, [group.protocol, group.models, baseUrl, catalog])
  const copy = () => copyText(snippets[tab]).then(() => setCopied(true), setError)
  return (
    <section className="card keys-section">
      <div className="row">
        <h3>{t('useFromCode')}</h3>
        <div className="row keys-tabs" role="tablist">
          {(['node', 'python', 'curl'] as const).map((k) => (
            <button key={k} type="button" role="tab" aria-selected={tab === k} className={tab === k ? 'nav active' : 'nav'}
              onClick={() => { setTab(k); setCopied(false) }} data-testid={`snippet-tab-${k}`}>
              {t(k)}
            </button>
          ))}
        </div>
        <button type="button" onClick={() => void copy()} data-testid="snippet-copy">{copied ? t('copied') : t('copy')}</button>
      </div>
      <p className="muted small">{t('snippetHelp')}</p>
      <pre data-testid="snippet">{snippets[tab]}</pre>
      <ErrorNote error={error} />
    </section>
  )
}
