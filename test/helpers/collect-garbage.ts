import v8 from 'node:v8'
import vm from 'node:vm'

v8.setFlagsFromString('--expose-gc')
/** The engine's full garbage collection, reached without starting node with --expose-gc. */
const gc = vm.runInNewContext('gc') as () => void

/**
 * Collects garbage `times` times, yielding to the event loop between: what a weakly held timer (AbortSignal.timeout()
 * inside AbortSignal.any() on Node 20) does not survive.
 */
export async function collectGarbage(times = 5): Promise<void> {
  for (let i = 0; i < times; i++) {
    gc()
    await new Promise((resolve) => setImmediate(resolve))
  }
}
