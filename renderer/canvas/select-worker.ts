/**
 * The "select object" worker: loads OpenCV.js (bundled as an asset of the app, about 11 MB) on the first
 * request, then answers each request with the object's coverage. Runs off the UI thread so the page never
 * blocks while GrabCut works or while the WebAssembly module compiles.
 */
import opencvUrl from '@techstark/opencv-js/dist/opencv.js?url'
import { cvReady, selectObject, type Cv } from './select-object'
import type { SelectReply, SelectRequest } from './select-protocol'

declare function importScripts(...urls: string[]): void

const scope = self as unknown as {
  cv?: unknown
  onmessage: ((e: MessageEvent<SelectRequest>) => void) | null
  postMessage(message: SelectReply, transfer: Transferable[]): void
}

let loading: Promise<{ cv: Cv }> | undefined

/** OpenCV.js, loaded once: the classic worker's importScripts runs its UMD build, which sets `self.cv`. */
function loadCv(): Promise<{ cv: Cv }> {
  loading ??= Promise.resolve().then(() => {
    importScripts(opencvUrl)
    return cvReady(scope.cv)
  })
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
