import { interactionRequest } from '../../../shared/schemas/interactions.js'
import { admit, jsonAdmission } from '../admission.js'
import { holdWorstCase } from '../billing/holds.js'
import { outputCap, tokenQuote } from '../billing/quote-price.js'
import type { RequestContext } from '../context.js'
import { relay } from '../relay/relay.js'
import { responsesPromptText } from './responses.js'
import type { Services } from '../services.js'
import { compileValidator } from '../validate.js'

const promptOf = (body: Record<string, unknown>): string => responsesPromptText({ instructions: body.system_instruction, input: body.input })

const ADMISSION = jsonAdmission({
  validate: compileValidator(interactionRequest),
  endpoint: 'interactions',
  capability: 'interactions',
  // The worst case held: the input, and `generation_config.max_output_tokens` or the model's output limit.
  funds: holdWorstCase<Record<string, unknown>>((body, model, ctx, options) => {
    const config = body.generation_config !== null && typeof body.generation_config === 'object' ? (body.generation_config as Record<string, unknown>) : {}
    return tokenQuote(model, promptOf(body), outputCap(config, ['max_output_tokens'], model), ctx.abort, options)
  }, 'generation_config.max_output_tokens'),
})

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
    promptText: () => promptOf(body),
  })
}
