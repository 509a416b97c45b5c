/**
 * The Qwen family (spec §4.1 row "Qwen-style group"): its defaults and request rules; limits come from
 * the model's effective data (`input`, `limits.maxOutputTokens`, `limits.maxInputTokens`).
 * @see ../../../docs/vendors/dashscope.md §2
 */
import { gatewayError } from '../errors.js'
import type { ChatRule, MaybeAsyncChatRule } from '../contract/family.js'
import type { FamilyModule } from '../contract/family.js'
import { dataUrlImageSize } from '../formats/image-dimensions.js'
import { countQwenTokens, qwenPromptSegments, utf8Bound } from './qwen-tokens.js'
import { contentKindRule, contentParts, maxTokensRule } from './kit/rule-helpers.js'


type Obj = Record<string, unknown>

/** Spec §4.1: image width and height must exceed this many pixels. */
export const QWEN_MIN_IMAGE_SIDE = 10

/**
 * Images whose width or height is QWEN_MIN_IMAGE_SIDE px or less answer 400 (DashScope's wording).
 * The size is read from the header of `data:` URLs (PNG, JPEG, GIF, WebP, BMP). HTTP(S) URLs are
 * forwarded unchecked: checking them would mean fetching them; the upstream still rejects.
 * Images of unknown format or with unreadable headers are forwarded too.
 */
export const qwenImageMinSize: ChatRule = (body) => {
  for (const { part, path } of contentParts(body)) {
    if (part.type !== 'image_url') continue
    const image = part.image_url
    const url = typeof image === 'string' ? image : typeof image === 'object' && image !== null ? (image as Obj).url : undefined
    if (typeof url !== 'string') continue
    const size = dataUrlImageSize(url)
    if (!size || (size.width > QWEN_MIN_IMAGE_SIDE && size.height > QWEN_MIN_IMAGE_SIDE)) continue
    throw gatewayError(
      'invalid_request',
      'qwen_image_too_small',
      { width: size.width, height: size.height, min: QWEN_MIN_IMAGE_SIDE },
      { param: typeof image === 'string' ? `${path}.image_url` : `${path}.image_url.url` },
    )
  }
  return body
}

/**
 * A model with `limits.maxInputTokens` answers 400 "Range of input length should be [1, N]" when
 * the prompt has more tokens, before any upstream call. Synchronous (and free of the tokenizer)
 * whenever the prompt's UTF-8 size already proves it fits, which is every ordinary request; else
 * it counts with Qwen's tokenizer (see qwen-tokens.ts for what is counted and the error bound), and
 * stops counting when the client leaves (`signal`).
 */
export const qwenInputLength: MaybeAsyncChatRule = (body, model, signal) => {
  const max = model.limits?.maxInputTokens
  if (max === undefined) return body
  const segments = qwenPromptSegments(body)
  if (utf8Bound(segments) <= max) return body
  return countQwenTokens(segments, max, signal).then((tokens) => {
    if (tokens > max) throw gatewayError('invalid_request', 'qwen_input_too_long', { max }, { param: 'messages' })
    return body
  })
}

/**
 * Qwen: parts of a kind the model does not read (catalog `input`; the text-only model rejects
 * images and video, unknown part types such as `input_audio` are forwarded), images of 10 px or
 * less per side, max_tokens 1..limits.maxOutputTokens, input cap from limits.maxInputTokens.
 * Only the last rule can be asynchronous: await each rule's result.
 */
export const qwenRules: MaybeAsyncChatRule[] = [
  contentKindRule(false),
  qwenImageMinSize,
  maxTokensRule('qwen_max_tokens_range'),
  qwenInputLength,
]

/**
 * Qwen defaults: images and video read (the text-only model's row says `input: ["text"]`), max_tokens
 * up to 131072. The input cap is one model's (its row's `limits.maxInputTokens`), not the family's.
 */
export const qwenFamily: FamilyModule = {
  name: 'qwen',
  type: 'chat',
  defaults: {
    // A typical answer's tokens for the quote's `expected` (catalog _spec `typicalOutputTokens`: source and why).
    typicalOutputTokens: 1000,
    endpoints: ['chat.completions', 'responses'],
    input: ['text', 'image', 'video'],
    limits: { maxOutputTokens: 131072 },
  },
  chatRules: qwenRules,
  ownInputLimit: true,
}
