import type { GatewayError } from '../../errors.js'
import type { HttpSpec } from '../../http.js'
import type { ImageOutcome } from '../../images/result.js'
import type { NormalizedImageRequest } from '../../images/image-request.js'
import type { OriginalRequest, UpstreamCtx } from '../types.js'

/** A reference image or mask as bytes: multipart file parts, decoded data URLs and downloaded links. */
export interface ImageBytes {
  /** the bytes in the pieces they arrived in (joined only by a vendor that needs them whole) */
  chunks: readonly Buffer[]
  size: number
  mimeType: string
  filename: string
}

/** The image as one buffer, for vendors that take it inline (base64). */
export const wholeImage = (image: ImageBytes): Buffer => (image.chunks.length === 1 ? image.chunks[0] : Buffer.concat(image.chunks, image.size))

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
  /** true when references must arrive as bytes (the vendor takes files or inline data, not links) */
  needsBytes: boolean
  /** one call, or several made in parallel (one image per call) whose outcomes are joined, all or nothing */
  toRequests(job: ImageJob, ctx: UpstreamCtx): HttpSpec[]
  fromResponse(text: string, job: ImageJob): ImageOutcome
  fromError(status: number, text: string): GatewayError
}
