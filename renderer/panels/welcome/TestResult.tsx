import type { UpstreamTestResult } from '../../../shared/admin'
import { useCount, useT } from '../../i18n'
import { PLURALS, STRINGS } from './strings'

/**
 * What Test connection found for an account (new in the guided start, or saved under Keys & groups): the models it
 * can call, or what went wrong in plain words with the vendor's own words quoted.
 */
export function TestResult({ result, className }: { result: UpstreamTestResult; className?: string }) {
  const t = useT(STRINGS)
  const count = useCount(PLURALS)
  if (!result.ok) {
    return (
      <div className={`error-note welcome-result ${className ?? ''}`} role="alert" data-testid="welcome-test-result" data-ok="false" data-reason={result.reason}>
        <span>{t(`reason_${result.reason}`, { status: result.status ?? '' })}</span>
        {result.detail && <span className="small">{t('vendorSaid')} <q data-testid="welcome-vendor-detail">{result.detail}</q></span>}
      </div>
    )
  }
  return (
    <div className={`welcome-result ${className ?? ''}`} role="status" data-testid="welcome-test-result" data-ok="true">
      <p>{result.callable.length === 0 ? t('testNone') : result.listed ? t('testOk', { models: count('models', result.callable.length) }) : t('testOkUnlisted')}</p>
      <ul className="welcome-models" data-testid="welcome-models">
        {result.callable.map((id) => <li key={id}><code>{id}</code></li>)}
      </ul>
    </div>
  )
}
