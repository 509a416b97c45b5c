import type { ImageBytes } from '../contract/image-upstream.js'

/** The image as one buffer, for vendors that take it inline (base64) and for decoders. */
export const wholeImage = (image: ImageBytes): Buffer => (image.chunks.length === 1 ? image.chunks[0] : Buffer.concat(image.chunks, image.size))
