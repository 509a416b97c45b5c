import { chatCompletionRequest } from '../../../shared/schemas/chat.js'
import { ensureFunds } from '../billing.js'
import { readJsonObject } from '../body.js'
import type { RequestContext } from '../context.js'
import { applyChatRules } from '../families/chat-rules.js'
import { resolveModel, upstreamsFor } from '../model-access.js'
import { relayChat } from '../relay/chat.js'
import type { Services } from '../services.js'
import { compileValidator } from '../validate.js'

const validate = compileValidator(chatCompletionRequest)

/** POST /v1/chat/completions (spec §4.1). */
export async function chatCompletions(ctx: RequestContext, services: Services): Promise<void> {
  const body = await readJsonObject(ctx.req)
  const problem = validate(body)
  if (problem) throw problem
  const model = resolveModel(services.registry, ctx.group!, body.model, 'chat.completions')
  ctx.model = model
  const prepared = applyChatRules(body, model)
  const candidates = upstreamsFor(services.registry, ctx.group!, model, 'chat')
  ensureFunds(services.registry, ctx.key!)
  await relayChat(ctx, services, { model, body: prepared, candidates })
}
