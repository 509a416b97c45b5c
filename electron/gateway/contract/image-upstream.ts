/** Contract between the images runner and the vendor image adapters: it depends on nothing above upstreams/. */
import type { CatalogModel } from '../../../shared/types.js'
import type { GatewayError } from '../errors.js'
import type { HttpSpec } from './http-spec.js'
import type { OriginalRequest, TokenUsage, UpstreamCtx } from './upstream.js'

export type ImageEndpoint = 'generations' | 'edits'

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

/** One generated image, as a vendor gave it: inline bytes (base64) or a link. */
export interface GeneratedImage {
  b64?: string
  url?: string
  mimeType: string
  revisedPrompt?: string
}

export interface ImageOutcome {
  images: GeneratedImage[]
  /** token usage, for models priced per token */
  usage?: TokenUsage
  /** the output tier the images were made at, for per-tier prices */
  tier?: string
}


/** A reference image or mask as bytes: multipart file parts, decoded data URLs and downloaded links. */
export interface ImageBytes {
  /** the bytes in the pieces they arrived in (joined only by a vendor that needs them whole) */
  chunks: readonly Buffer[]
  size: number
  mimeType: string
  filename: string
}

/** A checked image request with the bytes the vendor needs (which families need bytes: see `needsBytes`). */
export interface ImageJob {
  req: NormalizedImageRequest
  /** reference images as bytes, in order (files first, then references), when the adapter needs bytes */
  images: ImageBytes[]
  /** the mask, already fitted to the first reference image (PNG with alpha) */
  mask?: Buffer
  /** the client's request unchanged, for adapters that forward it as it came (vendor `gateway`) */
  original?: OriginalRequest
}

/** Vendors whose image API is a task: create, then poll until the images exist. */
export interface ImageTaskSteps {
  /** the vendor's task id from the create answer (throws a GatewayError for an error envelope) */
  fromCreate(text: string): string
  toPoll(taskId: string, ctx: UpstreamCtx): HttpSpec
  /** the images once the task succeeded, undefined while it runs; throws a GatewayError when it failed */
  fromPoll(text: string, job: ImageJob): ImageOutcome | undefined
  /** the wait between polls */
  intervalMs: number
}

/** One vendor's image API: pure transforms, no I/O. */
export interface ImageAdapter {
  /** set when the vendor answers with a task to poll instead of the images */
  task?: ImageTaskSteps
  /**
   * true when references must arrive as bytes (the vendor takes files or inline data, not links); false: they arrive
   * in `req.references` as links and data: URLs, multipart file parts first, turned into data: URLs
   */
  needsBytes: boolean
  /** one call, or several made in parallel (one image per call) whose outcomes are joined, all or nothing */
  toRequests(job: ImageJob, ctx: UpstreamCtx): HttpSpec[]
  fromResponse(text: string, job: ImageJob): ImageOutcome
  fromError(status: number, text: string): GatewayError
}
