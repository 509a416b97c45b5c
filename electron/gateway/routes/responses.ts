import { responsesRequest } from '../../../shared/schemas/responses.js'
import { admit, clientBytes, jsonAdmission, serveWithFallbacks } from '../admission.js'
import type { RequestContext } from '../context.js'
import { dropUnknownServiceTier, withInputLimit } from '../families/chat-rules.js'
import { holdWorstCase } from '../billing/holds.js'
import { outputCap, tokenQuote } from '../billing/quote-price.js'
import type { Quotable } from './quotable.js'
import { relay } from '../relay/relay.js'
import type { Services } from '../services.js'
import { compileValidator } from '../validate.js'

// `service_tier`, then the model's input cap, checked before any upstream call (families/kit/input-limit.ts).
const inputChecked = withInputLimit((body) => responsesPromptText(body), 'input', dropUnknownServiceTier)
const ADMISSION = jsonAdmission({
  validate: compileValidator(responsesRequest),
  endpoint: 'responses',
  capability: 'responses',
  rules: (body: Record<string, unknown>, model, ctx) => inputChecked(body, model, ctx.abort),
  // The worst case held is the quote's `max`.
  funds: holdWorstCase<Record<string, unknown>>((body, model, ctx, options) => RESPONSES_QUOTE.price(body, model, ctx, options), 'max_output_tokens'),
})

/** The text a Responses `input` carries: a string, or items whose content is text or text parts. */
export function responsesPromptText(body: Record<string, unknown>): string {
  const parts: string[] = [typeof body.instructions === 'string' ? body.instructions : '']
  const collect = (value: unknown): void => {
    if (typeof value === 'string') parts.push(value)
    else if (Array.isArray(value)) value.forEach(collect)
    else if (value && typeof value === 'object') {
      const item = value as { text?: unknown; content?: unknown; output?: unknown }
      collect(item.text)
      collect(item.content)
      collect(item.output)
    }
  }
  collect(body.input)
  return parts.join('\n')
}

/** What a response can cost: its input, and `max_output_tokens` or the model's output limit. */
export const RESPONSES_QUOTE: Quotable<Record<string, unknown>> = {
  admission: ADMISSION,
  price: (body, model, ctx, options) => tokenQuote(model, responsesPromptText(body), outputCap(body, ['max_output_tokens'], model), ctx.abort, options),
}

/** POST /v1/responses: relayed to OpenAI-compatible accounts (spec §4.3). */
export async function responses(ctx: RequestContext, services: Services): Promise<void> {
  await serveWithFallbacks(ctx, services, ADMISSION, await admit(ctx, services, ADMISSION), ({ input, request: body, model, candidates, asSent }) =>
    relay(ctx, services, {
      capability: 'responses',
      model,
      body,
      rawBody: clientBytes(ctx, { input, asSent }, body),
      candidates,
      stream: body.stream === true,
      billable: true,
      promptText: () => responsesPromptText(body),
    }),
  )
}
