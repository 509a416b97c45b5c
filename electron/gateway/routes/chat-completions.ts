import { chatCompletionRequest } from '../../../shared/schemas/chat.js'
import { admit, clientBytes, jsonAdmission, serveWithFallbacks, type Admitted } from '../admission.js'
import type { RequestContext } from '../context.js'
import { applyChatRules } from '../families/chat-rules.js'
import { holdWorstCase } from '../billing/holds.js'
import { outputCap, tokenQuote } from '../billing/quote-price.js'
import type { Quotable } from './quotable.js'
import { relay } from '../relay/relay.js'
import type { Services } from '../services.js'
import { promptText } from '../tokens/tokens.js'
import { compileValidator } from '../validate.js'

const ADMISSION = jsonAdmission({
  validate: compileValidator(chatCompletionRequest),
  endpoint: 'chat.completions',
  capability: 'chat',
  rules: (body, model, ctx) => applyChatRules(body, model, ctx.abort),
  // The worst case held is the quote's `max`.
  funds: holdWorstCase<Record<string, unknown>>((body, model, ctx, options) => CHAT_QUOTE.price(body, model, ctx, options), 'max_tokens'),
})

/**
 * What a chat completion can cost: its prompt, and per answer asked for (`n`, checked by the chat rules) a typical
 * answer (expected) or `max_completion_tokens` / `max_tokens` or the model's output limit (max).
 */
export const CHAT_QUOTE: Quotable<Record<string, unknown>> = {
  admission: ADMISSION,
  price: (body, model, ctx, options) => tokenQuote(model, promptText(body.messages), outputCap(body, ['max_completion_tokens', 'max_tokens'], model), ctx.abort, { ...options, n: typeof body.n === 'number' ? body.n : 1 }),
}

/** POST /v1/chat/completions (spec §4.1). */
export async function chatCompletions(ctx: RequestContext, services: Services): Promise<void> {
  await serveWithFallbacks(ctx, services, ADMISSION, await admit(ctx, services, ADMISSION), (served) => relayChat(ctx, services, served))
}

/** One model's try: the admitted body (usage always asked of streams) through the model's accounts. */
async function relayChat(ctx: RequestContext, services: Services, admitted: Admitted<Record<string, unknown>, Record<string, unknown>, void>): Promise<void> {
  const { request: body, model, candidates } = admitted
  const stream = body.stream === true
  const streamOptions = (body.stream_options ?? {}) as Record<string, unknown>
  const includeUsage = streamOptions.include_usage === true
  // Usage is always requested upstream for billing; the client sees it only if it asked (spec §4.1).
  const upstreamBody = stream && !includeUsage ? { ...body, stream_options: { ...streamOptions, include_usage: true } } : body
  await relay(ctx, services, {
    capability: 'chat',
    model,
    body: upstreamBody,
    rawBody: clientBytes(ctx, admitted, upstreamBody),
    candidates,
    stream,
    includeUsage,
    billable: true,
    promptText: () => promptText(body.messages),
  })
}
