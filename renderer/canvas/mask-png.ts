import { maskToRgba } from './mask-ops'

/**
 * Encodes a coverage buffer as the edit mask PNG (painted = alpha 0, elsewhere alpha 255) at exactly
 * width x height. putImageData writes pixels as given (no smoothing, no resampling) and PNG is lossless,
 * so every alpha value reaches the file unchanged.
 */
export async function encodeMaskPng(coverage: Uint8Array, width: number, height: number): Promise<Blob> {
  const pixels = new ImageData(maskToRgba(coverage, width, height), width, height)
  if (typeof OffscreenCanvas !== 'undefined') {
    const canvas = new OffscreenCanvas(width, height)
    canvas.getContext('2d')!.putImageData(pixels, 0, 0)
    return canvas.convertToBlob({ type: 'image/png' })
  }
  const canvas = document.createElement('canvas')
  canvas.width = width
  canvas.height = height
  canvas.getContext('2d')!.putImageData(pixels, 0, 0)
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('could not encode the mask'))), 'image/png'))
}
