import type { CatalogModel, UsageSource, Vendor } from '../../../shared/types.js'
import type { GatewayError } from '../errors.js'
import type { HttpSpec } from './http-spec.js'
import type { UpstreamAccount } from './accounts.js'

/**
 * Usage as billed. Tokens: input excludes cached input and cache writes, which are counted apart. Models priced
 * per character, image or second report `quantity` in that unit. How each vendor's usage maps here:
 * docs/vendor-usage.md.
 */
export interface TokenUsage {
  inputTokens: number
  /** every output token billed, reasoning/thinking included */
  outputTokens: number
  /** cache reads */
  cachedInputTokens?: number
  /** input tokens written to a 5-minute and a 1-hour cache (Anthropic), apart from inputTokens */
  cacheWrite5mTokens?: number
  cacheWrite1hTokens?: number
  /** of inputTokens, the image tokens (gpt-image), priced at pricing.imageInput */
  imageInputTokens?: number
  /** of outputTokens, the reasoning/thinking tokens (priced as output; shown apart in the breakdown) */
  reasoningTokens?: number
  /** where the figures came from; absent: the upstream reported them */
  source?: UsageSource
  quantity?: number
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
  /** the client's request headers, for protocol headers that pass through (anthropic-version, anthropic-beta) */
  clientHeaders?: Readonly<Record<string, string | string[] | undefined>>
  /** the client's body bytes, set only when the body to send is exactly what they parse to */
  rawBody?: Buffer
}

/**
 * The client's request as it arrived (path without query, content type, body bytes): an upstream of this same
 * interface (vendor `gateway`) takes it unchanged.
 */
export interface OriginalRequest {
  path: string
  contentType: string
  body: Buffer
  /** headers to send with it (an Idempotency-Key of the gateway's own) */
  headers?: Record<string, string>
}

/** Translates one upstream stream into client frames, tracking what billing needs. */
export interface ChatStreamTranslator {
  /** Client frames (complete `data: ...\n\n` strings) for one upstream event. */
  push(event: SseEvent): string[]
  /** Usage reported by the upstream, if it reported any. */
  usage(): TokenUsage | undefined
  /**
   * What the upstream reported before its end, where its protocol reports the input first (Anthropic's message_start,
   * Gemini's every chunk): every input class, the output as far as it had counted. A checkpoint and a cut stream take
   * their input from it rather than counting the prompt, unless it is 0 or out of range (money/billed-usage.ts usageSoFar).
   */
  usageSoFar?(): TokenUsage | undefined
  /** The output text produced so far, to count tokens when no usage arrives. */
  producedText(): string
  /**
   * The output so far when it is nothing but the answer's text (no reasoning, no tool call), as a continuation needs
   * it; undefined otherwise, or where the protocol does not tell them apart.
   */
  answerText?(): string | undefined
  /** True once the upstream said the stream is complete. */
  finished(): boolean
  /**
   * True once the stream carried content: text, reasoning, a tool call, or the finish of a real answer. Until then
   * the relay holds the frames back, so that a stream that fails or ends before any content is failed over.
   */
  hasContent(): boolean
  /** The error event the upstream sent inside its stream, for protocols that relay it as a frame (others throw). */
  upstreamError?(): GatewayError | undefined
  /** The frame that ends a stream broken after it started, where the protocol's default does not fit. */
  errorFrame?(code: string, message: string): string
  /**
   * For a body that ended cleanly without the protocol's end: when every answer in it had finished (each choice's
   * finish reason, the message's stop reason), the frames that end it as the upstream should have (the usage chunk
   * the client asked for, from `usage` when the upstream sent none, then the protocol's end); undefined when an
   * answer was left unfinished, which makes the stream an interrupted one.
   */
  endOfAnswer?(usage: TokenUsage | undefined): string[] | undefined
}

/** An answer body for the client, with its usage. */
export interface ChatResult {
  body: string
  usage?: TokenUsage
  /** The answer's output text, counted when its usage cannot be billed */
  outputText?(): string
}

/**
 * One relayed protocol of a vendor (chat completions, responses, messages …): pure transforms, no I/O.
 * The relay sends what `toRequest` builds, fails over, and streams what the translator returns.
 */
export interface RelayAdapter {
  toRequest(body: Record<string, unknown>, ctx: UpstreamCtx): HttpSpec
  fromResponse(text: string, ctx: UpstreamCtx): ChatResult
  streamTranslator(opts: { includeUsage: boolean }, ctx: UpstreamCtx): ChatStreamTranslator
  fromError(status: number, text: string): GatewayError
}

/** The chat-completions adapter is a relay adapter like the others. */
export type ChatAdapter = RelayAdapter

/** The protocols a vendor can serve, each through its own adapter. */
export interface VendorAdapter {
  vendor: Vendor
  chat?: RelayAdapter
  responses?: RelayAdapter
  messages?: RelayAdapter
  countTokens?: RelayAdapter
  speech?: RelayAdapter
  interactions?: RelayAdapter
}

export type RelayCapability = Exclude<keyof VendorAdapter, 'vendor'>
