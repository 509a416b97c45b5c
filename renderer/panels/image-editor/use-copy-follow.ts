import { useCallback, useState } from 'react'
import { admin } from '../../api/admin'
import { usePollWhile } from '../../components/use-poll-while'
import { useAppStore } from '../../stores/app-store'
import type { ImageRun } from './image-types'
import { copyStep, followsCopy, withCopy } from './run-copies'

/** How often a card asks about a copy under way. */
const FOLLOW_MS = 1_500

/**
 * Follows the gateway's copy of image `index` of a run while it may change (saving, retrying, failed with a try
 * due), and offers Retry: the card shows one state, kept current. Stops when the card goes.
 */
export function useCopyFollow(run: ImageRun, index: number): { retry(): void; retrying: boolean; error: unknown } {
  const setRunImage = useAppStore((s) => s.setRunImage)
  const image = run.images[index]
  const follow = image !== undefined && run.requestId !== undefined && run.requestId !== '' && followsCopy(image)
  const [retrying, setRetrying] = useState(false)
  const [error, setError] = useState<unknown>(null)
  usePollWhile(follow, FOLLOW_MS, async (stopped) => {
    const copies = await admin.copies(run.requestId!)
    const current = useAppStore.getState().imageRuns.find((r) => r.id === run.id)?.images[index]
    if (stopped() || !current) return false
    const step = copyStep(current, index, copies, run.finishedAt ?? run.createdAt, Date.now())
    if (step.image !== current) setRunImage(run.id, index, step.image)
    return step.again
  }, [run.id, run.requestId, index])
  const retry = useCallback(() => {
    if (!run.requestId) return
    setRetrying(true)
    setError(null)
    admin.retryCopy(run.requestId, index).then(
      (copies) => {
        const copy = copies.find((c) => c.index === index)
        const current = useAppStore.getState().imageRuns.find((r) => r.id === run.id)?.images[index]
        if (copy && current) setRunImage(run.id, index, withCopy(current, copy))
      },
      setError,
    ).finally(() => setRetrying(false))
  }, [run.id, run.requestId, index])
  return { retry, retrying, error }
}
