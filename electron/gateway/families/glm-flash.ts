/**
 * The GLM Flash family (spec §4.1 row "GLM-5.3-Flash-style model"): its defaults and request rules.
 * @see ../../../docs/vendors/zhipu-glm.md
 */
import { gatewayError } from '../errors.js'
import type { ChatRule } from '../contract/family.js'
import type { FamilyModule } from '../contract/family.js'
import { contentKindRule, maxTokensRule, reasoningEffortRule } from './kit/rule-helpers.js'

/**
 * Zhipu's own `tool_stream` (stream tool-call arguments incrementally) must be a boolean; it is
 * forwarded as sent. `null` means "not sent" and is removed (the upstream default, false, applies).
 */
export const toolStreamBoolean: ChatRule = (body) => {
  if (body.tool_stream === undefined || typeof body.tool_stream === 'boolean') return body
  if (body.tool_stream === null) {
    const { tool_stream: _dropped, ...rest } = body
    return rest
  }
  throw gatewayError(
    'invalid_request',
    'invalid_field',
    { field: 'tool_stream', detail: { en: 'must be a boolean (true or false)', zh: '必须是布尔值（true 或 false）' } },
    { param: 'tool_stream' },
  )
}

/**
 * GLM Flash: content kinds from the catalog (text, image, video, file today; unknown part types are
 * forwarded), max_tokens 1..limits.maxOutputTokens (shared by thinking and answer), reasoning_effort
 * from the catalog list with thinking always on, boolean `tool_stream`. Temperature and top_p have
 * no gateway range.
 */
export const glmFlashRules: ChatRule[] = [
  contentKindRule(false),
  maxTokensRule('glm_max_tokens_range'),
  reasoningEffortRule,
  toolStreamBoolean,
]

export const glmFlashFamily: FamilyModule = {
  name: 'glm-flash',
  type: 'chat',
  defaults: {
    // A typical answer's tokens for the quote's `expected` (catalog _spec `typicalOutputTokens`: source and why).
    typicalOutputTokens: 1000,
    endpoints: ['chat.completions'],
    input: ['text', 'image', 'video', 'file'],
    reasoningEffort: ['low', 'high', 'max'],
    thinkingAlwaysOn: true,
    limits: { contextTokens: 1000000, maxOutputTokens: 131072 },
  },
  chatRules: glmFlashRules,
}
