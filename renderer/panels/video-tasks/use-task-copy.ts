import { useCallback, useState } from 'react'
import type { KeptCopy } from '../../../shared/kept-copy'
import { admin } from '../../api/admin'
import { copyUnderWay } from '../../components/kept-copy-view'
import { usePollWhile } from '../../components/use-poll-while'

/** How often a card asks about a video's copy under way. */
const FOLLOW_MS = 2_000

/**
 * The gateway's copy of a succeeded task's first video while it is not playable yet: followed while it may change
 * (saving, retrying, failed with a try due), with Retry. `enabled` false (the copy is playable) asks nothing.
 */
export function useTaskCopy(taskId: string, enabled: boolean): { copy?: KeptCopy; retry(): void; retrying: boolean; error: unknown } {
  const [copy, setCopy] = useState<KeptCopy | undefined>()
  const [retrying, setRetrying] = useState(false)
  const [error, setError] = useState<unknown>(null)
  // A new round of following starts after Retry.
  const [round, setRound] = useState(0)
  usePollWhile(enabled, FOLLOW_MS, async (stopped) => {
    const next = (await admin.copies(taskId)).find((c) => c.index === 0)
    if (stopped()) return false
    setCopy(next)
    return next === undefined || copyUnderWay(next)
  }, [taskId, round])
  const retry = useCallback(() => {
    setRetrying(true)
    setError(null)
    admin.retryCopy(taskId, 0).then(
      (copies) => {
        setCopy(copies.find((c) => c.index === 0))
        setRound((r) => r + 1)
      },
      setError,
    ).finally(() => setRetrying(false))
  }, [taskId])
  return { copy, retry, retrying, error }
}
