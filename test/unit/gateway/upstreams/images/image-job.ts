// An image job as the images runner hands it to a vendor adapter (contract/image-upstream.ts), for the image adapter
// unit tests.
import type { ImageBytes, ImageJob, NormalizedImageRequest } from '../../../../../electron/gateway/contract/image-upstream.js'

export const imageJob = (req: Partial<NormalizedImageRequest>, more: Partial<Omit<ImageJob, 'req'>> = {}): ImageJob => ({
  req: {
    model: 'm', family: 'gpt-image', endpoint: 'generations', prompt: 'a red fox in the snow', n: 1,
    references: [], referenceCount: 0, stream: false, async: false, forward: {},
    ...req,
  },
  images: [],
  ...more,
})

export const bytesOf = (data: Buffer, mimeType = 'image/png', filename = 'ref.png'): ImageBytes => ({ chunks: [data.subarray(0, 3), data.subarray(3)], size: data.length, mimeType, filename })
