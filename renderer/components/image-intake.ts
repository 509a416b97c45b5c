import { useCallback, useState } from 'react'
import { downscaleImage, imageFacts } from './downscale-image'
import { fitImage, megabytes, type ImageLimits } from './image-fit'

/** An image too large for where it goes, waiting for the user to agree to a smaller copy. */
export interface PendingImage {
  id: string
  file: File
  width: number
  height: number
  /** the size it would be sent at */
  to: { width: number; height: number }
}

/** Why an image was left out, as a key of the shared strings and its values. */
export interface IntakeProblem {
  id: string
  key: 'refuseDecode' | 'refuseMinSide' | 'unreadable' | 'stillTooBig'
  vars: Record<string, string | number>
}

/**
 * Picked images checked before they are used: those within `limits` go straight to `onImages`; larger ones wait
 * for consent (`accept` makes the smaller copy, `skip` leaves them out); those that cannot be used are reported.
 */
export function useImageIntake(limits: ImageLimits, onImages: (files: File[]) => void) {
  const [pending, setPending] = useState<PendingImage[]>([])
  const [problems, setProblems] = useState<IntakeProblem[]>([])
  const report = (key: IntakeProblem['key'], vars: IntakeProblem['vars']) => setProblems((p) => [...p, { id: crypto.randomUUID(), key, vars }])

  const offer = useCallback(async (files: File[]) => {
    const ready: File[] = []
    for (const file of files) {
      let facts
      try {
        facts = await imageFacts(file)
      } catch {
        report('unreadable', { name: file.name })
        continue
      }
      const decision = fitImage(facts, limits)
      if (decision.kind === 'keep') ready.push(file)
      else if (decision.kind === 'downscale') {
        const entry = { id: crypto.randomUUID(), file, width: facts.width, height: facts.height, to: { width: decision.width, height: decision.height } }
        setPending((p) => [...p, entry])
      } else if (decision.why === 'decode') report('refuseDecode', { name: file.name, width: facts.width, height: facts.height, limit: decision.limit / 1_000_000 })
      else report('refuseMinSide', { name: file.name, limit: decision.limit })
    }
    if (ready.length > 0) onImages(ready)
  }, [limits, onImages])

  const accept = useCallback(async (id: string) => {
    const entry = pending.find((p) => p.id === id)
    if (!entry) return
    setPending((p) => p.filter((x) => x.id !== id))
    try {
      const small = await downscaleImage(entry.file, entry.to.width, entry.to.height)
      if (small.size > limits.maxBytes) report('stillTooBig', { name: entry.file.name, size: megabytes(small.size), maxSize: megabytes(limits.maxBytes) })
      else onImages([small])
    } catch {
      report('unreadable', { name: entry.file.name })
    }
  }, [pending, limits, onImages])

  const skip = useCallback((id: string) => setPending((p) => p.filter((x) => x.id !== id)), [])
  const dismiss = useCallback((id: string) => setProblems((p) => p.filter((x) => x.id !== id)), [])
  return { offer, pending, problems, accept, skip, dismiss, limits }
}

export type ImageIntake = ReturnType<typeof useImageIntake>
