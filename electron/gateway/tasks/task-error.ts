/** A task's error as the store keeps it and the task endpoints show it: `{code, message}`, upstream words redacted. */
export interface TaskError {
  code: string
  message: string
}

type Redact = (text: string) => string

/** The error column's text; redacted before it is stored (a copied store holds no upstream secret). */
export const storedTaskError = (error: TaskError, redact: Redact): string =>
  JSON.stringify({ code: redact(error.code), message: redact(error.message) })

/** The stored error, redacted again when shown: rows written before redaction existed may still hold a secret. */
export function shownTaskError(text: string | null, redact: Redact): TaskError | undefined {
  if (!text) return undefined
  const error = JSON.parse(text) as TaskError
  return { code: redact(error.code), message: redact(error.message) }
}
