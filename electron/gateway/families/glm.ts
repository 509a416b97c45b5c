/**
 * The GLM text family (spec §4.1 row "GLM-5.3-style text model"): its defaults and request rules.
 * Every limit is read from the model's effective data (these defaults under its catalog/config row).
 * @see ../../../docs/vendors/zhipu-glm.md
 */
import { gatewayError } from '../errors.js'
import type { ChatRule } from '../contract/family.js'
import type { FamilyModule } from '../contract/family.js'
import { contentKindRule, maxTokensRule, reasoningEffortRule } from './kit/rule-helpers.js'

type Obj = Record<string, unknown>

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * Every `tool` message must answer a call: its `tool_call_id` must be the `id` of a `tool_calls`
 * entry of an earlier assistant message (spec §2.1). Otherwise 400 with the wording of the real
 * APIs ("No tool call found for function call output with call_id …"), param the field path.
 */
export const toolResultsMatchCalls: ChatRule = (body) => {
  if (!Array.isArray(body.messages)) return body
  const callIds = new Set<string>()
  body.messages.forEach((message: unknown, i) => {
    if (!isObj(message)) return
    if (message.role === 'assistant' && Array.isArray(message.tool_calls)) {
      for (const call of message.tool_calls) if (isObj(call) && typeof call.id === 'string') callIds.add(call.id)
    }
    if (message.role !== 'tool') return
    const param = `messages[${i}].tool_call_id`
    const id = message.tool_call_id
    if (id === undefined || id === null) throw gatewayError('invalid_request', 'missing_field', { field: param }, { param })
    if (typeof id !== 'string' || !callIds.has(id)) {
      throw gatewayError('invalid_request', 'tool_call_not_found', { id: typeof id === 'string' ? id : JSON.stringify(id) }, { param })
    }
  })
  return body
}

/** `tool_choice` defaults to `auto` when tools are sent without one (Zhipu supports only `auto`). */
export const defaultToolChoiceAuto: ChatRule = (body) => {
  const hasTools = Array.isArray(body.tools) && body.tools.length > 0
  if (!hasTools || (body.tool_choice !== undefined && body.tool_choice !== null)) return body
  return { ...body, tool_choice: 'auto' }
}

/**
 * GLM text model: text only (any non-text part 400), max_tokens 1..limits.maxOutputTokens,
 * reasoning_effort from the catalog list with thinking always on, tool results must match a call,
 * tool_choice defaults to `auto`.
 */
export const glmRules: ChatRule[] = [
  contentKindRule(true),
  maxTokensRule('glm_max_tokens_range'),
  reasoningEffortRule,
  toolResultsMatchCalls,
  defaultToolChoiceAuto,
]

export const glmFamily: FamilyModule = {
  name: 'glm',
  type: 'chat',
  defaults: {
    // A typical answer's tokens for the quote's `expected` (catalog _spec `typicalOutputTokens`: source and why).
    typicalOutputTokens: 1000,
    endpoints: ['chat.completions'],
    input: ['text'],
    reasoningEffort: ['low', 'high', 'max'],
    thinkingAlwaysOn: true,
    limits: { contextTokens: 1048576, maxOutputTokens: 131072 },
  },
  chatRules: glmRules,
}
