/**
 * Drawing of the mask editor's three layers (image, mask overlay, brush cursor). Each function redraws
 * one whole layer from its inputs; the component only sizes the canvases and calls these.
 */
import { overlayRgba, type MaskTool, type OverlayColors, type Rect } from './mask-ops'
import type { View } from './viewport'

type Ctx2D = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D

/** A canvas's size in CSS pixels and its device pixel ratio (the backing store is width*dpr x height*dpr). */
export interface Surface {
  width: number
  height: number
  dpr: number
}


function startLayer(ctx: Ctx2D, surface: Surface): void {
  ctx.setTransform(1, 0, 0, 1, 0, 0)
  ctx.clearRect(0, 0, surface.width * surface.dpr, surface.height * surface.dpr)
}

function applyView(ctx: Ctx2D, view: View, surface: Surface): void {
  const k = view.scale * surface.dpr
  ctx.setTransform(k, 0, 0, k, view.x * surface.dpr, view.y * surface.dpr)
}

/** The reference image at the view transform. */
export function renderImageLayer(ctx: Ctx2D, image: CanvasImageSource, size: { width: number; height: number }, view: View, surface: Surface): void {
  startLayer(ctx, surface)
  applyView(ctx, view, surface)
  // Smooth when shrunk (readable), pixelated when zoomed in (so each mask pixel lines up with an image pixel).
  ctx.imageSmoothingEnabled = view.scale < 1
  ctx.drawImage(image, 0, 0, size.width, size.height)
}

/** The painted area, drawn from an image-sized overlay canvas with hard pixel edges at `opacity` (0..1). */
export function renderMaskLayer(ctx: Ctx2D, overlay: CanvasImageSource, size: { width: number; height: number }, view: View, surface: Surface, opacity: number): void {
  startLayer(ctx, surface)
  applyView(ctx, view, surface)
  ctx.imageSmoothingEnabled = false
  ctx.globalAlpha = opacity
  ctx.drawImage(overlay, 0, 0, size.width, size.height)
  ctx.globalAlpha = 1
}

/**
 * The brush outline at the pointer (screen CSS px), a crosshair for the selection tools, and the box being
 * dragged for "select object"; nothing when the pointer is elsewhere.
 */
export function renderCursorLayer(ctx: Ctx2D, cursor: { x: number; y: number } | null, radiusPx: number, tool: MaskTool, surface: Surface, box?: { from: readonly [number, number]; to: readonly [number, number] } | null): void {
  startLayer(ctx, surface)
  ctx.setTransform(surface.dpr, 0, 0, surface.dpr, 0, 0)
  if (box) {
    const [x, y, w, h] = [Math.min(box.from[0], box.to[0]), Math.min(box.from[1], box.to[1]), Math.abs(box.to[0] - box.from[0]), Math.abs(box.to[1] - box.from[1])]
    ctx.lineWidth = 1
    ctx.setLineDash([5, 4])
    ctx.strokeStyle = 'rgba(0, 0, 0, 0.85)'
    ctx.strokeRect(x - 0.5, y - 0.5, w + 1, h + 1)
    ctx.strokeStyle = 'rgba(255, 255, 255, 0.95)'
    ctx.strokeRect(x + 0.5, y + 0.5, w - 1, h - 1)
    ctx.setLineDash([])
  }
  if (!cursor) return
  if (tool === 'wand' || tool === 'object') {
    ctx.lineWidth = 1
    for (const [style, d] of [['rgba(0, 0, 0, 0.85)', 1], ['rgba(255, 255, 255, 0.95)', 0]] as const) {
      ctx.strokeStyle = style
      ctx.beginPath()
      ctx.moveTo(cursor.x - 8 + d, cursor.y + d)
      ctx.lineTo(cursor.x + 8 + d, cursor.y + d)
      ctx.moveTo(cursor.x + d, cursor.y - 8 + d)
      ctx.lineTo(cursor.x + d, cursor.y + 8 + d)
      ctx.stroke()
    }
    return
  }
  const r = Math.max(radiusPx, 1)
  // Two rings, dark and light, so the outline shows on any image.
  ctx.lineWidth = 1
  ctx.setLineDash(tool === 'eraser' ? [4, 3] : [])
  ctx.strokeStyle = 'rgba(0, 0, 0, 0.85)'
  ctx.beginPath()
  ctx.arc(cursor.x, cursor.y, r + 1, 0, Math.PI * 2)
  ctx.stroke()
  ctx.strokeStyle = 'rgba(255, 255, 255, 0.95)'
  ctx.beginPath()
  ctx.arc(cursor.x, cursor.y, r, 0, Math.PI * 2)
  ctx.stroke()
  ctx.setLineDash([])
}

/** Copies the coverage inside `rect` into the image-sized overlay canvas (full-opacity hatch; the layer applies opacity). */
export function writeOverlayRegion(ctx: Ctx2D, coverage: Uint8Array, width: number, rect: Rect, colors: OverlayColors): void {
  const data = overlayRgba(coverage, width, rect, colors)
  ctx.putImageData(new ImageData(data, rect.width, rect.height), rect.x, rect.y)
}

/** The average colour of an image (drawn at 16×16), from which the overlay's colours are chosen. */
export function meanColor(image: CanvasImageSource): [number, number, number] {
  const canvas = document.createElement('canvas')
  canvas.width = 16
  canvas.height = 16
  const ctx = canvas.getContext('2d', { willReadFrequently: true })
  if (!ctx) return [128, 128, 128]
  ctx.drawImage(image, 0, 0, 16, 16)
  const { data } = ctx.getImageData(0, 0, 16, 16)
  const sum = [0, 0, 0]
  for (let i = 0; i < data.length; i += 4) for (let c = 0; c < 3; c++) sum[c] += data[i + c]
  const n = data.length / 4
  return [sum[0] / n, sum[1] / n, sum[2] / n]
}
