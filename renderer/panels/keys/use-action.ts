import { useCallback, useState } from 'react'

/** Runs one admin call at a time for a control: whether it is busy, and the error of the last run (shown, never dropped). */
export function useAction() {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const run = useCallback(async (fn: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true)
    setError(null)
    try {
      await fn()
      return true
    } catch (err) {
      setError(err)
      return false
    } finally {
      setBusy(false)
    }
  }, [])
  return { busy, error, run, clear: useCallback(() => setError(null), []) }
}
