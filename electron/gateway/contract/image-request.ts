/** Contract between the image request rules (spec §4.2) and the images routes; the request they produce is the adapters' (upstreams/images/types.ts). */
import type { CatalogModel } from '../../../shared/types.js'
import type { ImageEndpoint, NormalizedImageRequest } from './image-upstream.js'

export type { ImageEndpoint, NormalizedImageRequest } from './image-upstream.js'

/** What the route knows about the request besides its body. */
export interface ImageCheckOptions {
  endpoint: ImageEndpoint
  /** `Prefer: respond-async` was sent (honoured by every family but Seedream, which answers synchronously). */
  async: boolean
  /** The key's group generates one image per request: n > 1 answers 400. */
  singleImageGroup?: boolean
  /** The Gemini "official direct" group: each data-URL reference at most 20 MiB decoded. */
  officialDirect?: boolean
  /** Edits sent as multipart/form-data: text fields arrive as strings (n, output_compression, stream are coerced). */
  multipart?: boolean
  /** Image file parts of a multipart body (field image / image[]); counted with the URL references. */
  imageFiles?: number
  /** Their sizes in bytes, in order (a vendor that takes them as data: URLs has a limit on those). */
  imageFileBytes?: readonly number[]
  /** A mask file part was sent (multipart); the caller keeps the bytes. */
  maskFile?: boolean
}

/** One family's rules: throws a 400 GatewayError, or returns the normalized request. */
export type ImageRule = (body: Record<string, unknown>, model: CatalogModel, opts: ImageCheckOptions) => NormalizedImageRequest
