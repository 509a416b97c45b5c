import { interactionRequest } from '../../../shared/schemas/interactions.js'
import type { RequestContext } from '../context.js'
import { relay } from '../relay/relay.js'
import { responsesPromptText } from './responses.js'
import type { Services } from '../services.js'
import { compileValidator } from '../validate.js'
import { startRelay } from './relay-start.js'

const validate = compileValidator(interactionRequest)

/** POST /v1beta/interactions: relayed to Gemini accounts for `gemini-interactions` models (spec §4.3). */
export async function interactions(ctx: RequestContext, services: Services): Promise<void> {
  const { body, raw, model, candidates } = await startRelay(ctx, services, { validate, endpoint: 'interactions', capability: 'interactions' })
  await relay(ctx, services, {
    capability: 'interactions',
    model,
    body,
    rawBody: raw,
    candidates,
    stream: body.stream === true,
    billable: true,
    promptText: () => responsesPromptText({ instructions: body.system_instruction, input: body.input }),
  })
}
