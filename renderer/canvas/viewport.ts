/**
 * The view transform of the mask editor: a screen point (CSS pixels from the canvas's top-left corner)
 * is `image * scale + (x, y)`. Strokes are stored in image pixels, so zooming and panning change only this.
 */
export interface View {
  scale: number
  x: number
  y: number
}

export const MIN_SCALE = 0.02
export const MAX_SCALE = 32

const clampScale = (s: number) => Math.min(MAX_SCALE, Math.max(MIN_SCALE, s))

/** The whole image, as large as fits in the view, centred (upscaled too, up to MAX_SCALE). */
export function fitView(imageWidth: number, imageHeight: number, viewWidth: number, viewHeight: number): View {
  if (imageWidth <= 0 || imageHeight <= 0 || viewWidth <= 0 || viewHeight <= 0) return { scale: 1, x: 0, y: 0 }
  const scale = clampScale(Math.min(viewWidth / imageWidth, viewHeight / imageHeight))
  return { scale, x: (viewWidth - imageWidth * scale) / 2, y: (viewHeight - imageHeight * scale) / 2 }
}

/** Screen (CSS px) -> image pixels. */
export const screenToImage = (view: View, sx: number, sy: number): [number, number] => [(sx - view.x) / view.scale, (sy - view.y) / view.scale]

/** Image pixels -> screen (CSS px). */
export const imageToScreen = (view: View, ix: number, iy: number): [number, number] => [ix * view.scale + view.x, iy * view.scale + view.y]

/** Zooms by `factor` keeping the image point under the screen point (sx, sy) where it is. */
export function zoomAt(view: View, factor: number, sx: number, sy: number): View {
  const scale = clampScale(view.scale * factor)
  const [ix, iy] = screenToImage(view, sx, sy)
  return { scale, x: sx - ix * scale, y: sy - iy * scale }
}

/** Moves the image by (dx, dy) screen pixels. */
export const panBy = (view: View, dx: number, dy: number): View => ({ scale: view.scale, x: view.x + dx, y: view.y + dy })

/** The zoom factor of one wheel event: smooth for trackpads, about 10% per mouse-wheel notch. */
export function wheelFactor(deltaY: number, deltaMode: number): number {
  // deltaMode 1 is lines, 2 pages (WheelEvent spec); turn both into pixels first.
  const pixels = deltaMode === 1 ? deltaY * 16 : deltaMode === 2 ? deltaY * 400 : deltaY
  return Math.exp(-Math.max(-200, Math.min(200, pixels)) * 0.001)
}
