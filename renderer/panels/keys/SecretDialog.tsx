import { useEffect, useRef, useState } from 'react'
import { ErrorNote } from '../../components/ErrorNote'
import { useT } from '../../i18n'
import { copyText } from './clipboard'
import { STRINGS } from './strings'

/**
 * The new key's secret, shown this once in a modal dialog, with a copy button. Once copied, Done or Escape closes
 * it; before that, Done and Escape first ask, since the key cannot be shown again.
 */
export function SecretDialog({ secret, onClose }: { secret: string; onClose: () => void }) {
  const t = useT(STRINGS)
  const ref = useRef<HTMLDialogElement>(null)
  const [copied, setCopied] = useState(false)
  const [asking, setAsking] = useState(false)
  const [error, setError] = useState<unknown>(null)
  // Set once the user chose to leave (copied, or confirmed): a close before that is undone and asked about.
  const leaving = useRef(false)
  useEffect(() => {
    const dialog = ref.current
    if (dialog && !dialog.open) dialog.showModal()
  }, [])
  const copy = () => copyText(secret).then(() => setCopied(true), setError)
  const leave = () => {
    leaving.current = true
    ref.current?.close()
  }
  const tryClose = () => (copied ? leave() : setAsking(true))
  return (
    <dialog
      ref={ref} className="card keys-dialog" aria-labelledby="keys-secret-title" data-testid="key-secret-dialog" data-asking={asking || undefined}
      onCancel={(e) => {
        e.preventDefault()
        tryClose()
      }}
      onClose={() => {
        if (leaving.current || copied) return onClose()
        // Closed by the browser anyway (a second Escape): shown again, asking.
        ref.current?.showModal()
        setAsking(true)
      }}
    >
      <h3 id="keys-secret-title">{t('secretTitle')}</h3>
      <p className="keys-warning">{t('secretWarning')}</p>
      <pre className="keys-secret" data-testid="key-secret">{secret}</pre>
      <ErrorNote error={error} />
      {asking && !copied ? (
        <div className="row" role="alert" data-testid="key-secret-confirm">
          <span className="keys-warning">{t('secretLeaveQuestion')}</span>
          <button type="button" className="primary" onClick={() => void copy()} data-testid="key-copy-then">{t('copy')}</button>
          <button type="button" onClick={() => setAsking(false)} data-testid="key-secret-stay">{t('secretStay')}</button>
          <button type="button" className="danger" onClick={leave} data-testid="key-secret-leave">{t('secretLeave')}</button>
        </div>
      ) : (
        <div className="row">
          <button type="button" onClick={() => void copy()} data-testid="key-copy">{copied ? t('copied') : t('copy')}</button>
          <button type="button" className="primary" onClick={tryClose} data-testid="key-secret-close">{t('close')}</button>
        </div>
      )}
    </dialog>
  )
}
