import { quoteRequest, type QuotablePath } from '../../../shared/schemas/quote.js'
import { admit, free } from '../admission.js'
import { readJson } from '../client/body.js'
import type { RequestContext } from '../context.js'
import { gatewayError } from '../errors.js'
import { nanoToUsd } from '../money/money.js'
import { priceBasis } from '../billing/quote-price.js'
import type { Quotable } from './quotable.js'
import { sendJson } from '../respond.js'
import type { Route } from '../router.js'
import type { Services } from '../services.js'
import { compileValidator } from '../validate.js'
import { CHAT_QUOTE } from './chat-completions.js'
import { IMAGE_QUOTES } from './images.js'
import { MESSAGES_QUOTE } from './messages.js'
import { RESPONSES_QUOTE } from './responses.js'
import { SPEECH_QUOTE } from './speech.js'
import { VIDEO_QUOTES } from './video.js'

const validateQuote = compileValidator(quoteRequest)
const EMPTY = Buffer.alloc(0)

/** Each billable path's own admission and pricing. */
const QUOTABLE: Record<QuotablePath, Quotable<unknown>> = {
  '/v1/chat/completions': CHAT_QUOTE,
  '/v1/responses': RESPONSES_QUOTE,
  '/v1/messages': MESSAGES_QUOTE,
  '/v1/images/generations': IMAGE_QUOTES.generations,
  '/v1/images/edits': IMAGE_QUOTES.edits,
  '/v1/video/generate': VIDEO_QUOTES.generate,
  '/v1/audio/speech': SPEECH_QUOTE,
  '/api/v1/services/aigc/video-generation/video-synthesis': VIDEO_QUOTES.native,
}

/**
 * POST /v1/quote: the price of a call before it is made. The target endpoint's own admission runs on the inner
 * request (same schema, model, group, family rules and accounts, so the same 400/404 answers), all but its funds
 * step: nothing is reserved, and a key without balance still gets a price. No upstream is called, nothing billed.
 */
export async function quote(ctx: RequestContext, services: Services, routes: readonly Route[]): Promise<void> {
  const body = readJson(ctx)
  const problem = validateQuote(body)
  if (problem) throw problem
  const path = body.endpoint as QuotablePath
  // Spec §5 rule 4 as the real call would apply it: a key works only on its group's protocol paths.
  const target = routes.find((r) => r.method === 'POST' && r.path === path)
  if (target?.groupProtocol !== undefined && ctx.group!.protocol !== target.groupProtocol) throw gatewayError('route_not_found', 'route_not_in_group', { path })
  const quotable = QUOTABLE[path]
  // The inner request is read as if it had been sent to its own path; it is already parsed: copying it out again
  // (serialised, then parsed) would triple the memory a large quote takes.
  const inner: RequestContext = { ...ctx, path, body: EMPTY, json: body.request as Record<string, unknown> }
  const { request, model } = await admit(inner, services, { ...quotable.admission, funds: free })
  ctx.model = model
  const price = await quotable.price(request, model, inner)
  sendJson(ctx.res, 200, {
    object: 'quote',
    currency: 'USD',
    min: nanoToUsd(price.minNano),
    expected: nanoToUsd(price.expectedNano ?? price.maxNano),
    max: nanoToUsd(price.maxNano),
    basis: { model: model.id, unit: model.pricing.unit, price: priceBasis(model.pricing), ...price.basis },
  })
}
