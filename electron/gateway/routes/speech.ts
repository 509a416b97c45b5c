import { speechRequest } from '../../../shared/schemas/speech.js'
import type { CatalogModel } from '../../../shared/types.js'
import { admit, jsonAdmission } from '../admission.js'
import type { RequestContext } from '../context.js'
import { gatewayError } from '../errors.js'
import { holdWorstCase } from '../billing/holds.js'
import { usageQuote } from '../billing/quote-price.js'
import type { Quotable } from './quotable.js'
import { relay } from '../relay/relay.js'
import type { Services } from '../services.js'
import type { TokenUsage } from '../contract/upstream.js'
import { compileValidator } from '../validate.js'


/** Spec-free limits of the model's catalog entry: input length and formats. */
function checkSpeech(body: Record<string, unknown>, model: CatalogModel): Record<string, unknown> {
  // Characters as people count them (code points), which is how the vendor limits and bills them.
  const characters = [...(body.input as string)].length
  const maxChars = typeof model.maxInputChars === 'number' ? model.maxInputChars : undefined
  if (maxChars !== undefined && characters > maxChars) {
    throw gatewayError('invalid_request', 'invalid_field', { field: 'input', detail: { en: `must be at most ${maxChars} characters (got ${characters})`, zh: `不能超过 ${maxChars} 个字符（实际 ${characters}）` } }, { param: 'input' })
  }
  const formats = Array.isArray(model.formats) ? (model.formats as string[]) : undefined
  if (formats && typeof body.response_format === 'string' && !formats.includes(body.response_format)) {
    throw gatewayError('invalid_request', 'invalid_field', { field: 'response_format', detail: { en: `must be one of ${formats.join(', ')}`, zh: `必须是 ${formats.join('、')} 之一` } }, { param: 'response_format' })
  }
  return body
}

const ADMISSION = jsonAdmission({
  validate: compileValidator(speechRequest),
  endpoint: 'audio.speech',
  capability: 'speech',
  rules: checkSpeech,
  // Exactly its characters: the quote's price.
  funds: holdWorstCase<Record<string, unknown>>((body, model, ctx) => SPEECH_QUOTE.price(body, model, ctx)),
})

/** What speech is billed: the input's characters (code points), which is how the vendor limits and bills them. */
function speechUsage(input: string): TokenUsage {
  const characters = [...input].length
  return { inputTokens: 0, outputTokens: 0, quantity: characters, source: 'local_count', raw: { characters } }
}

/** What speech costs: exactly its characters at the model's price. */
export const SPEECH_QUOTE: Quotable<Record<string, unknown>> = {
  admission: ADMISSION,
  price: async (body, model) => {
    const usage = speechUsage(body.input as string)
    return usageQuote(model, usage, { characters: usage.quantity })
  },
}

/** POST /v1/audio/speech: audio streamed back as it arrives, billed per input character (spec §4.3). */
export async function speech(ctx: RequestContext, services: Services): Promise<void> {
  const { request: body, model, candidates } = await admit(ctx, services, ADMISSION)
  const input = body.input as string
  await relay(ctx, services, {
    capability: 'speech',
    model,
    body,
    candidates,
    stream: false,
    billable: true,
    promptText: () => input,
    binaryUsage: speechUsage(input),
  })
}
