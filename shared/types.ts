/** Types shared by the gateway and the renderer. */

export const VENDORS = ['openai', 'anthropic', 'gemini', 'ark', 'dashscope', 'kling', 'minimax', 'xai', 'zhipu', 'gateway'] as const
export type Vendor = (typeof VENDORS)[number]

export const FAMILIES = [
  'gpt', 'gemini', 'glm', 'glm-flash', 'qwen', 'claude',
  'gpt-image', 'gemini-image', 'seedream', 'kling-image', 'grok-image',
  'seedance', 'kling-video', 'hailuo', 'wan', 'grok-video',
  'gemini-interactions', 'tts',
] as const
export type Family = (typeof FAMILIES)[number]

export const MODEL_TYPES = ['chat', 'image', 'video', 'speech', 'interactions'] as const
export type ModelType = (typeof MODEL_TYPES)[number]

/** Every family belongs to one model type. */
export const FAMILY_TYPE: Record<Family, ModelType> = {
  gpt: 'chat', gemini: 'chat', glm: 'chat', 'glm-flash': 'chat', qwen: 'chat', claude: 'chat',
  'gpt-image': 'image', 'gemini-image': 'image', seedream: 'image', 'kling-image': 'image', 'grok-image': 'image',
  seedance: 'video', 'kling-video': 'video', hailuo: 'video', wan: 'video', 'grok-video': 'video',
  'gemini-interactions': 'interactions', tts: 'speech',
}

/** Gateway endpoints a model can be called on (catalog field `endpoints`). */
export const ENDPOINTS = [
  'chat.completions', 'responses', 'messages', 'images.generations', 'images.edits',
  'video.generate', 'video.native', 'interactions', 'audio.speech',
] as const
export type Endpoint = (typeof ENDPOINTS)[number]

export type Pricing =
  | {
      unit: 'token'
      /** USD per 1M uncached input tokens (text; image input too when `imageInput` is absent) */
      input: number
      /** USD per 1M output tokens, reasoning/thinking included */
      output: number
      /** USD per 1M cache-read input tokens; absent: `input` */
      cachedInput?: number
      /** USD per 1M input tokens written to a 5-minute cache (Anthropic); absent: `input` */
      cacheWrite5m?: number
      /** USD per 1M input tokens written to a 1-hour cache (Anthropic); absent: `input` */
      cacheWrite1h?: number
      /** USD per 1M image input tokens (gpt-image); absent: `input` */
      imageInput?: number
    }
  | { unit: 'image'; price: number; byTier?: Record<string, number> }
  | { unit: 'second'; price: number; byResolution?: Record<string, number> }
  | { unit: 'character'; price: number }

/**
 * Where a ledger row's usage figures came from: the vendor's own report, the gateway's count (the vendor sent none,
 * or a stream was cut), or the amount reserved before the call (billed as reserved).
 */
export const USAGE_SOURCES = ['upstream', 'local_count', 'reserved'] as const
export type UsageSource = (typeof USAGE_SOURCES)[number]

/** What one part of a bill counts (docs/vendor-usage.md). */
export const USAGE_COMPONENTS = [
  'input', 'cached_input', 'cache_write_5m', 'cache_write_1h', 'image_input', 'output', 'reasoning',
  'images', 'seconds', 'characters',
] as const
export type UsageComponentKind = (typeof USAGE_COMPONENTS)[number]

/** One priced part of a bill: how many units, at what list price, costing how much. */
export interface PricedComponent {
  kind: UsageComponentKind
  /** tokens, images, seconds or characters */
  units: number
  /** USD per `per` */
  unitPrice: number
  per: '1M tokens' | 'image' | 'second' | '1M characters'
  /** USD */
  cost: number
}

export interface ModelLimits {
  contextTokens?: number
  maxOutputTokens?: number
  maxInputTokens?: number
}

/** One catalog entry; family-specific variant data rides along as extra fields. */
export interface CatalogModel {
  id: string
  family: Family
  type: ModelType
  vendor: Exclude<Vendor, 'gateway'>
  name?: string
  created: number
  pricing: Pricing
  limits?: ModelLimits
  endpoints?: Endpoint[]
  deprecated?: { replacement: string }
  retired?: boolean
  /** models tried in order when this one's accounts fail with one of the listed error classes (README "Model mapping and fallbacks") */
  fallbacks?: ModelFallback[]
  [variant: string]: unknown
}

/**
 * The error classes that send a request on to a fallback model: `unavailable` (every account failed with 5xx, a
 * timeout or an open breaker), `rate_limited` (they answered 429), `context_length` (the prompt is longer than the
 * model takes). A content filter's refusal is never one.
 */
export const FALLBACK_TRIGGERS = ['unavailable', 'rate_limited', 'context_length'] as const
export type FallbackTrigger = (typeof FALLBACK_TRIGGERS)[number]

/** One fallback of a model: the model tried next, and the error classes that lead to it. */
export interface ModelFallback {
  model: string
  on: FallbackTrigger[]
}

export type GroupProtocol = 'chat' | 'messages'
