import { interactionRequest } from '../../../shared/schemas/interactions.js'
import { admit, jsonAdmission } from '../admission.js'
import type { RequestContext } from '../context.js'
import { relay } from '../relay/relay.js'
import { responsesPromptText } from './responses.js'
import type { Services } from '../services.js'
import { compileValidator } from '../validate.js'

const ADMISSION = jsonAdmission({ validate: compileValidator(interactionRequest), endpoint: 'interactions', capability: 'interactions' })

/** POST /v1beta/interactions: relayed to Gemini accounts for `gemini-interactions` models (spec §4.3). */
export async function interactions(ctx: RequestContext, services: Services): Promise<void> {
  const { request: body, model, candidates } = await admit(ctx, services, ADMISSION)
  await relay(ctx, services, {
    capability: 'interactions',
    model,
    body,
    // The body goes out as the client's own bytes (an upstream gateway gets exactly what was sent).
    rawBody: ctx.body,
    candidates,
    stream: body.stream === true,
    billable: true,
    promptText: () => responsesPromptText({ instructions: body.system_instruction, input: body.input }),
  })
}
