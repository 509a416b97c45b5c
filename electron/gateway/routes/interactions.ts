import { interactionRequest } from '../../../shared/schemas/interactions.js'
import { ensureFunds } from '../billing.js'
import { readJsonObject } from '../body.js'
import type { RequestContext } from '../context.js'
import { resolveModel, upstreamsFor } from '../model-access.js'
import { relay } from '../relay/relay.js'
import { responsesPromptText } from './responses.js'
import type { Services } from '../services.js'
import { compileValidator } from '../validate.js'

const validate = compileValidator(interactionRequest)

/** POST /v1beta/interactions: relayed to Gemini accounts for `gemini-interactions` models (spec §4.3). */
export async function interactions(ctx: RequestContext, services: Services): Promise<void> {
  const body = await readJsonObject(ctx.req)
  const problem = validate(body)
  if (problem) throw problem
  const model = resolveModel(services.registry, ctx.group!, body.model, 'interactions')
  ctx.model = model
  const candidates = upstreamsFor(services.registry, ctx.group!, model, 'interactions')
  ensureFunds(services.registry, ctx.key!)
  await relay(ctx, services, {
    capability: 'interactions',
    model,
    body,
    candidates,
    stream: body.stream === true,
    billable: true,
    promptText: () => responsesPromptText({ instructions: body.system_instruction, input: body.input }),
  })
}
