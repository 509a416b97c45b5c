/**
 * What the gateway knows about one model family: the data every model of the family has unless its
 * catalog or config row says otherwise (`defaults`), and the request checks that read that data.
 * A model's effective data is its row deep-merged over `defaults` (families/index.ts), so a model
 * declared with only an id, a family, a vendor and a price gets the whole family's rules.
 */
import type { ImageBodySchema } from '../../../shared/schemas/images.js'
import type { CatalogModel, Endpoint, Family, ModelType } from '../../../shared/types.js'
import type { ImageEndpoint, ImageRule } from './image-request.js'

/** How the gateway can answer a request, in the order a client should prefer (the app uses the first it can). */
export type Delivery = 'async' | 'stream' | 'sync'

/** Catalog fields a family sets for its models (any catalog field; rows override them). */
export type FamilyDefaults = Partial<Omit<CatalogModel, 'id' | 'family' | 'pricing' | 'created'>> & {
  endpoints?: Endpoint[]
  /** How answers come back (`async`: a polled task; `stream`: SSE; `sync`: one response). Published in /spec/models/index.json. */
  delivery?: Delivery[]
}

/**
 * The clip lengths a vendor accepts for the models whose id starts with `prefix`, from its wire notes
 * (docs/vendors): whole seconds from `min` to `max`, or only those of `only`. A model's listed durations are cut
 * to it and its longest clip capped by it, so a catalog or config row cannot offer what the vendor refuses.
 */
export interface DurationRule {
  prefix: string
  min: number
  max: number
  only?: readonly number[]
  /** where the range comes from */
  source: string
}

export interface FamilyModule {
  name: Family
  type: ModelType
  defaults: FamilyDefaults
  /** Video families: the vendor's clip lengths by model (first rule whose prefix matches); others are left to the catalog. */
  videoDurations?: readonly DurationRule[]
  /** Chat families: checks and rewrites of the body before forwarding, after the rules of every family (spec §4.1). */
  chatRules?: readonly MaybeAsyncChatRule[]
  /** Chat families whose `chatRules` check `limits.maxInputTokens` with the model's own tokenizer (the gateway's o200k check is skipped). */
  ownInputLimit?: boolean
  /** Image families: the request check of spec §4.2. */
  imageRule?: ImageRule
  /** Image families: the fields of a model's request-body schema on an endpoint, as `imageRule` checks them (published in /spec/models/index.json). */
  imageSchema?: (model: CatalogModel, endpoint: ImageEndpoint) => ImageBodySchema
}

/** What code that only asks "has the client left?" needs of a signal. */
export interface AbortedFlag {
  readonly aborted: boolean
}

/**
 * What a client can leave through: its `aborted` flag, and a signal for waits that need one (client/client-abort.ts
 * makes it on first use: code that only reads the flag costs no AbortSignal).
 */
export interface ClientLeaving extends AbortedFlag {
  readonly signal: AbortSignal
}

/** A family's request rules: checks (throwing 400) and rewrites of the chat body before forwarding. */
export type ChatRule = (body: Record<string, unknown>, model: CatalogModel) => Record<string, unknown>

/** A rule that may need to wait (Qwen's input-length check loads and runs the tokenizer). */
export type MaybeAsyncChatRule = (body: Record<string, unknown>, model: CatalogModel, signal?: AbortedFlag) => Record<string, unknown> | Promise<Record<string, unknown>>
