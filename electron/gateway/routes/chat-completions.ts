import { chatCompletionRequest } from '../../../shared/schemas/chat.js'
import type { RequestContext } from '../context.js'
import { applyChatRules } from '../families/chat-rules.js'
import { relay } from '../relay/relay.js'
import type { Services } from '../services.js'
import { promptText } from '../tokens.js'
import { compileValidator } from '../validate.js'
import { startRelay } from './relay-start.js'

const validate = compileValidator(chatCompletionRequest)

/** POST /v1/chat/completions (spec §4.1). */
export async function chatCompletions(ctx: RequestContext, services: Services): Promise<void> {
  const { body, raw, parsed, model, candidates } = await startRelay(ctx, services, {
    validate, endpoint: 'chat.completions', capability: 'chat', prepare: applyChatRules,
  })
  const stream = body.stream === true
  const streamOptions = (body.stream_options ?? {}) as Record<string, unknown>
  const includeUsage = streamOptions.include_usage === true
  // Usage is always requested upstream for billing; the client sees it only if it asked (spec §4.1).
  const upstreamBody = stream && !includeUsage ? { ...body, stream_options: { ...streamOptions, include_usage: true } } : body
  await relay(ctx, services, {
    capability: 'chat',
    model,
    body: upstreamBody,
    rawBody: upstreamBody === parsed ? raw : undefined,
    candidates,
    stream,
    includeUsage,
    billable: true,
    promptText: () => promptText(body.messages),
  })
}
