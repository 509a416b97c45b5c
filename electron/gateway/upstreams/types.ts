import type { CatalogModel, Vendor } from '../../../shared/types.js'
import type { GatewayError } from '../errors.js'
import type { HttpSpec } from '../http.js'
import type { UpstreamAccount } from '../registry.js'

/** Token usage as billed: input excludes cached input, which is counted apart. */
export interface TokenUsage {
  inputTokens: number
  outputTokens: number
  cachedInputTokens?: number
  /** the vendor's usage object, kept for the ledger */
  raw?: unknown
}

/** One server-sent event as parsed from the upstream. */
export interface SseEvent {
  event?: string
  data: string
}

export interface UpstreamCtx {
  upstream: UpstreamAccount
  model: CatalogModel
}

/** Translates one upstream stream into client frames, tracking what billing needs. */
export interface ChatStreamTranslator {
  /** Client frames (complete `data: ...\n\n` strings) for one upstream event. */
  push(event: SseEvent): string[]
  /** Usage reported by the upstream, if it reported any. */
  usage(): TokenUsage | undefined
  /** The output text produced so far, to count tokens when no usage arrives. */
  producedText(): string
  /** True once the upstream said the stream is complete. */
  finished(): boolean
}

/** A chat completion body for the client, with its usage. */
export interface ChatResult {
  body: string
  usage?: TokenUsage
}

/** The chat-completions side of a vendor adapter: pure transforms, no I/O. */
export interface ChatAdapter {
  toRequest(body: Record<string, unknown>, ctx: UpstreamCtx): HttpSpec
  fromResponse(text: string, ctx: UpstreamCtx): ChatResult
  streamTranslator(opts: { includeUsage: boolean }, ctx: UpstreamCtx): ChatStreamTranslator
  fromError(status: number, text: string): GatewayError
}

/** What a vendor can do; later issues add images, video, messages. */
export interface VendorAdapter {
  vendor: Vendor
  chat?: ChatAdapter
}
