/**
 * The "select object" worker: loads OpenCV.js (bundled as an asset of the app, about 11 MB) on the first
 * request, then answers each request with the object's coverage. Runs off the UI thread so the page never
 * blocks while GrabCut works or while the WebAssembly module compiles.
 */
import opencvUrl from '@techstark/opencv-js/dist/opencv.js?url'
import { cvReady, selectObject, type Cv } from './select-object'
import type { SelectReply, SelectRequest } from './select-protocol'

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<SelectRequest>) => void) | null
  postMessage(message: SelectReply, transfer: Transferable[]): void
}

let loading: Promise<{ cv: Cv }> | undefined

/**
 * OpenCV.js, loaded once. It is a UMD script, not an ES module: given a CommonJS-style global `module`, it
 * puts itself in `module.exports`, which works the same in this module worker in the built app and under
 * the dev server.
 */
function loadCv(): Promise<{ cv: Cv }> {
  loading ??= (async () => {
    const shim: { exports: unknown } = { exports: {} }
    ;(globalThis as { module?: unknown }).module = shim
    await import(/* @vite-ignore */ opencvUrl)
    return cvReady(shim.exports)
  })()
  return loading
}
scope.onmessage = (e) => {
  const { id, rgba, width, height, hint } = e.data
  loadCv()
    .then(({ cv }) => {
      const bits = selectObject(cv, rgba, width, height, hint)
      scope.postMessage({ id, bits }, [bits.buffer])
    })
    .catch((err: unknown) => scope.postMessage({ id, error: err instanceof Error ? err.message : String(err) }, []))
}
