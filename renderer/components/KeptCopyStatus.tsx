import type { ReactNode } from 'react'
import { useT } from '../i18n'
import { COPY_STRINGS } from './copy-strings'
import type { CopyShown } from './kept-copy-view'

const when = (ms: number) => new Date(ms).toLocaleString()

/**
 * A result's copy in one line, in one state (saving, retrying, kept, failed and why, the vendor link alone, gone):
 * the vendor link while it works, Retry for a failed copy whose link still works, and `download` once kept.
 */
export function KeptCopyStatus({ shown, onRetry, retrying, download }: { shown: CopyShown; onRetry?: () => void; retrying?: boolean; download?: ReactNode }) {
  const t = useT(COPY_STRINGS)
  const link = 'link' in shown && shown.link
    ? <a href={shown.link} target="_blank" rel="noreferrer noopener" data-testid="copy-open-link">{t('openLink')}</a>
    : null
  let words: string
  switch (shown.state) {
    case 'saving': words = t('saving'); break
    case 'retrying': words = t('retrying', { n: shown.attempts }); break
    case 'kept': words = t('kept'); break
    case 'linkOnly': words = t('linkOnly', { time: when(shown.linkUntil) }); break
    case 'gone': words = shown.linkUntil === undefined ? t('goneNoLink') : t('gone', { time: when(shown.linkUntil) }); break
    case 'failed': {
      const reason = t(`reason_${shown.reason.code}`, { detail: shown.reason.detail ?? '' })
      // Sentences joined as the language joins them (a space in English, none in Chinese).
      const sentences = [t('failed', { reason })]
      if (shown.retryAt !== null) sentences.push(t('nextTry', { time: when(shown.retryAt) }))
      if (shown.linkUntil !== undefined) sentences.push(t(shown.link ? 'linkUntil' : 'linkExpired', { time: when(shown.linkUntil) }))
      words = sentences.join(t('sep'))
    }
  }
  return (
    <div className={`row copy-status small ${shown.state}`} role="status" data-testid="copy-status" data-state={shown.state}>
      <span className={shown.state === 'failed' || shown.state === 'gone' ? 'error-text' : 'muted'} data-testid="copy-words">{words}</span>
      {shown.state === 'kept' && download}
      {link}
      {shown.state === 'failed' && shown.canRetry && onRetry && (
        <button type="button" className="link" onClick={onRetry} disabled={retrying} data-testid="copy-retry">{t('retry')}</button>
      )}
    </div>
  )
}
