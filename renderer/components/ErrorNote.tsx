import { ApiError } from '../api/http'

/** An error from the gateway or the network, shown with its code. */
export function ErrorNote({ error, onDismiss }: { error: unknown; onDismiss?: () => void }) {
  if (!error) return null
  const message = error instanceof Error ? error.message : String(error)
  const code = error instanceof ApiError ? `${error.status} ${error.code}` : undefined
  return (
    <div className="error-note" role="alert">
      {code && <strong>{code}: </strong>}
      <span>{message}</span>
      {onDismiss && (
        <button type="button" className="link" onClick={onDismiss} aria-label="dismiss">
          ×
        </button>
      )}
    </div>
  )
}
