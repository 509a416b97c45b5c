import { dataUrlBytes, parseDataUrl } from '../formats/data-url.js'
import { sniffRaster } from '../formats/media-sniff.js'
import { GatewayError, gatewayError } from '../errors.js'
import { DownloadError, type Http } from '../upstreams/http.js'
import { checkImageHeader } from './image-limits.js'
import type { UploadedFile } from './multipart.js'
import type { ImageBytes } from '../contract/image-upstream.js'

/** Spec §4.2: a remote reference image is at most 26,214,400 bytes. */
export const MAX_REMOTE_IMAGE_BYTES = 26_214_400

const extension = (mimeType: string) => mimeType.split('/')[1]?.replace('jpeg', 'jpg') ?? 'bin'

/** One reference (data URL or link) as bytes; a link is downloaded (image/* only, size-capped). */
export async function referenceBytes(http: Http, ref: string, index: number, param: string, signal: AbortSignal): Promise<ImageBytes> {
  const data = parseDataUrl(ref)
  if (data) {
    const mimeType = data.mimeType || 'image/png'
    const { bytes } = dataUrlBytes(data)
    return { chunks: [bytes], size: bytes.length, mimeType, filename: `image-${index}.${extension(mimeType)}` }
  }
  try {
    const { bytes, mimeType } = await http.download(ref, MAX_REMOTE_IMAGE_BYTES, signal)
    checkImageHeader(bytes, param)
    return { chunks: [bytes], size: bytes.length, mimeType, filename: `image-${index}.${extension(mimeType)}` }
  } catch (err) {
    if (err instanceof GatewayError) throw err
    const detail = err instanceof DownloadError ? err.message : 'could not be downloaded'
    throw gatewayError('invalid_request', 'reference_image_unusable', { url: ref.slice(0, 200), detail }, { param })
  }
}

/** The request's reference images as bytes: file parts first, then the references in order. */
export async function allReferenceBytes(http: Http, files: UploadedFile[], refs: string[], signal: AbortSignal): Promise<ImageBytes[]> {
  const fromFiles = files.map((f, i) => ({ chunks: f.chunks, size: f.size, mimeType: f.mimeType, filename: f.filename || `image-${i}.${extension(f.mimeType)}` }))
  const fromRefs = await Promise.all(refs.map((ref, i) => referenceBytes(http, ref, fromFiles.length + i, `image[${fromFiles.length + i}]`, signal)))
  return [...fromFiles, ...fromRefs]
}

/**
 * File parts as data: URLs, for the vendors that take references inline in a JSON body (Seedream, Grok), in the
 * order they came. The type is the bytes' own (PNG, JPEG, WebP, GIF), else the type the client gave the part.
 */
export function fileDataUrls(files: readonly UploadedFile[]): string[] {
  return files.map((file) => {
    const bytes = Buffer.concat(file.chunks)
    return `data:${sniffRaster(bytes) ?? file.mimeType};base64,${bytes.toString('base64')}`
  })
}
