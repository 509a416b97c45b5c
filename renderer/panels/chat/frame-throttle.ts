/** At most one call of `fn` per animation frame, however often `schedule` is called; `flush` runs it now. */
export function frameThrottle(fn: () => void) {
  // Node (unit tests) has no requestAnimationFrame; a 16 ms timer stands in for a frame.
  const raf = globalThis.requestAnimationFrame?.bind(globalThis) ?? ((cb: () => void) => setTimeout(cb, 16) as unknown as number)
  const cancel = globalThis.cancelAnimationFrame?.bind(globalThis) ?? ((id: number) => clearTimeout(id))
  let pending: number | null = null
  return {
    schedule() {
      pending ??= raf(() => {
        pending = null
        fn()
      })
    },
    cancel() {
      if (pending !== null) cancel(pending)
      pending = null
    },
  }
}
