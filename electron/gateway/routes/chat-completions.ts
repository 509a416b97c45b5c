import { chatCompletionRequest } from '../../../shared/schemas/chat.js'
import { ensureFunds } from '../billing.js'
import { readJson } from '../body.js'
import type { RequestContext } from '../context.js'
import { applyChatRules } from '../families/chat-rules.js'
import { resolveModel, upstreamsFor } from '../model-access.js'
import { relay } from '../relay/relay.js'
import type { Services } from '../services.js'
import { promptText } from '../tokens.js'
import { compileValidator } from '../validate.js'

const validate = compileValidator(chatCompletionRequest)

/** POST /v1/chat/completions (spec §4.1). */
export async function chatCompletions(ctx: RequestContext, services: Services): Promise<void> {
  const { value: body, raw } = await readJson(ctx.req)
  const problem = validate(body)
  if (problem) throw problem
  const model = resolveModel(services.registry, ctx.group!, body.model, 'chat.completions')
  ctx.model = model
  const prepared = applyChatRules(body, model)
  const candidates = upstreamsFor(services.registry, ctx.group!, model, 'chat')
  ensureFunds(services.registry, ctx.key!)
  const stream = prepared.stream === true
  const streamOptions = (prepared.stream_options ?? {}) as Record<string, unknown>
  const includeUsage = streamOptions.include_usage === true
  // Usage is always requested upstream for billing; the client sees it only if it asked (spec §4.1).
  const upstreamBody = stream && !includeUsage ? { ...prepared, stream_options: { ...streamOptions, include_usage: true } } : prepared
  await relay(ctx, services, {
    capability: 'chat',
    model,
    body: upstreamBody,
    rawBody: upstreamBody === body ? raw : undefined,
    candidates,
    stream,
    includeUsage,
    billable: true,
    promptText: () => promptText(prepared.messages),
  })
}
