import { countTokensRequest, messagesRequest } from '../../../shared/schemas/messages.js'
import { admit, clientBytes, free, jsonAdmission, serveWithFallbacks } from '../admission.js'
import { withInputLimit } from '../families/chat-rules.js'
import type { RequestContext } from '../context.js'
import { holdWorstCase } from '../billing/holds.js'
import { outputCap, tokenQuote } from '../billing/quote-price.js'
import type { Quotable } from './quotable.js'
import { relay } from '../relay/relay.js'
import type { Services } from '../services.js'
import { promptText } from '../tokens/tokens.js'
import { compileValidator } from '../validate.js'

// The model's input cap, checked before any upstream call (families/kit/input-limit.ts).
const inputChecked = withInputLimit((body) => messagesPromptText(body), 'messages')
const MESSAGES = jsonAdmission({
  validate: compileValidator(messagesRequest),
  endpoint: 'messages',
  capability: 'messages',
  rules: (body: Record<string, unknown>, model, ctx) => inputChecked(body, model, ctx.abort),
  // The worst case held is the quote's `max`.
  funds: holdWorstCase<Record<string, unknown>>((body, model, ctx, options) => MESSAGES_QUOTE.price(body, model, ctx, options), 'max_tokens'),
})
// Free, so no funds are needed.
const COUNT_TOKENS = jsonAdmission({ validate: compileValidator(countTokensRequest), endpoint: 'messages', capability: 'countTokens', funds: free })

/** The text of a Messages request: the system prompt and every text-bearing block. */
export function messagesPromptText(body: Record<string, unknown>): string {
  const system = typeof body.system === 'string' ? body.system : promptText([{ role: 'system', content: body.system }])
  return `${system}\n${promptText(body.messages)}`
}

/** What a message can cost: its system prompt and messages, and `max_tokens` (required by the protocol). */
export const MESSAGES_QUOTE: Quotable<Record<string, unknown>> = {
  admission: MESSAGES,
  price: (body, model, ctx, options) => tokenQuote(model, messagesPromptText(body), outputCap(body, ['max_tokens'], model), ctx.abort, options),
}

/** POST /v1/messages: Anthropic's wire format, relayed event by event (spec §4.3, §6). */
export async function messages(ctx: RequestContext, services: Services): Promise<void> {
  await serveWithFallbacks(ctx, services, MESSAGES, await admit(ctx, services, MESSAGES), ({ input, request: body, model, candidates, asSent }) =>
    relay(ctx, services, {
      capability: 'messages',
      model,
      body,
      rawBody: clientBytes(ctx, { input, asSent }, body),
      candidates,
      stream: body.stream === true,
      billable: true,
      promptText: () => messagesPromptText(body),
    }),
  )
}

/** POST /v1/messages/count_tokens: free, but it holds a concurrency slot like any call (spec §8). */
export async function countTokens(ctx: RequestContext, services: Services): Promise<void> {
  const { request: body, model, candidates } = await admit(ctx, services, COUNT_TOKENS)
  await relay(ctx, services, { capability: 'countTokens', model, body, candidates, stream: false, billable: false, promptText: () => '' })
}
