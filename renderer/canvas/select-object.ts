/**
 * "Select object": OpenCV's GrabCut on a downscaled copy of the image, seeded by a click (and optionally a
 * box), the mask scaled back up. Takes the OpenCV.js module as an argument, so the worker and the unit tests
 * run the same code (the worker loads OpenCV lazily; tests require the npm package directly).
 */
import { scaleCoverage } from './composite'
import { componentAt } from './magic-wand'

/** The few OpenCV.js members this module uses (structural, so the 11 MB module's types stay out of the renderer). */
export interface CvMat {
  data: Uint8Array
  delete(): void
}
export interface Cv {
  Mat: new (...args: unknown[]) => CvMat
  Size: new (width: number, height: number) => unknown
  Rect: new (x: number, y: number, width: number, height: number) => unknown
  matFromImageData(image: { data: Uint8ClampedArray; width: number; height: number }): CvMat
  cvtColor(src: CvMat, dst: CvMat, code: number): void
  resize(src: CvMat, dst: CvMat, size: unknown, fx: number, fy: number, interpolation: number): void
  grabCut(img: CvMat, mask: CvMat, rect: unknown, bgd: CvMat, fgd: CvMat, iterations: number, mode: number): void
  CV_8UC1: number
  COLOR_RGBA2RGB: number
  INTER_AREA: number
  GC_INIT_WITH_MASK: number
}

/**
 * Resolves once OpenCV.js's WebAssembly runtime is up. The module object is wrapped because it is a thenable
 * (Emscripten's `then`), and resolving a promise with it never settles.
 */
export function cvReady(module: unknown): Promise<{ cv: Cv }> {
  const cv = module as Cv & { onRuntimeInitialized?: () => void }
  if (typeof cv.Mat === 'function') return Promise.resolve({ cv })
  return new Promise((resolve) => (cv.onRuntimeInitialized = () => resolve({ cv })))
}

/** What the user pointed at, in image pixels: a click inside the object, a box around it, or both. */
export interface ObjectHint {
  point?: readonly [number, number]
  box?: { x: number; y: number; width: number; height: number }
}

/** GrabCut runs on a copy whose longest side is at most this (quick enough to feel immediate). */
export const MAX_GRABCUT_SIDE = 512
const ITERATIONS = 5
// GrabCut's mask labels (cv::GrabCutClasses).
const GC_BGD = 0
const GC_FGD = 1
const GC_PR_BGD = 2
const GC_PR_FGD = 3

/**
 * The starting labels at the working size: outside the box (or a thin frame at the image border when there
 * is only a click) is background for sure, inside probably foreground; a small disc under the click is
 * foreground for sure. GrabCut then learns both colour models and settles every "probably".
 */
export function seedLabels(width: number, height: number, hint: ObjectHint): Uint8Array {
  const labels = new Uint8Array(width * height)
  const margin = Math.max(1, Math.round(Math.min(width, height) * 0.03))
  const box = hint.box ?? { x: margin, y: margin, width: width - 2 * margin, height: height - 2 * margin }
  const x0 = Math.max(0, Math.floor(box.x))
  const y0 = Math.max(0, Math.floor(box.y))
  const x1 = Math.min(width, Math.ceil(box.x + box.width))
  const y1 = Math.min(height, Math.ceil(box.y + box.height))
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) labels[y * width + x] = x >= x0 && x < x1 && y >= y0 && y < y1 ? GC_PR_FGD : GC_BGD
  if (hint.point) {
    const r = Math.max(1, Math.round(Math.min(width, height) * 0.01))
    const [px, py] = [Math.floor(hint.point[0]), Math.floor(hint.point[1])]
    for (let y = Math.max(0, py - r); y <= Math.min(height - 1, py + r); y++) {
      for (let x = Math.max(0, px - r); x <= Math.min(width - 1, px + r); x++) if ((x - px) ** 2 + (y - py) ** 2 <= r * r) labels[y * width + x] = GC_FGD
    }
  }
  return labels
}

/** The working size: the image scaled so its longest side is at most MAX_GRABCUT_SIDE (never enlarged). */
export function workingSize(width: number, height: number): { width: number; height: number; scale: number } {
  const scale = Math.min(1, MAX_GRABCUT_SIDE / Math.max(width, height))
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)), scale }
}

/**
 * The object's coverage at the image's size (1 = the object). With a click, only the connected part that
 * holds the click is kept, so other things that look alike stay out of the mask.
 */
export function selectObject(cv: Cv, rgba: Uint8ClampedArray, width: number, height: number, hint: ObjectHint): Uint8Array {
  const work = workingSize(width, height)
  const scaled: ObjectHint = {
    ...(hint.point ? { point: [hint.point[0] * work.scale, hint.point[1] * work.scale] as const } : {}),
    ...(hint.box ? { box: { x: hint.box.x * work.scale, y: hint.box.y * work.scale, width: hint.box.width * work.scale, height: hint.box.height * work.scale } } : {}),
  }
  const mats: CvMat[] = []
  const keep = <T extends CvMat>(m: T): T => (mats.push(m), m)
  try {
    const src = keep(cv.matFromImageData({ data: rgba, width, height }))
    const rgb = keep(new cv.Mat())
    cv.cvtColor(src, rgb, cv.COLOR_RGBA2RGB)
    let small = rgb
    if (work.scale < 1) {
      small = keep(new cv.Mat())
      cv.resize(rgb, small, new cv.Size(work.width, work.height), 0, 0, cv.INTER_AREA)
    }
    const mask = keep(new cv.Mat(work.height, work.width, cv.CV_8UC1))
    mask.data.set(seedLabels(work.width, work.height, scaled))
    const bgd = keep(new cv.Mat())
    const fgd = keep(new cv.Mat())
    cv.grabCut(small, mask, new cv.Rect(0, 0, 1, 1), bgd, fgd, ITERATIONS, cv.GC_INIT_WITH_MASK)
    let object: Uint8Array = new Uint8Array(work.width * work.height)
    for (let i = 0; i < object.length; i++) object[i] = mask.data[i] === GC_FGD || mask.data[i] === GC_PR_FGD ? 1 : 0
    if (scaled.point) object = componentAt(object, work.width, work.height, scaled.point[0], scaled.point[1])
    return scaleCoverage(object, work.width, work.height, width, height)
  } finally {
    for (const m of mats) m.delete()
  }
}
