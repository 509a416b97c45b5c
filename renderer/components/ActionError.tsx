import { useEffect, useState } from 'react'
import type { RequestLogEntry } from '../../shared/admin'
import { admin } from '../api/admin'
import { useT } from '../i18n'
import { useAppStore } from '../stores/app-store'
import { presentError, type ErrorFacts } from './error-view'
import { STRINGS } from './strings'

// Request-log rows already read: an error is shown again on every render and after every reload.
const rows = new Map<string, Promise<RequestLogEntry | null>>()

/** The request-log row of a request (whose account failed); null when it is not there. */
function logRow(requestId: string): Promise<RequestLogEntry | null> {
  let row = rows.get(requestId)
  if (!row) {
    // The row is written just after the answer; a second look a moment later finds a late one.
    const find = () => admin.requests({ id: requestId }).then((page) => page.data.find((r) => r.id === requestId) ?? null)
    row = find().then((r) => r ?? new Promise<RequestLogEntry | null>((resolve) => setTimeout(() => resolve(find()), 300)))
    row.catch(() => rows.delete(requestId))
    rows.set(requestId, row)
  }
  return row
}

function useLogRow(requestId: string | null | undefined): RequestLogEntry | null {
  const [row, setRow] = useState<RequestLogEntry | null>(null)
  useEffect(() => {
    if (!requestId) return
    let live = true
    logRow(requestId).then((r) => live && setRow(r), () => {})
    return () => {
      live = false
    }
  }, [requestId])
  return requestId ? row : null
}

/**
 * An error shown where its action happened, from the one table (error-view.ts): the title and the fix in the chosen
 * language, the vendor's (or gateway's) own words quoted, the account that failed with a link to it under Keys &
 * groups, the budget where the fix is there, and Retry.
 */
export function ActionError({ error, onRetry, onDismiss, retryTestId = 'error-retry' }: {
  error: ErrorFacts
  onRetry?: () => void
  onDismiss?: () => void
  retryTestId?: string
}) {
  const t = useT(STRINGS)
  const language = useAppStore((s) => s.language)
  const openUpstream = useAppStore((s) => s.openUpstream)
  const setPanel = useAppStore((s) => s.setPanel)
  const row = useLogRow(error.requestId)
  const view = presentError(error, row, language, onRetry !== undefined)
  return (
    <div className="error-note action-error" role="alert" data-testid="action-error" data-code={error.code} data-kind={view.kind}>
      <span className="action-error-title" data-testid="error-title">
        {view.status !== null && <strong>{view.status} </strong>}
        {view.title}
      </span>
      <span className="action-error-fix" data-testid="error-fix">{view.fix}</span>
      {view.detail && (
        <div className="small">
          <span className="muted" data-testid="error-detail-label">{view.detailLabel}</span>
          <blockquote data-testid="error-detail">{view.detail}</blockquote>
        </div>
      )}
      <div className="row small">
        {view.actions.includes('retry') && (
          <button type="button" className="primary" onClick={onRetry} data-testid={retryTestId}>{t('retry')}</button>
        )}
        {view.account && (
          <a href="#keys" onClick={(e) => { e.preventDefault(); openUpstream(view.account!) }} data-testid="error-account">
            {t('account', { id: view.account })}
          </a>
        )}
        {view.actions.includes('budget') && (
          <a href="#usage" onClick={(e) => { e.preventDefault(); setPanel('usage') }} data-testid="error-budget">{t('budget')}</a>
        )}
        {error.requestId && <span className="muted">{t('requestId', { id: error.requestId })}</span>}
        {onDismiss && <button type="button" className="link" onClick={onDismiss} aria-label={t('dismiss')}>×</button>}
      </div>
    </div>
  )
}
