/**
 * The input cap of every model whose catalog row gives `limits.maxInputTokens`: a prompt longer than that is
 * refused with the vendor's own 400 before any upstream call, never forwarded (a 5 MB prompt is not sent to be
 * refused there). A family that counts with the model's own tokenizer (Qwen: families/qwen.ts) checks its own cap.
 *
 * Counting: the prompt's text (message texts, the system prompt, a Responses input) by o200k_base in the token
 * worker (tokens/tokens.ts: off the event loop, in bounded pieces, stopped as soon as the count passes the cap or the
 * client leaves). A prompt whose UTF-8 size is within the cap is let through without counting (a token covers at
 * least one byte). o200k is OpenAI's own tokenizer; other vendors' tokenizers differ by some percent, so a prompt
 * near the cap may still be refused by the vendor (its 400 reaches the client as before). Images, audio and tool
 * definitions are not counted: the check can only answer earlier, never let more through.
 */
import type { CatalogModel } from '../../../../shared/types.js'
import type { MessageId } from '../../../../shared/messages.js'
import type { ClientLeaving } from '../../contract/family.js'
import { gatewayError } from '../../errors.js'
import { countTextTokens } from '../../tokens/tokens.js'

/** How each vendor words the refusal (docs/vendors/*.md, upstreams/context-length.ts); the code is OpenAI's. */
const VENDOR_MESSAGE: Partial<Record<CatalogModel['vendor'], MessageId>> = {
  anthropic: 'input_too_long_anthropic',
  gemini: 'input_too_long_gemini',
  zhipu: 'input_too_long_zhipu',
  dashscope: 'qwen_input_too_long',
}

/** The code every refusal carries: OpenAI's, which clients and the model fallbacks (`context_length`) know. */
export const INPUT_TOO_LONG_CODE = 'context_length_exceeded'

/**
 * Refuses a prompt (the text `textOf` reads) of more than the model's `limits.maxInputTokens` tokens with its vendor's
 * 400 (param `param`). Synchronous and free when the model has no cap or the text's bytes already prove it fits.
 */
export function checkInputLimit(textOf: () => string, model: CatalogModel, client: ClientLeaving | undefined, param: string): void | Promise<void> {
  const max = model.limits?.maxInputTokens
  if (max === undefined) return
  // The text is gathered only for a model with a cap.
  const text = textOf()
  if (Buffer.byteLength(text, 'utf8') <= max) return
  return countTextTokens(text, { client, stopAbove: max }).then((tokens) => {
    if (tokens <= max) return
    throw gatewayError('invalid_request', VENDOR_MESSAGE[model.vendor] ?? 'input_too_long', { max }, { param, upstreamCode: INPUT_TOO_LONG_CODE })
  })
}
