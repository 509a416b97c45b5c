/** The page's side of the "select object" worker: started on first use, one promise per request. */
import type { ObjectHint } from './select-object'
import type { SelectReply, SelectRequest } from './select-protocol'

let worker: Worker | undefined
let nextId = 1
const pending = new Map<number, { resolve(bits: Uint8Array): void; reject(err: Error): void }>()

function startWorker(): Worker {
  const w = new Worker(new URL('./select-worker.ts', import.meta.url), { type: 'module', name: 'select-worker' })
  w.onmessage = (e: MessageEvent<SelectReply>) => {
    const job = pending.get(e.data.id)
    pending.delete(e.data.id)
    if (!job) return
    if ('bits' in e.data) job.resolve(e.data.bits)
    else job.reject(new Error(e.data.error))
  }
  w.onerror = (e) => {
    // A worker that cannot start (or load OpenCV) fails every request under way; the next one starts afresh.
    e.preventDefault()
    for (const job of pending.values()) job.reject(new Error(e.message || 'the selection worker failed'))
    pending.clear()
    w.terminate()
    if (worker === w) worker = undefined
  }
  return w
}

/** The object's coverage (1 = object) at the image's size; `rgba` is copied, the caller's pixels stay as they are. */
export function selectObjectInWorker(rgba: Uint8ClampedArray, width: number, height: number, hint: ObjectHint): Promise<Uint8Array> {
  worker ??= startWorker()
  const id = nextId++
  const copy = rgba.slice()
  const request: SelectRequest = { id, rgba: copy, width, height, hint }
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject })
    worker!.postMessage(request, [copy.buffer])
  })
}
