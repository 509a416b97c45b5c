/**
 * Reading and shrinking picked images without holding them whole as text: the size comes from an object URL
 * (the browser reads the header), and the smaller copy is decoded straight to its new size with
 * createImageBitmap and encoded on an OffscreenCanvas. No full-size data URL is ever made.
 */
import type { ImageFacts } from './image-fit'

/** The natural pixel size of an image behind a URL (an object URL of the file). */
export function naturalSize(url: string): Promise<{ width: number; height: number }> {
  return new Promise((resolve, reject) => {
    const img = new Image()
    img.onload = () => resolve({ width: img.naturalWidth, height: img.naturalHeight })
    img.onerror = () => reject(new Error('could not read the image'))
    img.src = url
  })
}

/** Pixel size and file size of a picked image. */
export async function imageFacts(file: Blob): Promise<ImageFacts> {
  const url = URL.createObjectURL(file)
  try {
    return { ...(await naturalSize(url)), bytes: file.size }
  } finally {
    URL.revokeObjectURL(url)
  }
}

/** A W×H copy of the image: PNG stays PNG (it may have transparency), anything else becomes JPEG. */
export async function downscaleImage(file: File, width: number, height: number): Promise<File> {
  const bitmap = await createImageBitmap(file, { resizeWidth: width, resizeHeight: height, resizeQuality: 'high' })
  try {
    const canvas = new OffscreenCanvas(width, height)
    canvas.getContext('2d')!.drawImage(bitmap, 0, 0)
    const type = file.type === 'image/png' ? 'image/png' : 'image/jpeg'
    const blob = await canvas.convertToBlob({ type, quality: 0.9 })
    const name = type === 'image/jpeg' ? file.name.replace(/\.[^.]*$/, '') + '.jpg' : file.name
    return new File([blob], name, { type })
  } finally {
    bitmap.close()
  }
}
