import { useEffect, useRef } from 'react'
import { useT } from '../../i18n'
import { useAppStore } from '../../stores/app-store'
import { RunCard } from './Gallery'
import { STRINGS } from './strings'

/**
 * The newest run, above the editor: its progress while it runs and its results (beside the reference, with the
 * before/after slider) once it ends. When a run starts, and again when it ends, the card is scrolled into view
 * (only as far as needed), so a result never arrives below the fold.
 */
export function CurrentRun() {
  const t = useT(STRINGS)
  const run = useAppStore((s) => s.imageRuns[0])
  const ref = useRef<HTMLDivElement>(null)
  const shown = run ? `${run.id}:${run.status}` : ''
  useEffect(() => {
    if (!shown) return
    // After layout, so a result's height is known; `nearest` leaves the page still when the card is in view.
    const frame = requestAnimationFrame(() => ref.current?.scrollIntoView({ block: 'nearest' }))
    return () => cancelAnimationFrame(frame)
  }, [shown])
  if (!run) return null
  return (
    <div className="image-current" ref={ref} aria-label={t('currentRun')} role="region" aria-live="polite" data-testid="image-current">
      <RunCard run={run} t={t} />
    </div>
  )
}
