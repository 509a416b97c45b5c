/** Contract between the image request rules (spec §4.2), the images routes and the vendor adapters. */
import type { CatalogModel } from '../../../shared/types.js'

export type ImageEndpoint = 'generations' | 'edits'

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
  /** A mask file part was sent (multipart); the caller keeps the bytes. */
  maskFile?: boolean
}

/**
 * A checked image request, in the gateway's terms; adapters translate it to their vendor's wire.
 * Absent optional fields mean "not sent: the vendor's default applies".
 */
export interface NormalizedImageRequest {
  model: string
  family: CatalogModel['family']
  endpoint: ImageEndpoint
  /** As sent (checked non-empty once trimmed). */
  prompt: string
  /** Images to generate, defaults applied (GPT: values <= 0 became 1). */
  n: number
  /** Explicit size (GPT, Seedream): `auto` or width x height. Gemini/Kling/Grok map sizes onto tier and aspectRatio. */
  size?: { width: number; height: number } | 'auto'
  /** Output tier in catalog/pricing spelling: GPT 2.0 and Seedream size tiers, Gemini image_size, Kling/Grok resolution upper-cased (2K). */
  tier?: string
  /** Kling/Grok: the vendor's `resolution` value (lower-case, e.g. 2k). */
  resolution?: string
  /** W:H, one of the model's aspectRatios (Gemini always; Kling/Grok when sent or derived from size). */
  aspectRatio?: string
  outputFormat?: string
  background?: string
  /** GPT/Grok quality: forwarded, not validated. */
  quality?: string
  /** GPT: only when kept (synchronous JSON generations, multipart edits). */
  outputCompression?: number
  /** Reference images from the JSON/text fields, as given (HTTP(S) or data: URLs); file parts stay with the caller. */
  references: string[]
  /** References in total: `references` plus the caller's image file parts. */
  referenceCount: number
  /** Mask: the URL/data URL from a JSON body, or true for a multipart file part the caller holds. */
  mask?: string | true
  /** Answer with the gateway images SSE (never with async, never for Gemini). */
  stream: boolean
  /** Answer 202 with a task (Prefer: respond-async honoured for this family). */
  async: boolean
  /** Remaining body fields, forwarded unchanged (model and every field above removed; dropped fields gone). */
  forward: Record<string, unknown>
}

/** One family's rules: throws a 400 GatewayError, or returns the normalized request. */
export type ImageRule = (body: Record<string, unknown>, model: CatalogModel, opts: ImageCheckOptions) => NormalizedImageRequest
