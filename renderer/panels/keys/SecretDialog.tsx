import { useEffect, useRef, useState } from 'react'
import { ErrorNote } from '../../components/ErrorNote'
import { useT } from '../../i18n'
import { copyText } from './clipboard'
import { STRINGS } from './strings'

/** The new key's secret, shown this once in a modal dialog (Escape or Done closes it), with a copy button. */
export function SecretDialog({ secret, onClose }: { secret: string; onClose: () => void }) {
  const t = useT(STRINGS)
  const ref = useRef<HTMLDialogElement>(null)
  const [copied, setCopied] = useState(false)
  const [error, setError] = useState<unknown>(null)
  useEffect(() => {
    const dialog = ref.current
    if (dialog && !dialog.open) dialog.showModal()
  }, [])
  const copy = () => copyText(secret).then(() => setCopied(true), setError)
  return (
    <dialog ref={ref} className="card keys-dialog" aria-labelledby="keys-secret-title" onClose={onClose} data-testid="key-secret-dialog">
      <h3 id="keys-secret-title">{t('secretTitle')}</h3>
      <p className="keys-warning">{t('secretWarning')}</p>
      <pre className="keys-secret" data-testid="key-secret">{secret}</pre>
      <ErrorNote error={error} />
      <div className="row">
        <button type="button" onClick={() => void copy()} data-testid="key-copy">{copied ? t('copied') : t('copy')}</button>
        <button type="button" className="primary" onClick={() => ref.current?.close()} data-testid="key-secret-close">{t('close')}</button>
      </div>
    </dialog>
  )
}
