import type { Vendor } from '../../../../shared/types.js'
import { arkSeedream } from './ark-seedream.js'
import { gatewayImages } from './gateway-images.js'
import { geminiImages } from './gemini-images.js'
import { klingImages } from './kling-images.js'
import { openAIImages } from './openai-images.js'
import type { ImageAdapter } from '../../contract/image-upstream.js'
import { xaiImages } from './xai-images.js'

const IMAGE_ADAPTERS: Partial<Record<Vendor, ImageAdapter>> = {
  openai: openAIImages,
  gemini: geminiImages,
  ark: arkSeedream,
  xai: xaiImages,
  kling: klingImages,
  gateway: gatewayImages,
}

/** The image API of a vendor, if it has one the gateway speaks. */
export function imageAdapterFor(vendor: Vendor): ImageAdapter | undefined {
  return IMAGE_ADAPTERS[vendor]
}
