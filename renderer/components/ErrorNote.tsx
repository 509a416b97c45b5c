import { ApiError } from '../api/http'
import { ActionError } from './ActionError'

/**
 * An error from the gateway or the network. Gateway answers are shown as ActionError does (title in the chosen
 * language, the server's text quoted, the account that failed); other errors with their message.
 */
export function ErrorNote({ error, onDismiss, onRetry }: { error: unknown; onDismiss?: () => void; onRetry?: () => void }) {
  if (!error) return null
  if (error instanceof ApiError) {
    return <ActionError error={{ status: error.status, code: error.code, message: error.message, requestId: error.requestId, upstream: error.upstream }} onDismiss={onDismiss} onRetry={onRetry} />
  }
  const message = error instanceof Error ? error.message : String(error)
  return (
    <div className="error-note" role="alert">
      <span>{message}</span>
      {onDismiss && (
        <button type="button" className="link" onClick={onDismiss} aria-label="dismiss">
          ×
        </button>
      )}
    </div>
  )
}
