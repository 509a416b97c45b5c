import type { ChatRule } from '../contract/family.js'
import type { CatalogModel } from '../../../shared/types.js'
import { gatewayError } from '../errors.js'
import { promptText } from '../tokens/tokens.js'
import { familyModule } from './index.js'
import type { ClientLeaving } from '../contract/family.js'
import { checkInputLimit } from './kit/input-limit.js'

const KEPT_SERVICE_TIERS = new Set(['priority', 'flex'])

/** Spec §4.1: `service_tier` is kept only for `priority` and `flex`; other values are removed silently. */
export const dropUnknownServiceTier: ChatRule = (body) => {
  if (body.service_tier === undefined || KEPT_SERVICE_TIERS.has(body.service_tier as string)) return body
  const { service_tier: _dropped, ...rest } = body
  return rest
}

/**
 * The most answers (`n`) one chat completion may ask for, unless the model's catalog row says `maxChoices`: OpenAI's
 * own bound (its 400 "Invalid 'n': integer above maximum value. Expected a value <= 128", code
 * `integer_above_max_value`). Each answer is billed, so an unbounded `n` is never forwarded.
 */
export const MAX_CHOICES = 128

/** `n` (absent or null: 1) within 1..the model's `maxChoices` (default MAX_CHOICES), else OpenAI's 400. */
export const choicesRule: ChatRule = (body, model) => {
  const n = body.n
  if (n === undefined || n === null) return body
  const max = typeof model.maxChoices === 'number' ? model.maxChoices : MAX_CHOICES
  // The schema has already refused a non-integer.
  if ((n as number) < 1) throw gatewayError('invalid_request', 'chat_n_below_min', { n: n as number }, { param: 'n', upstreamCode: 'integer_below_min_value' })
  if ((n as number) > max) throw gatewayError('invalid_request', 'chat_n_above_max', { n: n as number, max }, { param: 'n', upstreamCode: 'integer_above_max_value' })
  return body
}

/**
 * Each family's own rules (its module's `chatRules`), after the rules of every family (spec §4.1): `service_tier`,
 * `n`, and the model's input cap (kit/input-limit.ts; a family that checks it with its own tokenizer says so by
 * `ownInputLimit`). Gemini's live in its adapter.
 */
export async function applyChatRules(body: Record<string, unknown>, model: CatalogModel, client?: ClientLeaving): Promise<Record<string, unknown>> {
  let out = choicesRule(dropUnknownServiceTier(body, model), model)
  const family = familyModule(model.family)
  if (!family.ownInputLimit) await checkInputLimit(() => promptText(out.messages), model, client, 'messages')
  for (const rule of family.chatRules ?? []) {
    const result = rule(out, model, client)
    // Only the Qwen input-length check ever waits; the others answer at once.
    out = result instanceof Promise ? await result : result
  }
  return out
}

/**
 * The rules of the protocols that run no family rules (Responses, Messages): `rule`, then the model's input cap on
 * the text `textOf` reads (kit/input-limit.ts), its refusal naming `param`.
 */
export function withInputLimit(textOf: (body: Record<string, unknown>) => string, param: string, rule: ChatRule = (body) => body) {
  return async (body: Record<string, unknown>, model: CatalogModel, client?: ClientLeaving): Promise<Record<string, unknown>> => {
    const out = rule(body, model)
    await checkInputLimit(() => textOf(out), model, client, param)
    return out
  }
}
