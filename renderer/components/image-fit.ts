/**
 * Whether a picked image can be sent as it is, must be made smaller first, or cannot be used: from its pixel
 * size and file size, against what the gateway and the model accept. Pure: the decoding and resizing are in
 * downscale-image.ts.
 */

/** The gateway's body limit (electron/gateway/client/body.ts MAX_BODY_BYTES). */
export const GATEWAY_BODY_BYTES = 60_000_000
/** Base64 (data URLs in JSON bodies) takes 4 characters for every 3 bytes. */
const BASE64_RATIO = 4 / 3
/** Above this many pixels the tab does not even try to decode the picture (about 480 MB of memory once decoded). */
export const DECODE_CEILING_PIXELS = 120_000_000
/** Re-encoded pictures come out at about the same bytes per pixel; aim this much under the limit to leave room. */
const BYTES_MARGIN = 0.85

/** What the app knows of a picked image before decoding it: its pixel size (from the header) and its file size. */
export interface ImageFacts {
  width: number
  height: number
  bytes: number
}

/** What one image may be where it is sent. */
export interface ImageLimits {
  /** largest file for one image, in bytes */
  maxBytes: number
  /** longest side, in pixels */
  maxSide: number
  /** shortest side the model accepts; an image that would have to shrink below it is refused */
  minSide?: number
}

export type FitDecision =
  | { kind: 'keep' }
  | { kind: 'downscale'; width: number; height: number; why: 'bytes' | 'side' }
  | { kind: 'refuse'; why: 'decode' | 'minSide'; limit: number }

/**
 * Where an image goes: a chat message (every turn resends it, and vision models read about 2 megapixels:
 * Anthropic caps one image at 5 MB), a reference image of an image model, or a video's frame (Kling and Ark
 * take at most 10 MB per image; Kling at least 300 px).
 */
export type ImageUse = 'chat' | 'reference' | 'video'

const USE_LIMITS: Record<ImageUse, ImageLimits> = {
  chat: { maxBytes: 5_000_000, maxSide: 2048 },
  reference: { maxBytes: 10_000_000, maxSide: 4096 },
  video: { maxBytes: 10_000_000, maxSide: 4096, minSide: 300 },
}

/**
 * The limits of one use, narrowed by the model's own cap on a data URL (its schema's `maxLength`) and by the
 * gateway's body limit, both of which count base64 characters.
 */
export function limitsFor(use: ImageUse, modelDataUrlMax?: number): ImageLimits {
  const base = USE_LIMITS[use]
  const caps = [base.maxBytes, Math.floor(GATEWAY_BODY_BYTES / BASE64_RATIO)]
  if (modelDataUrlMax !== undefined) caps.push(Math.floor(modelDataUrlMax / BASE64_RATIO) - 64)
  return { ...base, maxBytes: Math.min(...caps) }
}

/** Keep, downscale to W×H (the same shape), or refuse with the limit that cannot be met. */
export function fitImage(facts: ImageFacts, limits: ImageLimits): FitDecision {
  const { width, height, bytes } = facts
  if (width * height > DECODE_CEILING_PIXELS) return { kind: 'refuse', why: 'decode', limit: DECODE_CEILING_PIXELS }
  const long = Math.max(width, height)
  const bySide = Math.min(1, limits.maxSide / long)
  // File size grows about with the pixel count, so the side shrinks with its square root.
  const byBytes = bytes > limits.maxBytes ? Math.sqrt((limits.maxBytes * BYTES_MARGIN) / bytes) : 1
  const scale = Math.min(bySide, byBytes)
  if (scale >= 1) return { kind: 'keep' }
  const w = Math.max(1, Math.floor(width * scale))
  const h = Math.max(1, Math.floor(height * scale))
  if (limits.minSide !== undefined && Math.min(w, h) < limits.minSide) return { kind: 'refuse', why: 'minSide', limit: limits.minSide }
  return { kind: 'downscale', width: w, height: h, why: byBytes < bySide ? 'bytes' : 'side' }
}

/** Megabytes with one decimal, for messages ("5.0 MB"). */
export const megabytes = (bytes: number): string => `${(bytes / 1_000_000).toFixed(1)} MB`
