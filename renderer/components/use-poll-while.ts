import { useEffect, type DependencyList } from 'react'

/**
 * While `enabled`, runs `step` now and again `everyMs` after each run for as long as it answers true; a step that
 * throws is run again at the next tick. `stopped()` tells a step whose answer came after the component went (or
 * `deps` changed) to leave it unused. Stops when the component goes or `deps` change.
 */
export function usePollWhile(enabled: boolean, everyMs: number, step: (stopped: () => boolean) => Promise<boolean>, deps: DependencyList): void {
  useEffect(() => {
    if (!enabled) return
    let stopped = false
    let timer: ReturnType<typeof setTimeout> | undefined
    const tick = async () => {
      let again = true
      try {
        again = await step(() => stopped)
      } catch {
        // Asked again at the next tick (the gateway may be restarting).
      }
      if (again && !stopped) timer = setTimeout(() => void tick(), everyMs)
    }
    void tick()
    return () => {
      stopped = true
      clearTimeout(timer)
    }
    // The caller's deps decide when a new round starts (`step` is a new function at every render).
  }, [enabled, everyMs, ...deps])
}
